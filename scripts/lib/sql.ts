/** Moved to tools/lib/sql.ts; this path stays for scripts/bench/, which imports it. */
export * from "../../tools/lib/sql";
