/**
 * How common the terms of a category or tag filter are, as this isolate last saw them (kept by the
 * read cache, src/read-cache/kept.ts; with caches off nothing is known and every filter takes the
 * list):
 * the page of a common term is found fastest by probing the archive row by row, that of a rare one
 * from the list of its events (src/events/filters.ts `termFilter`). Learnt from the lookups every
 * filtered list makes anyway (`existenceQueries` answers the terms' counts); a filter not seen yet
 * takes the list, which is never slow for long. Only the plan depends on it, never the answer.
 */
import type { AppContext } from "../http/context";
import type { CommonTerms, EventFilters, FoundRefs } from "./filters";

/** Published events above which a filter's terms count as common. */
export const COMMON_TERM = 1000;

const keyOf = (name: "categories" | "tags", refs: string[]) => `${name}:${refs.join(",")}`;

/** Which of the request's term filters name common terms, as far as this isolate knows. */
export function commonTerms(c: AppContext, f: EventFilters): CommonTerms {
  const weights = c.get("kept")?.termWeights;
  const out: CommonTerms = {};
  if (!weights) return out;
  for (const name of ["categories", "tags"] as const) {
    const refs = f[name];
    if (refs) out[name] = (weights.find(keyOf(name, refs)) ?? 0) >= COMMON_TERM;
  }
  return out;
}

/** Learns the weights (summed counts, by filter: `categories:music,jazz`) of the request's term filters from what `existenceQueries` found. */
export function learnTermWeights(c: AppContext, f: EventFilters, found: FoundRefs): void {
  const weights = c.get("kept")?.termWeights;
  if (!weights) return;
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
