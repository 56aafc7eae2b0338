/**
 * `POST|PUT|PATCH /events/{id}` of one occurrence of a recurring series (contract §7.8):
 *
 * - `scope=this` (the default): an override — the occurrence becomes an event row of its own (same
 *   id, a copy of its series with its links), changed as the write says; what it sets is kept when
 *   the series changes it. Only the fields an override may set (src/series/fields.ts); the series'
 *   own (status, author, password, slug, post dates, `hide_from_listings`, `recurrence`, `uid`, the
 *   lineage) are a 400 naming them.
 * - `scope=following`: the series is split there (src/series/split.ts).
 *
 * Permissions are the series' (an occurrence's row is its series' author and status).
 */
import { sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import { withReservedIds } from "../db/ids";
import { eventOccurrences, events } from "../db/schema";
import { unlessChanged } from "../db/write";
import type { EventRow } from "../events/record";
import { planEventSave } from "../events/save-plan";
import { serializeEvent } from "../events/serialize";
import { eventFromResults, eventLoadQueries } from "../events/single";
import { visibleEvent } from "../events/visible";
import type { AppContext } from "../http/context";
import { InvalidParamsError } from "../http/errors";
import { copyLinks, copySeries } from "./copy";
import { OVERRIDABLE, SERIES_ONLY } from "./fields";
import { type OccurrenceSave, splitSeries } from "./split";

/** The row is as read: same id, status and change time (src/events/save.ts `unchanged`). */
const asRead = (row: Pick<EventRow, "id" | "status" | "changedGmt">) =>
  sql`EXISTS (SELECT 1 FROM ${events} WHERE ${events.id} = ${row.id} AND ${events.status} = ${row.status} AND ${events.changedGmt} = ${row.changedGmt})`;

/** Handles a write of an occurrence (its id names it): an override, or a split. */
export async function saveOccurrence(c: AppContext, job: OccurrenceSave): Promise<Response> {
  const { input, current, render } = job;
  const record = current.record!;
  if (job.scope === "following") return splitSeries(c, job);
  const sentSeriesOnly = SERIES_ONLY.filter((name) => input.sent.has(name));
  if (sentSeriesOnly.length) throw new InvalidParamsError(sentSeriesOnly.map((name) => ({ name })));
  const { db } = c.get("rdb");
  const row = record.row;
  // A plain occurrence (a row of `event_occurrences`) becomes an override; an override is one.
  const fresh = current.occurrence !== null;
  const series = current.series!.row;
  const overrides = [
    ...new Set([
      ...(fresh ? [] : row.overrides),
      ...Object.keys(OVERRIDABLE).filter((f) => input.sent.has(f)),
    ]),
  ];
  const write = await withReservedIds(job.reservation, (ids) =>
    planEventSave({ ...input, existing: row, recurrence: undefined }, db, ids),
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
          overrides: JSON.stringify(overrides),
          uid: null,
          horizonGmt: null,
          // As the write's own update sets them: one `event.updated` (its webhook trigger).
          postModified: write.stamp.local,
          postModifiedGmt: write.stamp.gmt,
        }),
        ...copyLinks(db, series.id, row.id),
        db.delete(eventOccurrences).where(sql`${eventOccurrences.id} = ${row.id}`),
        ...write.statements,
      ]
    : [
        unlessChanged(db, asRead(row)),
        ...write.statements,
        db.update(events).set({ overrides }).where(sql`${events.id} = ${row.id}`),
      ];
  const results = await runBatch(db, {
    write: statements,
    event: eventLoadQueries(db, { id: row.id }),
  });
  const saved = eventFromResults(results.event, input.user).record!;
  return c.json(serializeEvent(render, visibleEvent(render, saved)));
}
