/**
 * How common the terms of a category or tag filter are, as this isolate last saw them:
 * the page of a common term is found fastest by probing the archive row by row, that of a rare one
 * from the list of its events (src/events/filters.ts `termFilter`). Learnt from the lookups every
 * filtered list makes anyway (`existenceQueries` answers the terms' counts); a filter not seen yet
 * takes the list, which is never slow for long. Only the plan depends on it, never the answer.
 */
import { Memo } from "../lib/memo";
import type { CommonTerms, EventFilters, FoundRefs } from "./filters";

/** Published events above which a filter's terms count as common. */
export const COMMON_TERM = 1000;

/** Summed counts by filter (`categories:music,jazz`). */
const weights = new Memo<number>(1024);

const keyOf = (name: "categories" | "tags", refs: string[]) => `${name}:${refs.join(",")}`;

/** Which of the request's term filters name common terms, as far as this isolate knows. */
export function commonTerms(f: EventFilters): CommonTerms {
  const out: CommonTerms = {};
  for (const name of ["categories", "tags"] as const) {
    const refs = f[name];
    if (refs) out[name] = (weights.find(keyOf(name, refs)) ?? 0) >= COMMON_TERM;
  }
  return out;
}

/** Learns the weights of the request's term filters from what `existenceQueries` found. */
export function learnTermWeights(f: EventFilters, found: FoundRefs): void {
  for (const name of ["categories", "tags"] as const) {
    const refs = f[name];
    const rows = found[name];
    if (!refs || !rows) continue;
    weights.set(
      keyOf(name, refs),
      rows.reduce((sum, row) => sum + (row.count ?? 0), 0),
    );
  }
}
