/** Moved to tools/demo/calendar.ts; this path stays for scripts/bench/, which imports it. */
export * from "../../../tools/demo/calendar";
