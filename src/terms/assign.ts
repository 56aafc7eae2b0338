/**
 * Terms given with an event (tec-reference §8.2 `categories`/`tags`; contract §4 rows 10, 22): ids,
 * slugs or names, as a list or comma string. Numeric ids that do not exist are skipped; other
 * references resolve by slug, then name (case-insensitive), and are created when missing.
 */
import { and, eq, or } from "drizzle-orm";
import type { NamedBatch } from "../db/batch";
import type { Db } from "../db/client";
import { type Taxonomy, terms } from "../db/schema";
import { slugTaken, uniqueSlug } from "../db/slugs";
import type { WritePlan } from "../db/write-plan";
import { InvalidParamsError } from "../http/errors";
import { isEmpty, listToArray } from "../http/validators";
import { sanitizeTitle } from "../text/html";
import { refsCondition } from "./query";

export interface TermRefs {
  /** Empty value: remove all terms of the taxonomy. */
  clear: boolean;
  refs: string[];
}

/**
 * Parses a `categories`/`tags` value.
 * @throws InvalidParamsError naming the parameter for objects or overlong lists.
 */
export function parseTermRefs(name: string, raw: unknown): TermRefs {
  if (isEmpty(raw)) return { clear: true, refs: [] };
  const list = listToArray(raw);
  if (list.length > 100 || !list.every((x) => typeof x === "string" || typeof x === "number")) {
    throw new InvalidParamsError([{ name }]);
  }
  const refs = [
    ...new Set(list.map((x) => String(x).trim()).filter((x) => x !== "" && x.length <= 200)),
  ];
  return { clear: refs.length === 0, refs };
}

const key = (taxonomy: Taxonomy) => (taxonomy === "tribe_events_cat" ? "categories" : "tags");

/** Adds the lookups for `refs` to the read batch. */
export function lookupTerms(batch: NamedBatch, db: Db, taxonomy: Taxonomy, refs: string[]): void {
  if (refs.length === 0) return;
  const words = refs.filter((r) => !/^\d+$/.test(r));
  batch.add(
    `${key(taxonomy)}:terms`,
    db
      .select({ id: terms.id, slug: terms.slug, name: terms.name })
      .from(terms)
      .where(and(eq(terms.taxonomy, taxonomy), refsCondition(refs))),
  );
  const bases = [...new Set(words.map((w) => sanitizeTitle(w) || "term"))];
  if (bases.length) {
    batch.add(
      `${key(taxonomy)}:slugs`,
      db
        .select({ slug: terms.slug })
        .from(terms)
        .where(
          and(eq(terms.taxonomy, taxonomy), or(...bases.map((b) => slugTaken(terms.slug, b)))),
        ),
    );
  }
}

/**
 * Resolves references to term ids, adding inserts for missing terms to the plan.
 * @returns the term ids in the order given (deduplicated).
 */
export function resolveTerms(
  plan: WritePlan,
  taxonomy: Taxonomy,
  refs: string[],
  // biome-ignore lint/suspicious/noExplicitAny: batch results are untyped until issue 15 names and types them.
  results: Record<string, any>,
): number[] {
  const rows: Array<{ id: number; slug: string; name: string }> =
    results[`${key(taxonomy)}:terms`] ?? [];
  const taken = new Set<string>(
    (results[`${key(taxonomy)}:slugs`] ?? []).map((r: { slug: string }) => r.slug),
  );
  const ids: number[] = [];
  const created = new Map<string, number>();
  for (const ref of refs) {
    const lower = ref.toLowerCase();
    let id: number | undefined;
    if (/^\d+$/.test(ref)) {
      id = rows.find((t) => t.id === Number(ref))?.id;
      if (id === undefined) continue; // unknown numeric ids are skipped (§8.2)
    } else {
      id =
        rows.find((t) => t.slug === lower)?.id ??
        rows.find((t) => t.name.toLowerCase() === lower)?.id ??
        created.get(lower);
    }
    if (id === undefined) {
      id = plan.termIds.take();
      created.set(lower, id);
      plan.statements.push(
        plan.db.insert(terms).values({
          id,
          taxonomy,
          name: ref,
          slug: uniqueSlug(sanitizeTitle(ref) || "term", taken),
          modifiedGmt: plan.stamp.gmt,
        }),
      );
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
