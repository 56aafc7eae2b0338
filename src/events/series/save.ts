/**
 * What a create or update of an event writes for its series (contract §7.8), beside the event row
 * itself (src/events/save-plan.ts):
 *
 * - `recurrence` lines make the event a series (its first occurrence) and materialize its
 *   occurrences; `[]`/`null` ends the repetition (occurrences and overrides go, the event stays);
 * - a series whose dates or lines change is materialized again: an occurrence keeps its id while its
 *   original start is, after moving with the series' start (a series moved from 18:00 to 19:00 keeps
 *   every occurrence and override); the others are tombstoned. Lines that say what the stored ones
 *   say (a series' own `series.recurrence` sent back) are no change;
 * - a series' other changes are copied to its overrides, but for what each sets itself. The lines
 *   are stored once, on the series: an override shows its series' (src/events/load.ts).
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { BatchQuery } from "../../db/batch";
import type { Db } from "../../db/client";
import { eventOccurrences, events, type Taxonomy } from "../../db/schema";
import type { WritePlan } from "../../db/write-plan";
import { InvalidParamsError } from "../../http/errors";
import type { EventRow } from "../record";
import { occurrenceDates } from "./expand";
import { DATE_COLUMNS, DATE_FIELDS } from "./fields";
import {
  formatLines,
  localSeconds,
  MAX_DATES,
  parseLines,
  type Recurrence,
  RecurrenceError,
  type SeriesFrame,
  shiftLocal,
  shiftRecurrence,
} from "./lines";
import { isSeries } from "./occurrences";
import { propagate } from "./propagate";
import {
  frameOf,
  insertOccurrences,
  type Materialization,
  materialize,
  type SeriesShape,
  storedBounds,
  tombstones,
} from "./regenerate";
import { seriesStart } from "./start";

/** A series' occurrences and overrides as read before a write. */
export interface SeriesState {
  occurrences: Array<{ id: number; occurrenceStart: string }>;
  overrides: EventRow[];
}

/**
 * The queries that read the series state of the event a write names (by id — an occurrence's too —
 * or slug), for its read batch: empty for a single event.
 */
export function seriesStateQueries(db: Db, target: { id: number } | { slug: string }) {
  const o = eventOccurrences;
  const row =
    "id" in target
      ? sql`coalesce((SELECT ${o.seriesId} FROM ${o} WHERE ${o.id} = ${target.id}), ${target.id})`
      : sql`(SELECT ${events.id} FROM ${events} WHERE ${events.slug} = ${target.slug} AND (${events.seriesId} IS NULL OR ${events.seriesId} = ${events.id}))`;
  const series = sql`(SELECT ${events.seriesId} FROM ${events} WHERE ${events.id} = ${row})`;
  return {
    occurrences: db
      .select({ id: o.id, occurrenceStart: o.occurrenceStart })
      .from(o)
      .where(sql`${o.seriesId} = ${series}`),
    overrides: db
      .select()
      .from(events)
      .where(sql`${events.seriesId} = ${series} AND ${events.id} <> ${events.seriesId}`),
  };
}

/** Whether two lists of stored lines are the same lines. */
const sameLines = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((line, i) => line === b[i]);

/**
 * A `RecurrenceError` as the 400 naming `recurrence` (contract §7.8): the error path fills its
 * message with the parameter's name, then the error's own values.
 * @throws InvalidParamsError for a `RecurrenceError`; any other error as it is.
 */
export function recurrenceInvalid(err: unknown): never {
  if (err instanceof RecurrenceError) {
    const name = "recurrence";
    throw new InvalidParamsError([{ name, key: err.key, args: err.args }]);
  }
  throw err;
}

/** What a series' save needs of the event's save. */
export interface SeriesSaveInput {
  plan: WritePlan;
  id: number;
  /** The event as read (null for a create). */
  existing: EventRow | null;
  /** The event's row as it is to be (the columns the write changes applied). */
  next: EventRow;
  /** The columns the write changes (the series' own are added here). */
  values: Record<string, unknown>;
  /** `recurrence` as sent (undefined: not sent). */
  recurrence: string[] | undefined;
  /** `start_date` as sent (undefined: not sent): a local time in a DST gap is the series' DTSTART. */
  startSent?: string;
  state: SeriesState;
  /** Materialize again though neither dates nor lines change (a series split off another). */
  force?: boolean;
  /** The event's organizers and terms when the write changes them. */
  organizers?: number[];
  terms: Array<readonly [Taxonomy, number[] | undefined]>;
}

/** The series part of a save: whether it changes anything, and its statements (made last). */
export interface SeriesSavePlan {
  changed: boolean;
  /** The statements, after the event's own; made once the event's columns are final. */
  statements: () => BatchQuery[];
}

/**
 * The series part of a save: its columns (into `values`, now) and its statements, to follow the
 * event's own. Nothing for an event that is and stays single.
 * @throws InvalidParamsError `recurrence` for lines that cannot be materialized.
 */
export function planSeriesSave(input: SeriesSaveInput): SeriesSavePlan {
  const { existing, next, values, plan } = input;
  const wasSeries = existing !== null && isSeries(existing);
  const sent = input.recurrence;
  if (!wasSeries && (sent === undefined || sent.length === 0))
    return { statements: () => [], changed: false };
  if (wasSeries && sent !== undefined && sent.length === 0) return endSeries(input);
  const datesChanged = DATE_COLUMNS.some((c) => c in values);
  // DTSTART: the wall clock asked for (a time in a DST gap is shown an hour later, RFC 5545 §3.3.5).
  const { wall, first } = seriesStart(next, existing, input.startSent, datesChanged);
  if (first) {
    // A start in a DST overlap, read as the second of its two instants: the series' DTSTART (its
    // wall clock with its zone) is the first (RFC 5545 §3.3.5), and so is its first occurrence.
    Object.assign(values, first);
    Object.assign(next, first);
  }
  const frame = { ...frameOf(next), start: wall };
  // The whole series moves by as much as its start does (wall clock).
  const delta = wasSeries ? localSeconds(frameOf(existing).start, wall) : 0;
  const { rec, same } = seriesLines(input, frame, delta, datesChanged);
  const regenerate =
    !wasSeries || (sent !== undefined && !same) || datesChanged || input.force === true;
  const overrides = wasSeries ? input.state.overrides : [];
  let kept = overrides.map((row) => ({ row, start: row.occurrenceStart ?? row.startDate }));
  const statements: BatchQuery[] = [];
  if (regenerate) {
    const shape: SeriesShape = { ...next, occurrenceStart: wall, id: input.id, rec };
    const m = rematerialize(input, shape, kept, delta);
    statements.push(...m.statements);
    kept = m.kept;
  }
  const rows = kept.map((k) => k.row);
  const stamp = plan.stamp.gmt;
  return {
    statements: () => [...statements, ...propagate(plan.db, rows, values, input, stamp)],
    changed: regenerate,
  };
}

/** `recurrence: []` on a series: the repetition ends, the event stays, alone. */
function endSeries(input: SeriesSaveInput): SeriesSavePlan {
  const { db } = input.plan;
  const stamp = input.plan.stamp.gmt;
  Object.assign(input.values, {
    seriesId: null,
    recurrence: null,
    occurrenceStart: null,
    horizonGmt: null,
  });
  const gone = [
    ...input.state.occurrences.map((o) => o.id),
    ...input.state.overrides.map((o) => o.id),
  ];
  return {
    statements: () => [
      ...tombstones(db, gone, stamp),
      db.delete(eventOccurrences).where(eq(eventOccurrences.seriesId, input.id)),
      ...(input.state.overrides.length
        ? [db.delete(events).where(and(eq(events.seriesId, input.id), ne(events.id, input.id)))]
        : []),
    ],
    changed: true,
  };
}

/**
 * The series' lines: those sent, or the stored ones moved with the start; `same` when the lines
 * sent say what the stored ones say (a series' own `series.recurrence` sent back: no change).
 * @throws InvalidParamsError `recurrence` for lines that cannot be read.
 */
function seriesLines(
  input: SeriesSaveInput,
  frame: SeriesFrame,
  delta: number,
  datesChanged: boolean,
): { rec: Recurrence; same: boolean } {
  const { existing, recurrence: sent } = input;
  const wasSeries = existing !== null && isSeries(existing);
  try {
    const rec =
      sent !== undefined
        ? parseLines(sent, frame, MAX_DATES)
        : shiftRecurrence(parseLines(existing?.recurrence ?? [], frameOf(existing!)), delta, frame);
    const same =
      sent !== undefined &&
      wasSeries &&
      !datesChanged &&
      sameLines(formatLines(rec, frame), existing.recurrence ?? []);
    return { rec, same };
  } catch (err) {
    recurrenceInvalid(err);
  }
}

/**
 * The series materialized again: its columns (into `values`), the statements that replace its
 * occurrences (an occurrence keeps its id while its original start, moved with the series, is
 * still given; the others are tombstoned) and move the overrides it keeps, and those it keeps.
 * @throws InvalidParamsError `recurrence` for lines that cannot be materialized.
 */
function rematerialize(
  input: SeriesSaveInput,
  shape: SeriesShape,
  overrides: Array<{ row: EventRow; start: string }>,
  delta: number,
): { statements: BatchQuery[]; kept: Array<{ row: EventRow; start: string }> } {
  const { plan, existing, next } = input;
  const { db } = plan;
  const stamp = plan.stamp.gmt;
  const wasSeries = existing !== null && isSeries(existing);
  const reuse = new Map(
    input.state.occurrences.map((o) => [shiftLocal(o.occurrenceStart, delta), o.id]),
  );
  const byStart = new Map(overrides.map((k) => [shiftLocal(k.start, delta), k.row]));
  let m: Materialization;
  try {
    const bounds = storedBounds(plan.now, next, wasSeries ? existing : null, delta);
    m = materialize(shape, bounds, reuse, byStart, plan.postIds);
  } catch (err) {
    recurrenceInvalid(err);
  }
  Object.assign(input.values, {
    seriesId: input.id,
    recurrence: m.lines,
    occurrenceStart: shape.occurrenceStart,
    horizonGmt: m.horizonGmt,
  });
  const known = new Set(input.state.occurrences.map((o) => o.id));
  const fresh = new Set(m.occurrences.filter((o) => !known.has(o.id)).map((o) => o.id));
  const statements: BatchQuery[] = [
    ...tombstones(db, m.dropped, stamp),
    db.delete(eventOccurrences).where(eq(eventOccurrences.seriesId, input.id)),
    ...(m.droppedOverrides.length
      ? [db.delete(events).where(inArray(events.id, m.droppedOverrides))]
      : []),
    ...insertOccurrences(db, input.id, m.occurrences, fresh, stamp),
  ];
  for (const { row, start } of m.kept) {
    // The lines are the series' alone: an override shows them from its series.
    const own: Record<string, unknown> = {
      seriesId: input.id,
      recurrence: null,
      occurrenceStart: start,
      changedGmt: stamp,
    };
    if (!row.overrides.some((f) => DATE_FIELDS.has(f)))
      Object.assign(own, occurrenceDates(next, start), {
        timezone: next.timezone,
        allDay: next.allDay,
      });
    statements.push(db.update(events).set(own).where(eq(events.id, row.id)));
  }
  return { statements, kept: m.kept };
}
