/**
 * Materializing a series (contract §7.8): from its rule and dates, which occurrences it has up to
 * the horizon, which keep their ids (an occurrence is the same one while its original start is,
 * after the whole series moved by as much as its start did), which overrides stay, and the
 * statements that write them — in the batch of the write that changes the series, after its own
 * row (the occurrences copy its status from it).
 */
import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import type { BatchQuery } from "../../db/batch";
import type { Db } from "../../db/client";
import type { IdAllocator } from "../../db/ids";
import { eventOccurrences, events, posts } from "../../db/schema";
import { inList } from "../../db/sql";
import { WP_FORMAT } from "../../time/format";
import type { EventRow } from "../record";
import {
  expand,
  localOf,
  type OccurrenceDates,
  occurrencesDates,
  type SeriesTimes,
} from "./expand";
import { instanceId } from "./instance-ids";
import { formatLines, type Recurrence, type SeriesFrame } from "./lines";

/** How far ahead of now a write materializes occurrences (the default list window is two years). */
export const HORIZON_DAYS = 760;
/** `horizon_gmt` of a series whose every occurrence is materialized. */
export const COMPLETE = "9999-12-31 23:59:59";

/** The UTC horizon of a write at `now`. */
export const horizonAt = (now: DateTime) =>
  now.toUTC().plus({ days: HORIZON_DAYS }).toFormat(WP_FORMAT);

/**
 * The UTC horizon of a series written at `now` (contract §7.8): `HORIZON_DAYS` past the later of
 * now and the series' start, so that a series may start whenever an event may (a start past
 * `horizonAt(now)` stores its first two years, and the limit of `MAX_OCCURRENCES` counts them).
 * @param startUtc the series' first start, UTC `Y-m-d H:i:s`.
 */
export function seriesHorizon(now: DateTime, startUtc: string): string {
  const fromNow = horizonAt(now);
  const start = DateTime.fromFormat(startUtc, WP_FORMAT, { zone: "utc" });
  if (!start.isValid) return fromNow;
  const fromStart = start.plus({ days: HORIZON_DAYS }).toFormat(WP_FORMAT);
  return fromStart > fromNow ? fromStart : fromNow;
}

/**
 * Where a series written at `now` is stored to: two years past the later of now and its start
 * (`seriesHorizon`, up to which its occurrences are counted against the limit), or as far as it
 * was stored before, moved with the series by `delta` seconds and a day more — a stored horizon
 * never moves back, so an occurrence stored with a computed id (src/events/series/instance-ids.ts) stays
 * stored, or goes for good. The occurrences past the old horizon keep their computed ids.
 * @param before the series as read (null for a new series).
 */
export function storedBounds(
  now: DateTime,
  next: EventRow,
  before: EventRow | null,
  delta: number,
): MaterializeBounds {
  const limitGmt = seriesHorizon(now, next.startDateUtc);
  const old = before?.horizonGmt ?? null;
  if (old === null || old === COMPLETE)
    return { horizonGmt: limitGmt, limitGmt, computedFrom: old };
  const moved = DateTime.fromFormat(old, WP_FORMAT, { zone: "utc" })
    .plus({ seconds: delta, days: 1 })
    .toFormat(WP_FORMAT);
  return { horizonGmt: moved > limitGmt ? moved : limitGmt, limitGmt, computedFrom: old };
}

/** A series as it is to be: its row's dates and zone, and its rule in that frame. */
export interface SeriesShape extends SeriesTimes {
  id: number;
  /** The series' DTSTART wall clock when it is not `startDate` (a time in a DST gap). */
  occurrenceStart?: string | null;
  rec: Recurrence;
}

/**
 * The frame of a series shape (src/events/series/lines.ts): its DTSTART is the series' own wall clock
 * (`occurrenceStart` on a series row: the local time asked for, which a time in a DST gap is not
 * shown as, RFC 5545 §3.3.5), else its start.
 */
export const frameOf = (s: SeriesTimes & { occurrenceStart?: string | null }): SeriesFrame => ({
  timezone: s.timezone,
  allDay: s.allDay,
  start: s.occurrenceStart ?? s.startDate,
});

/** One occurrence to write. */
export interface PlannedOccurrence extends OccurrenceDates {
  id: number;
  occurrenceStart: string;
}

/** What a series' materialization decided. */
export interface Materialization {
  lines: string[];
  horizonGmt: string;
  occurrences: PlannedOccurrence[];
  /** Overrides that stay, with their (possibly moved) original start. */
  kept: Array<{ row: EventRow; start: string }>;
  /** Ids of occurrences and overrides that are gone (tombstoned). */
  dropped: number[];
  /** Overrides that are gone (their event rows deleted). */
  droppedOverrides: number[];
}

/** Where a materialization stores to, and which of its occurrences keep computed ids. */
export interface MaterializeBounds {
  /** UTC `Y-m-d H:i:s`: occurrences starting before it are stored. */
  horizonGmt: string;
  /**
   * UTC `Y-m-d H:i:s` up to which the limit of `MAX_OCCURRENCES` applies (src/events/series/expand.ts):
   * `seriesHorizon`; `horizonGmt` when absent. A series stored further (a write reached a later
   * occurrence) keeps what it stored without that counting against it.
   */
  limitGmt?: string;
  /**
   * The stored horizon before the write (UTC; null for a new series): the occurrences past it were
   * listed with computed ids (src/events/series/instance-ids.ts), which they keep now that they are stored.
   */
  computedFrom?: string | null;
}

/**
 * A series' stored lines and its starts (local wall clocks, ascending, its own first) before
 * `bounds.horizonGmt`, with `complete` when they are all it has: what a write materializes, and
 * what the preview of unsaved lines lists (src/events/series/preview.ts).
 * @throws RecurrenceError `recurrence_size` (src/events/series/lines.ts `formatLines`) for lines past the
 *   stored form's limits; the errors of src/events/series/expand.ts for a rule that cannot be materialized.
 */
export function seriesStarts(
  shape: SeriesShape,
  bounds: MaterializeBounds,
): { lines: string[]; starts: string[]; complete: boolean } {
  const { horizonGmt } = bounds;
  const frame = frameOf(shape);
  // The stored lines first: lines past their limits are refused before the rule is expanded.
  const lines = formatLines(shape.rec, frame);
  const before = localOf(horizonGmt, shape.timezone);
  const limitBefore = localOf(bounds.limitGmt ?? horizonGmt, shape.timezone);
  let expanded = expand(shape.rec, frame, limitBefore < before ? limitBefore : before);
  if (limitBefore < before)
    expanded = expand(shape.rec, frame, before, { limit: Number.MAX_SAFE_INTEGER, strict: false });
  return { lines, ...expanded };
}

/**
 * Decides a series' occurrences up to `bounds.horizonGmt`.
 * @param reuse occurrence ids by original start (in the new frame) that may keep their id.
 * @param overrides override rows by original start (in the new frame).
 * @throws RecurrenceError `recurrence_size` (src/events/series/lines.ts `formatLines`) for lines past the
 *   stored form's limits; the errors of src/events/series/expand.ts for a rule that cannot be materialized.
 */
export function materialize(
  shape: SeriesShape,
  bounds: MaterializeBounds,
  reuse: ReadonlyMap<string, number>,
  overrides: ReadonlyMap<string, EventRow>,
  postIds: IdAllocator,
): Materialization {
  const { horizonGmt } = bounds;
  const { lines, starts, complete } = seriesStarts(shape, bounds);
  const computedFrom =
    bounds.computedFrom && bounds.computedFrom !== COMPLETE
      ? localOf(bounds.computedFrom, shape.timezone)
      : null;
  // Ids of this series in use: a computed id is never one of them (src/events/series/instance-ids.ts).
  const taken = new Set([...reuse.values(), ...[...overrides.values()].map((o) => o.id)]);
  const used = new Set<number>();
  const planned: Array<{ id: number; start: string }> = [];
  const kept: Materialization["kept"] = [];
  for (const start of starts.slice(1)) {
    const override = overrides.get(start);
    if (override) {
      kept.push({ row: override, start });
      used.add(override.id);
      continue;
    }
    const known = reuse.get(start);
    let id = known !== undefined && known !== shape.id ? known : undefined;
    if (id === undefined && computedFrom !== null && start >= computedFrom) {
      const computed = instanceId(shape.id, shape.startDate, start);
      if (computed !== null && !taken.has(computed)) id = computed;
    }
    id ??= postIds.take();
    used.add(id);
    planned.push({ id, start });
  }
  // The dates together: the zone's names once per transition (src/events/series/expand.ts).
  const dates = occurrencesDates(
    shape,
    planned.map((p) => p.start),
  );
  const occurrences: PlannedOccurrence[] = planned.map(({ id, start }, i) => ({
    id,
    occurrenceStart: start,
    ...dates[i],
  }));
  const droppedOverrides = [...overrides.values()].map((o) => o.id).filter((id) => !used.has(id));
  const dropped = [...new Set([...reuse.values(), ...droppedOverrides])].filter(
    (id) => !used.has(id) && id !== shape.id,
  );
  return {
    lines,
    horizonGmt: complete ? COMPLETE : horizonGmt,
    occurrences,
    kept,
    dropped,
    droppedOverrides,
  };
}

/** Rows per INSERT … SELECT FROM json_each (one bound parameter each). */
const CHUNK = 500;

/** Statements inserting occurrences of `seriesId` (their posts rows too, when `newIds`). */
export function insertOccurrences(
  db: Db,
  seriesId: number,
  list: PlannedOccurrence[],
  newIds: ReadonlySet<number>,
  stamp: string,
): BatchQuery[] {
  const out: BatchQuery[] = [];
  for (let i = 0; i < list.length; i += CHUNK) {
    const chunk = list.slice(i, i + CHUNK);
    const fresh = chunk.filter((o) => newIds.has(o.id)).map((o) => o.id);
    // A computed id names its series' occurrence of one day whenever it exists: one stored
    // before, deleted and given again by the rule, is live again (src/events/series/instance-ids.ts).
    if (fresh.length)
      out.push(
        db
          .insert(posts)
          .select(
            sql`SELECT value, 'tribe_events', NULL FROM json_each(${JSON.stringify(fresh)}) WHERE true`,
          )
          .onConflictDoUpdate({ target: posts.id, set: { deletedGmt: null } }),
      );
    const rows = JSON.stringify(
      chunk.map((o) => [
        o.id,
        o.occurrenceStart,
        o.startDate,
        o.endDate,
        o.startDateUtc,
        o.endDateUtc,
        o.timezoneAbbr,
      ]),
    );
    out.push(
      db.insert(eventOccurrences).select(
        sql`SELECT j.value ->> 0, ${seriesId}, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, j.value ->> 6, e.status, e.hide_from_listings, e.post_date, ${stamp}
          FROM json_each(${rows}) j JOIN ${events} e ON e.id = ${seriesId}`,
      ),
    );
  }
  return out;
}

/** Statements tombstoning the posts of gone occurrences and overrides (`GET /deleted` lists them). */
export function tombstones(db: Db, ids: number[], stamp: string): BatchQuery[] {
  if (!ids.length) return [];
  return [db.update(posts).set({ deletedGmt: stamp }).where(inList(posts.id, ids))];
}

/** The UTC now as stored (`Y-m-d H:i:s`). */
export const stampOf = (now: DateTime) => now.toUTC().toFormat(WP_FORMAT);
