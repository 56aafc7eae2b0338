/** Moved to tools/demo/sql.ts; this path stays for scripts/bench/, which imports it. */
export * from "../../../tools/demo/sql";
