/** Moved to tools/lib/prng.ts; this path stays for scripts/bench/, which imports it. */
export * from "../../tools/lib/prng";
