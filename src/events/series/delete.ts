/**
 * Deleting in a recurring series (contract §7.8):
 *
 * - `DELETE /events/{occurrence id}`: that occurrence goes — an `EXDATE` of its original start in
 *   the series' lines (an override's row goes with it) — and its id is tombstoned (`GET /deleted`);
 *   with `scope=following` it and every later one (the series ends before it: an `UNTIL`). Answered
 *   `{deleted: true, previous}` (an occurrence has no trash of its own), `force` or not.
 * - `DELETE` of the series' own id: everything (trash: the overrides follow the series' status, the
 *   occurrences by trigger; `force`: occurrences and overrides deleted and tombstoned first).
 *
 * Permissions are the series' (`delete_post` on its event).
 */
import { and, eq, gte, ne, sql } from "drizzle-orm";
import { canDeletePost } from "../../access/capabilities";
import type { BatchQuery } from "../../db/batch";
import type { Db } from "../../db/client";
import { eventOccurrences, events, posts } from "../../db/schema";
import { unlessChanged } from "../../db/write";
import { type WriteDecision, writeThen } from "../../db/write-pipeline";
import type { AppContext } from "../../http/context";
import { forbidden } from "../../http/errors";
import type { RenderContext } from "../../http/render";
import type { EventRecord, EventRow } from "../record";
import { serializeEvent } from "../serialize";
import { visibleEvent } from "../visible";
import { formatLines, parseLines } from "./lines";
import { isSeries, type OccurrenceRow } from "./occurrences";
import { COMPLETE, frameOf, tombstones } from "./regenerate";
import { recurrenceInvalid } from "./save";
import { cutRecurrence } from "./split";

/** A post-date stamp: site-local and UTC `Y-m-d H:i:s`. */
type Stamp = { local: string; gmt: string };

/**
 * What deleting a series' own event does to the rest of it, to run before the event's own delete or
 * trash (nothing for a single event).
 */
export function seriesRemoval(db: Db, row: EventRow, force: boolean, stamp: Stamp): BatchQuery[] {
  if (!isSeries(row)) return [];
  const others = and(eq(events.seriesId, row.id), ne(events.id, row.id));
  if (!force)
    return [
      db
        .update(events)
        .set({
          status: "trash",
          trashMetaStatus: sql`${events.status}`,
          postModified: stamp.local,
          postModifiedGmt: stamp.gmt,
          changedGmt: stamp.gmt,
        })
        .where(and(others, ne(events.status, "trash"))),
    ];
  const ids = sql`(SELECT ${eventOccurrences.id} FROM ${eventOccurrences} WHERE ${eventOccurrences.seriesId} = ${row.id} UNION ALL SELECT ${events.id} FROM ${events} WHERE ${others})`;
  return [
    db.update(posts).set({ deletedGmt: stamp.gmt }).where(sql`${posts.id} IN ${ids}`),
    db.delete(eventOccurrences).where(eq(eventOccurrences.seriesId, row.id)),
    db.delete(events).where(others),
  ];
}

/** What `DELETE` of an occurrence needs: the event as loaded by its id. */
export interface OccurrenceDelete {
  record: EventRecord;
  occurrence: OccurrenceRow | null;
  /** The series' row (read for an override). */
  series: EventRow;
  scope: string | undefined;
  stamp: Stamp;
  render: RenderContext;
}

/**
 * The plan of `DELETE /events/{occurrence id}` (and `scope=following`), for the write sequence
 * (src/db/write-pipeline.ts): the series' new lines and what goes, in one batch, answered
 * `{deleted: true, previous}`.
 * @throws ApiError 401/403 without `delete_post` on the series; InvalidParamsError `recurrence`
 *   when the lines cannot be cut there.
 */
export function planOccurrenceDelete(
  c: AppContext,
  job: OccurrenceDelete,
): WriteDecision<Response> {
  const { record, series, stamp, render } = job;
  const user = c.get("user");
  if (!canDeletePost(user, series)) throw forbidden(user !== null);
  const { db } = c.get("rdb");
  const { lines, gone } = occurrenceRemoval(db, job);
  const previous = serializeEvent(render, visibleEvent(render, record));
  const asRead = sql`EXISTS (SELECT 1 FROM ${events} WHERE ${events.id} = ${series.id} AND ${events.status} = ${series.status} AND ${events.changedGmt} = ${series.changedGmt})`;
  const write = [
    unlessChanged(db, asRead),
    ...gone,
    db
      .update(events)
      .set({
        recurrence: lines,
        ...(job.scope === "following" ? { horizonGmt: COMPLETE } : {}),
        postModified: stamp.local,
        postModifiedGmt: stamp.gmt,
        changedGmt: stamp.gmt,
      })
      .where(eq(events.id, series.id)),
    // The overrides show the series' new lines (stored on the series alone): changed too.
    db
      .update(events)
      .set({ changedGmt: stamp.gmt })
      .where(and(eq(events.seriesId, series.id), ne(events.id, series.id))),
  ];
  return writeThen(write, undefined, () => c.json({ deleted: true, previous }));
}

/**
 * The series' lines without the occurrence (an `EXDATE`; `following`: an `UNTIL` before it), and
 * the statements that remove it (and, `following`, every later one), tombstoned.
 * @throws InvalidParamsError `recurrence` when the lines cannot be cut there.
 */
function occurrenceRemoval(db: Db, job: OccurrenceDelete): { lines: string[]; gone: BatchQuery[] } {
  const { series, stamp } = job;
  const row = job.record.row;
  const at = row.occurrenceStart!;
  const frame = frameOf(series);
  try {
    const rec = parseLines(series.recurrence ?? [], frame);
    if (job.scope !== "following")
      return {
        lines: formatLines({ ...rec, exdates: [...new Set([...rec.exdates, at])].sort() }, frame),
        gone: [
          ...tombstones(db, [row.id], stamp.gmt),
          job.occurrence
            ? db.delete(eventOccurrences).where(eq(eventOccurrences.id, row.id))
            : db.delete(events).where(eq(events.id, row.id)),
        ],
      };
    const o = eventOccurrences;
    const later = sql`(SELECT ${o.id} FROM ${o} WHERE ${o.seriesId} = ${series.id} AND ${o.occurrenceStart} >= ${at} UNION ALL SELECT ${events.id} FROM ${events} WHERE ${events.seriesId} = ${series.id} AND ${events.id} <> ${series.id} AND ${events.occurrenceStart} >= ${at})`;
    return {
      lines: formatLines(cutRecurrence(rec, frame, at).before, frame),
      gone: [
        db.update(posts).set({ deletedGmt: stamp.gmt }).where(sql`${posts.id} IN ${later}`),
        db.delete(o).where(and(eq(o.seriesId, series.id), gte(o.occurrenceStart, at))),
        db
          .delete(events)
          .where(
            and(
              eq(events.seriesId, series.id),
              ne(events.id, series.id),
              gte(events.occurrenceStart, at),
            ),
          ),
      ],
    };
  } catch (err) {
    recurrenceInvalid(err);
  }
}
