/**
 * Shared pieces of every write (contract §2): ids from the shared sequences, the content version
 * bump, post dates, and the retry that makes optimistic id allocation safe.
 *
 * A write reads what it needs (including the next free ids) in one batch, then sends everything it
 * changes as one `db.batch()`, which D1 runs as a transaction: it lands whole or not at all. If a
 * concurrent write took the same ids or slug in between, the batch fails on a UNIQUE/PRIMARY KEY
 * constraint and `withWriteRetry` runs the whole operation again from its reads.
 */
import { eq, inArray, type SQL, sql } from "drizzle-orm";
import type { DateTime } from "luxon";
import { WP_FORMAT } from "../time/format";
import { resolveZone } from "../time/zone";
import type { Db } from "./client";
import { contentVersion, posts, terms } from "./schema";

/** Query for the next free post id (posts rows are never deleted, so ids are never reused). */
export const nextPostIdQuery = (db: Db) =>
  db.select({ next: sql<number>`coalesce(max(${posts.id}), 0) + 1` }).from(posts);

/** Query for the next free term id. */
export const nextTermIdQuery = (db: Db) =>
  db
    .select({
      next: sql<number>`max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'terms'), 0), coalesce(max(${terms.id}), 0)) + 1`,
    })
    .from(terms);

/** The statement that bumps the content version; put it in every write batch. */
export const bumpContentVersion = (db: Db) =>
  db
    .update(contentVersion)
    .set({ version: sql`${contentVersion.version} + 1` })
    .where(eq(contentVersion.id, 1));

/**
 * A statement that makes its write batch fail as a conflict — so `withWriteRetry` runs the operation
 * again from its reads — unless `stillTrue` (an SQL condition, typically "the row still has the
 * status and modification time we read") holds when the batch runs. Put it first in the batch.
 *
 * It inserts the already existing `content_version` row 1 only when the condition does not hold, so
 * the failure is the PRIMARY KEY conflict `isConflict` recognizes. This keeps a write that lost a
 * race (an update whose event was trashed or deleted in between) from being applied to what it
 * never saw: a trashed post is never resurrected, a deleted one never half re-created.
 */
export const unlessChanged = (db: Db, stillTrue: SQL) =>
  db.insert(contentVersion).select(sql`SELECT 1, 0 WHERE NOT (${stillTrue})`);

/** Recounts published events per term (WordPress `_update_post_term_count`) for the given terms. */
export const recountTerms = (db: Db, termIds: number[] | "all") =>
  db
    .update(terms)
    .set({
      count: sql`(SELECT count(*) FROM event_terms et JOIN events e ON e.id = et.event_id WHERE et.term_id = ${terms.id} AND e.status = 'publish')`,
    })
    .where(termIds === "all" ? undefined : inArray(terms.id, termIds.length ? termIds : [-1]));

/** `post_date`/`post_date_gmt` pair for an instant: site-local and UTC `Y-m-d H:i:s`. */
export function postDates(instant: DateTime, siteTimezone: string): { local: string; gmt: string } {
  return {
    local: instant.setZone(resolveZone(siteTimezone) ?? "utc").toFormat(WP_FORMAT),
    gmt: instant.toUTC().toFormat(WP_FORMAT),
  };
}

/** True for D1 errors caused by a concurrent write taking the same id or unique value. */
export function isConflict(err: unknown): boolean {
  const message =
    err instanceof Error
      ? `${err.message} ${String((err as { cause?: unknown }).cause ?? "")}`
      : String(err);
  return /UNIQUE constraint failed|PRIMARY KEY|SQLITE_CONSTRAINT/i.test(message);
}

/**
 * Runs a read-then-batch write, again from the start when the batch lost a race (bounded).
 * Errors that are not conflicts, and the last conflict, are rethrown.
 */
export async function withWriteRetry<T>(operation: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await operation();
    } catch (err) {
      if (i >= attempts || !isConflict(err)) throw err;
      await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 10));
    }
  }
}
