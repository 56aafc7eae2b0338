/**
 * `POST|PUT|PATCH /events/{id}` of one occurrence of a recurring series (contract §7.8):
 *
 * - `scope=this` (the default): an override — the occurrence becomes an event row of its own (same
 *   id, a copy of its series with its links), changed as the write says; what it sets is kept when
 *   the series changes it. Only the fields an override may set (src/events/series/fields.ts); the series'
 *   own (status, author, password, slug, post dates, `hide_from_listings`, `recurrence`, `uid`, the
 *   lineage) are a 400 naming them.
 * - `scope=following`: the series is split there (src/events/series/split.ts).
 *
 * Permissions are the series' (an occurrence's row is its series' author and status).
 */
import { sql } from "drizzle-orm";
import type { BatchQuery } from "../../db/batch";
import type { Db } from "../../db/client";
import { withReservedIds } from "../../db/ids";
import { eventOccurrences, events, webhookOutbox, webhooks } from "../../db/schema";
import { unlessChanged } from "../../db/write";
import { answerOnly, type WriteDecision, writeThen } from "../../db/write-pipeline";
import type { AppContext } from "../../http/context";
import { InvalidParamsError } from "../../http/errors";
import { WP_FORMAT } from "../../time/format";
import type { EventRecord, EventRow } from "../record";
import { planEventSave } from "../save-plan";
import { serializeEvent } from "../serialize";
import { eventFromResults, eventLoadQueries, loadEvent } from "../single";
import { visibleEvent } from "../visible";
import { copyLinks, copySeries } from "./copy";
import { OVERRIDABLE, SERIES_ONLY } from "./fields";
import { revertOverride } from "./revert";
import { type OccurrenceSave, planSplit } from "./split";

/** The row is as read: same id, status and change time (src/events/save.ts `unchanged`). */
const asRead = (row: Pick<EventRow, "id" | "status" | "changedGmt">) =>
  sql`EXISTS (SELECT 1 FROM ${events} WHERE ${events.id} = ${row.id} AND ${events.status} = ${row.status} AND ${events.changedGmt} = ${row.changedGmt})`;

/**
 * The outbox row of an occurrence's `event.updated` (contract §7.5), as the event triggers write
 * theirs: only while a webhook is active, after the write (its status and modification time).
 */
const occurrenceUpdated = (db: Db, id: number) =>
  db
    .insert(webhookOutbox)
    .select(
      sql`SELECT NULL, 'event', ${events.id}, 'updated', ${events.status}, ${events.status}, ${events.postModifiedGmt}, strftime('%Y-%m-%d %H:%M:%S', 'now'), NULL, NULL FROM ${events} WHERE ${events.id} = ${id} AND EXISTS (SELECT 1 FROM ${webhooks} WHERE ${webhooks.status} = 'active')`,
    );

/**
 * The plan of a write of an occurrence (its id names it), for the write sequence
 * (src/db/write-pipeline.ts): an override, a split (`scope=following`) or a revert.
 * @throws InvalidParamsError naming the series' own fields sent; as `planSplit`, `planRevert`.
 */
export async function planOccurrenceSave(
  c: AppContext,
  job: OccurrenceSave,
): Promise<WriteDecision<Response>> {
  const { input, current, render } = job;
  const record = current.record!;
  if (job.scope === "following") return planSplit(c, job);
  // `uid`: the series' own, sent by an import of its iCalendar source (RFC 5545: an override is
  // its series' UID with a RECURRENCE-ID), marks the override as the import's (contract §7.9).
  // (An occurrence's and an override's row show their series' `uid`: src/events/load.ts.)
  const fromImport = input.sent.has("uid") && record.row.uid === input.a.uid;
  const sentSeriesOnly = SERIES_ONLY.filter(
    (name) => input.sent.has(name) && !(name === "uid" && fromImport),
  );
  if (sentSeriesOnly.length) throw new InvalidParamsError(sentSeriesOnly.map((name) => ({ name })));
  const row = record.row;
  if (job.revert) return planRevert(c, job, fromImport);
  const { db } = c.get("rdb");
  const sent = new Set([...input.sent].filter((name) => name !== "uid"));
  const write = await withReservedIds(job.reservation, (ids) =>
    planEventSave({ ...input, sent, existing: row, recurrence: undefined }, db, ids),
  );
  const answer = (saved: EventRecord) =>
    c.json(serializeEvent(render, visibleEvent(render, saved)));
  if (!write.changed) return answerOnly(() => answer(record));
  const statements = [
    ...overrideStatements(db, job, fromImport, write.statements),
    // Its own `event.updated` (an override has no webhook triggers: drizzle/0013_series_triggers.sql).
    occurrenceUpdated(db, row.id),
  ];
  return writeThen(statements, eventLoadQueries(db, { id: row.id }), (event) =>
    answer(eventFromResults(event, input.user).record!),
  );
}

/**
 * The statements of an override's write: a plain occurrence (a row of `event_occurrences`) becomes
 * an override — a copy of its series with its links, the fields it sets recorded — and an
 * override is one already; `planned` (the event save's statements) follow.
 */
function overrideStatements(
  db: Db,
  job: OccurrenceSave,
  fromImport: boolean,
  planned: BatchQuery[],
): BatchQuery[] {
  const { input, current } = job;
  const row = current.record!.row;
  const o = current.occurrence;
  const overrides = [
    ...new Set([
      ...(o ? [] : row.overrides),
      ...Object.keys(OVERRIDABLE).filter((f) => input.sent.has(f)),
    ]),
  ];
  if (!o)
    return [
      unlessChanged(db, asRead(row)),
      ...planned,
      db
        .update(events)
        .set({ overrides, imported: fromImport })
        .where(sql`${events.id} = ${row.id}`),
    ];
  const series = current.series!.row;
  return [
    unlessChanged(
      db,
      sql`${asRead(series)} AND EXISTS (SELECT 1 FROM ${eventOccurrences} WHERE ${eventOccurrences.id} = ${row.id})`,
    ),
    copySeries(db, series.id, {
      id: o.id,
      startDate: o.startDate,
      endDate: o.endDate,
      startDateUtc: o.startDateUtc,
      endDateUtc: o.endDateUtc,
      timezoneAbbr: o.timezoneAbbr,
      occurrenceStart: o.occurrenceStart,
      // The lines stay the series' alone (an override shows them from there).
      recurrence: null,
      overrides: JSON.stringify(overrides),
      uid: null,
      horizonGmt: null,
      imported: fromImport,
    }),
    ...copyLinks(db, series.id, row.id),
    db.delete(eventOccurrences).where(sql`${eventOccurrences.id} = ${row.id}`),
    ...planned,
  ];
}

/**
 * `revert: true` on a write of an occurrence (contract §7.8): an override becomes its occurrence
 * again (src/events/series/revert.ts); a plain occurrence is one already. Nothing else may be sent
 * with it. The series is read first, the reverted occurrence after the write.
 * @param fromImport the write carries the series' `uid` (an import): only an override the import
 *   wrote is reverted.
 * @throws InvalidParamsError `revert` beside fields of the occurrence; ApiError 409 as `revertOverride`.
 */
async function planRevert(
  c: AppContext,
  job: OccurrenceSave,
  fromImport: boolean,
): Promise<WriteDecision<Response>> {
  const { input, current, render } = job;
  const record = current.record!;
  if (Object.keys(OVERRIDABLE).some((field) => input.sent.has(field)))
    throw new InvalidParamsError([{ name: "revert" }]);
  const answer = (shown: EventRecord) =>
    c.json(serializeEvent(render, visibleEvent(render, shown)));
  if (current.occurrence !== null) return answerOnly(() => answer(record));
  const { db } = c.get("rdb");
  const series = (await loadEvent(db, { id: record.row.seriesId! }, input.user)).record!.row;
  const stamp = input.now.toUTC().toFormat(WP_FORMAT);
  const write = revertOverride(db, series, record.row, { onlyImported: fromImport, stamp });
  return writeThen(write, undefined, async () =>
    answer((await loadEvent(db, { id: record.row.id }, input.user)).record!),
  );
}
