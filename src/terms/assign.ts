/**
 * Terms given with an event (tec-reference §8.2 `categories`/`tags`; contract §4 rows 10, 22): ids,
 * slugs or names, as a list or comma string. Numeric ids that do not exist are skipped; other
 * references resolve by slug, then name (case-insensitive), and are created when missing.
 */
import { and, eq, sql } from "drizzle-orm";
import { batchKey, type NamedBatch } from "../db/batch";
import type { Db } from "../db/client";
import { type Taxonomy, terms } from "../db/schema";
import { freeSlug, slugsTaken, uniqueSlug } from "../db/slugs";
import { unlessChanged } from "../db/write";
import type { WritePlan } from "../db/write-plan";
import { InvalidParamsError } from "../http/errors";
import { isEmpty, listToArray, MAX_LIST } from "../http/validators";
import { sanitizeTitle } from "../text/html";
import { htmlFiltersFor } from "../text/kses";
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
  if (
    list.length > MAX_LIST ||
    !list.every((x) => typeof x === "string" || typeof x === "number")
  ) {
    throw new InvalidParamsError([{ name }]);
  }
  const refs = [
    ...new Set(list.map((x) => String(x).trim()).filter((x) => x !== "" && x.length <= 200)),
  ];
  return { clear: refs.length === 0, refs };
}

const key = (taxonomy: Taxonomy) => (taxonomy === "tribe_events_cat" ? "categories" : "tags");

/** The read batch's entries for a taxonomy: the terms named, the slugs new ones would take. */
const keys = (taxonomy: Taxonomy) => ({
  terms: batchKey<Array<{ id: number; slug: string; name: string }>>(`${key(taxonomy)}:terms`),
  slugs: batchKey<Array<{ slug: string }>>(`${key(taxonomy)}:slugs`),
});

/** Adds the lookups for `refs` to the read batch. */
export function lookupTerms(batch: NamedBatch, db: Db, taxonomy: Taxonomy, refs: string[]): void {
  if (refs.length === 0) return;
  const words = refs.filter((r) => !/^\d+$/.test(r));
  batch.add(
    keys(taxonomy).terms,
    db
      .select({ id: terms.id, slug: terms.slug, name: terms.name })
      .from(terms)
      .where(and(eq(terms.taxonomy, taxonomy), refsCondition(refs))),
  );
  const bases = [...new Set(words.map((w) => sanitizeTitle(w) || "term"))];
  if (bases.length) {
    batch.add(
      keys(taxonomy).slugs,
      db
        .select({ slug: terms.slug })
        .from(terms)
        .where(and(eq(terms.taxonomy, taxonomy), slugsTaken(terms.slug, bases))),
    );
  }
}

/**
 * Resolves references to term ids, adding inserts for missing terms to the plan: names through the
 * writer's HTML filter, slugs decided in the batch (`freeSlug`), and a guard so that a parallel write
 * creating the same term first makes this one start again and use it.
 * @returns the term ids in the order given (deduplicated).
 */
export function resolveTerms(
  plan: WritePlan,
  taxonomy: Taxonomy,
  refs: string[],
  results: NamedBatch,
): number[] {
  const rows = results.maybe(keys(taxonomy).terms) ?? [];
  const taken = new Set<string>((results.maybe(keys(taxonomy).slugs) ?? []).map((r) => r.slug));
  const html = htmlFiltersFor(plan.user);
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
      const base = sanitizeTitle(ref) || "term";
      plan.statements.push(
        plan.db.insert(terms).values({
          id,
          taxonomy,
          name: html.data(ref),
          slug: freeSlug("terms", base, uniqueSlug(base, taken), {
            scope: sql`s.taxonomy = ${taxonomy}`,
          }),
          modifiedGmt: plan.stamp.gmt,
        }),
      );
    }
    if (!ids.includes(id)) ids.push(id);
  }
  if (created.size > 0) {
    const read = JSON.stringify(rows.map((t) => t.id));
    plan.guards.push(
      unlessChanged(
        plan.db,
        sql`NOT EXISTS (SELECT 1 FROM ${terms} WHERE ${and(eq(terms.taxonomy, taxonomy), refsCondition([...created.keys()]), sql`${terms.id} NOT IN (SELECT value FROM json_each(${read}))`)})`,
      ),
    );
  }
  return ids;
}
