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
import { runBatch } from "../../db/batch";
import type { Db } from "../../db/client";
import { withReservedIds } from "../../db/ids";
import { eventOccurrences, events, webhookOutbox, webhooks } from "../../db/schema";
import { unlessChanged } from "../../db/write";
import type { AppContext } from "../../http/context";
import { InvalidParamsError } from "../../http/errors";
import { WP_FORMAT } from "../../time/format";
import type { EventRow } from "../record";
import { planEventSave } from "../save-plan";
import { serializeEvent } from "../serialize";
import { eventFromResults, eventLoadQueries, loadEvent } from "../single";
import { visibleEvent } from "../visible";
import { copyLinks, copySeries } from "./copy";
import { OVERRIDABLE, SERIES_ONLY } from "./fields";
import { revertOverride } from "./revert";
import { type OccurrenceSave, splitSeries } from "./split";

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

/** Handles a write of an occurrence (its id names it): an override, or a split. */
export async function saveOccurrence(c: AppContext, job: OccurrenceSave): Promise<Response> {
  const { input, current, render } = job;
  const record = current.record!;
  if (job.scope === "following") return splitSeries(c, job);
  // `uid`: the series' own, sent by an import of its iCalendar source (RFC 5545: an override is
  // its series' UID with a RECURRENCE-ID), marks the override as the import's (contract §7.9).
  // (An occurrence's and an override's row show their series' `uid`: src/events/load.ts.)
  const fromImport = input.sent.has("uid") && record.row.uid === input.a.uid;
  const sentSeriesOnly = SERIES_ONLY.filter(
    (name) => input.sent.has(name) && !(name === "uid" && fromImport),
  );
  if (sentSeriesOnly.length) throw new InvalidParamsError(sentSeriesOnly.map((name) => ({ name })));
  const row = record.row;
  if (job.revert) return revertOccurrence(c, job, fromImport);
  const { db } = c.get("rdb");
  // A plain occurrence (a row of `event_occurrences`) becomes an override; an override is one.
  const fresh = current.occurrence !== null;
  const series = current.series!.row;
  const overrides = [
    ...new Set([
      ...(fresh ? [] : row.overrides),
      ...Object.keys(OVERRIDABLE).filter((f) => input.sent.has(f)),
    ]),
  ];
  const sent = new Set([...input.sent].filter((name) => name !== "uid"));
  const write = await withReservedIds(job.reservation, (ids) =>
    planEventSave({ ...input, sent, existing: row, recurrence: undefined }, db, ids),
  );
  if (!write.changed) return c.json(serializeEvent(render, visibleEvent(render, record)));
  const o = current.occurrence;
  const statements = fresh
    ? [
        unlessChanged(
          db,
          sql`${asRead(series)} AND EXISTS (SELECT 1 FROM ${eventOccurrences} WHERE ${eventOccurrences.id} = ${row.id})`,
        ),
        copySeries(db, series.id, {
          id: o!.id,
          startDate: o!.startDate,
          endDate: o!.endDate,
          startDateUtc: o!.startDateUtc,
          endDateUtc: o!.endDateUtc,
          timezoneAbbr: o!.timezoneAbbr,
          occurrenceStart: o!.occurrenceStart,
          // The lines stay the series' alone (an override shows them from there).
          recurrence: null,
          overrides: JSON.stringify(overrides),
          uid: null,
          horizonGmt: null,
          imported: fromImport,
        }),
        ...copyLinks(db, series.id, row.id),
        db.delete(eventOccurrences).where(sql`${eventOccurrences.id} = ${row.id}`),
        ...write.statements,
      ]
    : [
        unlessChanged(db, asRead(row)),
        ...write.statements,
        db
          .update(events)
          .set({ overrides, imported: fromImport })
          .where(sql`${events.id} = ${row.id}`),
      ];
  // Its own `event.updated` (an override has no webhook triggers: drizzle/0013_series_triggers.sql).
  statements.push(occurrenceUpdated(db, row.id));
  const results = await runBatch(db, {
    write: statements,
    event: eventLoadQueries(db, { id: row.id }),
  });
  const saved = eventFromResults(results.event, input.user).record!;
  return c.json(serializeEvent(render, visibleEvent(render, saved)));
}

/**
 * `revert: true` on a write of an occurrence (contract §7.8): an override becomes its occurrence
 * again (src/events/series/revert.ts); a plain occurrence is one already. Nothing else may be sent with it.
 * @param fromImport the write carries the series' `uid` (an import): only an override the import
 *   wrote is reverted.
 * @throws InvalidParamsError `revert` beside fields of the occurrence; ApiError 409 as `revertOverride`.
 */
async function revertOccurrence(
  c: AppContext,
  job: OccurrenceSave,
  fromImport: boolean,
): Promise<Response> {
  const { input, current, render } = job;
  const record = current.record!;
  if (Object.keys(OVERRIDABLE).some((field) => input.sent.has(field)))
    throw new InvalidParamsError([{ name: "revert" }]);
  if (current.occurrence !== null)
    return c.json(serializeEvent(render, visibleEvent(render, record)));
  const { db } = c.get("rdb");
  const series = (await loadEvent(db, { id: record.row.seriesId! }, input.user)).record!.row;
  const stamp = input.now.toUTC().toFormat(WP_FORMAT);
  await revertOverride(db, series, record.row, { onlyImported: fromImport, stamp });
  const reverted = (await loadEvent(db, { id: record.row.id }, input.user)).record!;
  return c.json(serializeEvent(render, visibleEvent(render, reverted)));
}
