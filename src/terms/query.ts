/**
 * SQL pieces shared by the term handlers. Lists travel as one JSON parameter (`json_each`), so a
 * statement stays within D1's 100 bound parameters however many ids, slugs or names a client sends.
 */
import { eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { events, eventTerms, terms } from "../db/schema";

/** Deepest category nesting followed when building public links (guards against damaged data). */
const MAX_DEPTH = 32;

const json = (values: unknown[]) => JSON.stringify(values);

/**
 * Terms named by any of `refs`: an id (digits), a slug or a name, case-insensitively
 * (`term_exists`, §3; contract §4 row 22).
 * @example db.select().from(terms).where(and(eq(terms.taxonomy, "post_tag"), refsCondition(["12", "jazz", "Live Music"])))
 */
export function refsCondition(refs: string[]): SQL {
  const ids = refs.filter((r) => /^\d+$/.test(r)).map(Number);
  const lowered = refs.map((r) => r.toLowerCase());
  return sql`(${terms.id} IN (SELECT value FROM json_each(${json(ids)})) OR ${terms.slug} IN (SELECT value FROM json_each(${json(lowered)})) OR lower(${terms.name}) IN (SELECT value FROM json_each(${json(lowered)})))`;
}

/** Which of `refs` the found rows answer; the rest do not exist. */
export function missingRefs(
  refs: string[],
  found: Array<{ id: number; slug: string; name: string }>,
): string[] {
  return refs.filter((ref) => {
    const lower = ref.toLowerCase();
    return !found.some(
      (t) =>
        (/^\d+$/.test(ref) && t.id === Number(ref)) ||
        t.slug === lower ||
        t.name.toLowerCase() === lower,
    );
  });
}

/** Position of the term's first matching reference in `refs` (`orderby=include`, §7.2). */
export function refPosition(refs: string[]): SQL {
  const entries = refs.map((r) => r.toLowerCase());
  return sql`(SELECT min(j.key) FROM json_each(${json(entries)}) j WHERE j.value = CAST(${terms.id} AS TEXT) OR j.value = ${terms.slug} OR j.value = lower(${terms.name}))`;
}

/**
 * The category chains above some terms: every term from `start` (a parenthesized list or subquery
 * of term ids, typically parents) up to the top, as `{id, parent, slug}` rows. One statement for a
 * batch: a select whose filter is a recursive CTE (drizzle cannot batch raw statements with
 * parameters).
 * @example batch.add("ancestors", ancestorsQuery(db, [parentId])) // then ancestryOf(results.ancestors)
 */
export function ancestorsQuery(db: Db, start: SQL | number[]) {
  const ids = Array.isArray(start) ? sql`(SELECT value FROM json_each(${json(start)}))` : start;
  const chain = sql`WITH RECURSIVE chain(id, parent, depth) AS (
      SELECT id, parent, 0 FROM terms WHERE id IN ${ids}
      UNION ALL
      SELECT t.id, t.parent, chain.depth + 1 FROM terms t JOIN chain ON t.id = chain.parent WHERE chain.depth < ${MAX_DEPTH}
    ) SELECT id FROM chain`;
  return db
    .select({ id: terms.id, parent: terms.parent, slug: terms.slug })
    .from(terms)
    .where(sql`${terms.id} IN (${chain})`);
}

/**
 * Marks the events using a term as changed, so `modified_after` sync clients refetch them: their
 * embedded copy of the term changed (or disappeared). Their displayed `modified` stays, as in
 * WordPress, where editing a term leaves its posts alone. Must run before the term's links are removed.
 */
export function touchEventsOf(db: Db, termId: number, stamp: { local: string; gmt: string }) {
  return db
    .update(events)
    .set({ changedGmt: stamp.gmt })
    .where(
      inArray(
        events.id,
        db.select({ id: eventTerms.eventId }).from(eventTerms).where(eq(eventTerms.termId, termId)),
      ),
    );
}
