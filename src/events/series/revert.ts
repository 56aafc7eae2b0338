/**
 * Reverting an override (contract §7.8, `revert` on a write of an occurrence): the occurrence shows
 * its series again — the same id, the dates the rule gives it, the series' fields and links — as if
 * it had never been changed on its own. What an import of the series' iCalendar source does to an
 * override it wrote that the file no longer has (contract §7.9): only while no other write changed
 * the override since (`imported`), else 409 `rest_write_conflict` (message `override_changed`).
 *
 * One batch: the override's row goes (its links with it), the occurrence's row comes back with its
 * id, and the occurrence's `event.updated` is queued. The sync log sees the occurrence changed (the
 * row that comes back moves it past the removal: drizzle/0019_sync_log.sql), and the series'
 * stored rendering goes stale (its JSON-LD `exceptDate`: drizzle/0021).
 */
import { sql } from "drizzle-orm";
import type { BatchQuery } from "../../db/batch";
import type { Db } from "../../db/client";
import { events, webhookOutbox, webhooks } from "../../db/schema";
import { unlessChanged } from "../../db/write";
import { ApiError } from "../../http/errors";
import type { EventRow } from "../record";
import { occurrenceDates } from "./expand";
import { insertOccurrences } from "./regenerate";

/** The row is as read: same id, status and change time. */
const asRead = (row: Pick<EventRow, "id" | "status" | "changedGmt">) =>
  sql`EXISTS (SELECT 1 FROM ${events} WHERE ${events.id} = ${row.id} AND ${events.status} = ${row.status} AND ${events.changedGmt} = ${row.changedGmt})`;

/**
 * The outbox row of the reverted occurrence's `event.updated` (contract §7.5): its status and
 * modification time are its series' now, queued only while a webhook is active.
 */
const occurrenceUpdated = (db: Db, id: number, seriesId: number) =>
  db
    .insert(webhookOutbox)
    .select(
      sql`SELECT NULL, 'event', ${id}, 'updated', ${events.status}, ${events.status}, ${events.postModifiedGmt}, strftime('%Y-%m-%d %H:%M:%S', 'now'), NULL, NULL FROM ${events} WHERE ${events.id} = ${seriesId} AND EXISTS (SELECT 1 FROM ${webhooks} WHERE ${webhooks.status} = 'active')`,
    );

/**
 * The statements that revert `override` (an override row of `series`, both as read) to the
 * occurrence the rule gives: one batch, guarded by both rows as read.
 * @param onlyImported revert only an override whose last write was an import's (`imported`).
 * @param stamp the write's UTC change time (`Y-m-d H:i:s`).
 * @throws ApiError 409 `rest_write_conflict` (message `override_changed`, the override's id) when
 *   `onlyImported` and the override was written otherwise since. The batch fails as a conflict
 *   when either row changed since it was read (src/db/write.ts `unlessChanged`).
 * @example const write = revertOverride(db, series, override, { onlyImported: true, stamp })
 */
export function revertOverride(
  db: Db,
  series: EventRow,
  override: EventRow,
  options: { onlyImported: boolean; stamp: string },
): BatchQuery[] {
  if (options.onlyImported && !override.imported)
    throw new ApiError(
      409,
      "rest_write_conflict",
      [override.id],
      { params: ["revert"] },
      "override_changed",
    );
  const start = override.occurrenceStart ?? override.startDate;
  const dates = occurrenceDates(series, start);
  return [
    unlessChanged(db, sql`${asRead(series)} AND ${asRead(override)}`),
    db.delete(events).where(sql`${events.id} = ${override.id}`),
    ...insertOccurrences(
      db,
      series.id,
      [{ id: override.id, occurrenceStart: start, ...dates }],
      new Set(),
      options.stamp,
    ),
    occurrenceUpdated(db, override.id, series.id),
  ];
}
