/**
 * The sync cursor (contract §7.3): every list answer (`/events`, `/venues`, `/organizers`,
 * `/categories`, `/tags`, `/deleted`, `events.ics`) says, in `X-TEC-Sync-Cursor`, the position of
 * the sync clock its data was read at; a client passes it back as `sync_cursor` and gets what
 * changed after it. No clock is involved: the clock is `content_version.seq`, which the triggers
 * of drizzle/0019_sync_log.sql move in the transaction of every change, so positions follow the
 * order in which writes commit.
 *
 * - The cursor is read in the same D1 batch as the list (the batch that reads the content version:
 *   one snapshot, no extra round trip), so nothing committed after the read is at or below it,
 *   however early the write started.
 * - Anonymous answers carry `version_seq`, the clock as of the last change anonymous readers can
 *   see: a function of the content version the read cache keys them by, so a cached answer carries
 *   the cursor of the data it holds, the same as the full path's (contract §6).
 * - Signed-in answers carry `seq` itself (they are never cached).
 */
import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../db/client";
import { type SyncType, syncLog } from "../db/schema";
import type { AppContext } from "../http/context";

/** The response header of the cursor. */
export const SYNC_CURSOR_HEADER = "X-TEC-Sync-Cursor";

/**
 * Asks the request's next D1 batch to read the sync clock with its data (same round trip, same
 * snapshot). Call right before the list's batch.
 */
export function carrySyncCursor(c: AppContext): void {
  c.get("rdb").carryVersion();
}

/**
 * The cursor of what the request's latest clock-carrying batch read: `version_seq` for anonymous
 * readers, `seq` for signed-in ones; undefined when no batch read it.
 */
export function syncCursorOf(c: AppContext): number | undefined {
  const clock = c.get("rdb").clockRead();
  if (!clock) return undefined;
  return c.get("user") === null ? clock.versionSeq : clock.seq;
}

/**
 * Sets `X-TEC-Sync-Cursor` on the answer (after the list's batch ran) and returns the cursor.
 * @example carrySyncCursor(c); const r = await runBatch(db, {...}); setSyncCursor(c);
 */
export function setSyncCursor(c: AppContext): number | undefined {
  const cursor = syncCursorOf(c);
  if (cursor !== undefined) c.header(SYNC_CURSOR_HEADER, String(cursor));
  return cursor;
}

/**
 * The ids of `type` changed after `cursor` (a position of the sync clock), as a subquery for
 * `inArray`: read from the `sync_log_changed` index.
 * @example inArray(venues.id, changedAfter(db, "venue", 41))
 */
export const changedAfter = (db: Db, type: SyncType, cursor: number) =>
  db
    .select({ id: syncLog.id })
    .from(syncLog)
    .where(and(eq(syncLog.type, type), gt(syncLog.seq, cursor)));
