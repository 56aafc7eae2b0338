/**
 * Shared pieces of every write (contract §2): guards, post dates, term counts, and the
 * retry that resolves races between parallel writes.
 *
 * A write reads what it needs in one batch, reserves the ids it needs (src/db/ids.ts: never a
 * guess, so never a collision), then sends everything it changes as one `db.batch()`, which D1 runs
 * as a transaction: it lands whole or not at all. Slugs are decided inside that batch
 * (`freeSlug`). What can still race is a decision taken on the reads — "no venue of that name
 * exists, create one", "the event is as I read it" — so each such decision puts a guard
 * (`unlessChanged`) in the batch; a guard that no longer holds fails the batch as a conflict, and
 * `withWriteRetry` runs the operation again from its reads, which then see the winner. Each round
 * lets at least one writer through and the losers find what it wrote, so parallel writes all
 * succeed or get their ordinary 4xx.
 */
import { type SQL, sql } from "drizzle-orm";
import type { DateTime } from "luxon";
import pRetry from "p-retry";
import { WP_FORMAT } from "../time/format";
import { resolveZone } from "../time/zone";
import type { Db } from "./client";
import { WriteConflict } from "./errors";
import { contentVersion, terms } from "./schema";
import { inList } from "./sql";

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
  // One value per column of `content_version` (drizzle names them all).
  db.insert(contentVersion).select(sql`SELECT 1, 0, 0, 0 WHERE NOT (${stillTrue})`);

/**
 * Recounts published events per term (WordPress `_update_post_term_count`) for the given terms. A
 * recurring series counts once, as the one post it is: its overrides (event rows of single
 * occurrences, contract §7.8) do not count.
 */
export const recountTerms = (db: Db, termIds: number[] | "all") =>
  db
    .update(terms)
    .set({
      count: sql`(SELECT count(*) FROM event_terms et JOIN events e ON e.id = et.event_id WHERE et.term_id = ${terms.id} AND e.status = 'publish' AND (e.series_id IS NULL OR e.series_id = e.id))`,
    })
    .where(termIds === "all" ? undefined : inList(terms.id, termIds));

/** `post_date`/`post_date_gmt` pair for an instant: site-local and UTC `Y-m-d H:i:s`. */
export function postDates(instant: DateTime, siteTimezone: string): { local: string; gmt: string } {
  return {
    local: instant.setZone(resolveZone(siteTimezone) ?? "utc").toFormat(WP_FORMAT),
    gmt: instant.toUTC().toFormat(WP_FORMAT),
  };
}

/**
 * The columns a trash sets on a post row (§8.7: `_wp_trash_meta_status` keeps the status to restore;
 * the modification dates and the sync clock's `changed_gmt` move).
 * @param stamp `postDates` of the write.
 */
export const trashColumns = (status: string, stamp: { local: string; gmt: string }) => ({
  status: "trash",
  trashMetaStatus: status,
  postModified: stamp.local,
  postModifiedGmt: stamp.gmt,
  changedGmt: stamp.gmt,
});

/**
 * True for D1 errors caused by a concurrent write: a unique value or key taken in between, a guard
 * (`unlessChanged`) that no longer held, a linked row deleted in between.
 */
export function isConflict(err: unknown): boolean {
  const message =
    err instanceof Error
      ? `${err.message} ${String((err as { cause?: unknown }).cause ?? "")}`
      : String(err);
  // Not every SQLITE_CONSTRAINT: a trigger's RAISE(ABORT) or a CHECK is a failure, not a race.
  return /UNIQUE constraint failed|PRIMARY KEY|FOREIGN KEY constraint failed/i.test(message);
}

/** Rounds a write may take before it gives up on a race it keeps losing. */
export const WRITE_ATTEMPTS = 12;

/**
 * Runs a read-then-batch write, again from the start when the batch lost a race, with jittered,
 * doubling pauses from 5 ms up to 320 ms (`p-retry`; at most `attempts` rounds, about 2 s in all).
 * @throws WriteConflict when every round lost (answered 409 `rest_write_conflict`: the client may
 *   simply retry); errors that are not conflicts are rethrown as they are.
 */
export async function withWriteRetry<T>(
  operation: () => Promise<T>,
  attempts = WRITE_ATTEMPTS,
): Promise<T> {
  try {
    return await pRetry(operation, {
      retries: attempts - 1,
      minTimeout: 5,
      factor: 2,
      maxTimeout: 320,
      randomize: true,
      shouldRetry: ({ error }) => isConflict(error),
    });
  } catch (err) {
    throw isConflict(err) ? new WriteConflict() : err;
  }
}
