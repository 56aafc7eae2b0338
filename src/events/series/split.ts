/**
 * "This and following" (contract §7.8; RFC 5545 `RANGE=THISANDFUTURE`): a write of an occurrence
 * with `scope=following` splits its series there. The series ends before that occurrence (its rule
 * gets an `UNTIL` the second before it; its `RDATE`s and `EXDATE`s after it go), and a new series
 * starts with it: the occurrence's id becomes the new series' (its first event), with the old
 * series' fields and links, the rest of its rule (a `COUNT` is what is left of it; what the old
 * start implied — the weekday of a `WEEKLY` rule, the day of a `MONTHLY` one — is written out), the
 * later occurrences and overrides (their ids kept), and then what the write says. The new series has
 * its own slug. Occurrences the new rule no longer gives are tombstoned.
 *
 * The split point must be an occurrence the rule gives (not only an `RDATE`).
 */
import { and, eq, gte, lt, ne, sql } from "drizzle-orm";
import { type BatchQuery, runBatch } from "../../db/batch";
import type { Db } from "../../db/client";
import { type IdReservation, withReservedIds } from "../../db/ids";
import { eventOccurrences, events, posts } from "../../db/schema";
import { freeSlug } from "../../db/slugs";
import { unlessChanged } from "../../db/write";
import { type WriteDecision, writeThen } from "../../db/write-pipeline";
import type { AppContext } from "../../http/context";
import type { RenderContext } from "../../http/render";
import type { EventRecord, EventRow } from "../record";
import type { EventSaveInput, EventSavePlan } from "../save-input";
import { planEventSave } from "../save-plan";
import { serializeEvent } from "../serialize";
import { eventFromResults, eventLoadQueries, storedLinks } from "../single";
import { visibleEvent } from "../visible";
import { copyLinks, copySeries } from "./copy";
import { occurrenceDates, ruleStarts } from "./expand";
import { isInstanceId } from "./instance-ids";
import {
  formatLines,
  parseLines,
  type Recurrence,
  RecurrenceError,
  type SeriesFrame,
  shiftLocal,
  utcOfLocal,
} from "./lines";
import type { OccurrenceRow } from "./occurrences";
import { COMPLETE, frameOf } from "./regenerate";
import { recurrenceInvalid } from "./save";

/** What the event save hands over for an occurrence. */
export interface OccurrenceSave {
  input: EventSaveInput;
  current: {
    record: EventRecord | null;
    occurrence: OccurrenceRow | null;
    series: EventRecord | null;
  };
  scope: string | undefined;
  /** `revert: true` sent: the override becomes its occurrence again (src/events/series/revert.ts). */
  revert?: boolean;
  reservation: IdReservation;
  render: RenderContext;
}

const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/** The rule's parts with what its start implied written out (RFC 5545 §3.3.10: taken from DTSTART). */
function explicit(parts: Array<[string, string]>, start: string): Array<[string, string]> {
  const has = (name: string) => parts.some(([n]) => n === name);
  const freq = parts.find(([n]) => n === "FREQ")?.[1];
  const date = new Date(`${start.slice(0, 10)}T00:00:00Z`);
  const weekday = WEEKDAYS[(date.getUTCDay() + 6) % 7];
  const day = String(date.getUTCDate());
  const out = [...parts];
  if (freq === "WEEKLY" && !has("BYDAY")) out.push(["BYDAY", weekday]);
  if (freq === "MONTHLY" && !has("BYDAY") && !has("BYMONTHDAY")) out.push(["BYMONTHDAY", day]);
  if (freq === "YEARLY") {
    if (has("BYWEEKNO") && !has("BYDAY")) out.push(["BYDAY", weekday]);
    else if (!has("BYWEEKNO") && !has("BYYEARDAY") && !has("BYDAY") && !has("BYMONTHDAY")) {
      if (!has("BYMONTH")) out.push(["BYMONTH", String(date.getUTCMonth() + 1)]);
      out.push(["BYMONTHDAY", day]);
    }
  }
  return out;
}

/**
 * A series' rule cut at `at` (an occurrence's original start): the part before, and the part from it.
 * @throws RecurrenceError `recurrence_start` when the rule does not give `at`.
 */
export function cutRecurrence(
  rec: Recurrence,
  frame: SeriesFrame,
  at: string,
): { before: Recurrence; after: Recurrence } {
  let after: Recurrence["rule"] = null;
  let before: Recurrence["rule"] = null;
  let until: string | null = null;
  if (rec.rule) {
    const { starts } = ruleStarts(rec, frame, shiftLocal(at, 1), 100_000);
    if (!starts.includes(at)) throw new RecurrenceError("recurrence_start");
    const count = rec.rule.find(([n]) => n === "COUNT");
    const rest = rec.rule.filter(([n]) => n !== "COUNT");
    before = rest;
    // The old series' last start is the one before `at`: UNTIL a second before `at`'s instant.
    until = frame.allDay
      ? `${shiftLocal(at, -86400).slice(0, 10)} 00:00:00`
      : shiftLocal(utcOfLocal(at, frame.timezone), -1);
    after = explicit(
      count ? [...rest, ["COUNT", String(Number(count[1]) - starts.indexOf(at))]] : rest,
      frame.start,
    );
  }
  return {
    before: {
      rule: before,
      until: before ? until : null,
      rdates: rec.rdates.filter((r) => r < at),
      exdates: rec.exdates.filter((r) => r < at),
    },
    after: {
      rule: after,
      until: rec.until,
      rdates: rec.rdates.filter((r) => r > at),
      exdates: rec.exdates.filter((r) => r > at),
    },
  };
}

/** Where a series splits: the occurrence, its series as read, and the lines on either side. */
interface SplitPoint {
  /** The occurrence's row (a plain occurrence's or an override's). */
  x: EventRow;
  at: string;
  /** An override (an event row of its own), not a row of `event_occurrences`. */
  overridden: boolean;
  series: EventRow;
  links: EventSaveInput["links"];
  linesBefore: string[];
  linesAfter: string[];
  /** The occurrence's dates, the new series' first. */
  dates: ReturnType<typeof occurrenceDates>;
}

/**
 * The plan of `scope=following` on an occurrence's id, for the write sequence
 * (src/db/write-pipeline.ts): the split, then the write on the new series, in one batch.
 * @throws InvalidParamsError `recurrence` when the occurrence is not one the rule gives.
 */
export async function planSplit(
  c: AppContext,
  job: OccurrenceSave,
): Promise<WriteDecision<Response>> {
  const { input, render } = job;
  const { db } = c.get("rdb");
  const point = await splitPoint(db, job);
  const { x, at, series } = point;
  const state = {
    occurrences: input.series.occurrences.filter((o) => o.occurrenceStart > at),
    overrides: input.series.overrides.filter(
      (o) => (o.occurrenceStart ?? "") > at && o.id !== x.id,
    ),
  };
  // The new series takes the occurrence's id, but for a computed one (src/events/series/instance-ids.ts:
  // it names a day of the old series), a new id: its own occurrences' ids are computed from it.
  const renamed = isInstanceId(x.id);
  const built = await withReservedIds(job.reservation, (ids) => {
    const id = renamed ? ids.postIds.take() : x.id;
    const own = {
      id,
      ...point.dates,
      seriesId: id,
      recurrence: point.linesAfter,
      occurrenceStart: at,
      overrides: [],
      uid: null,
      // Stored as far as the old series was: its stored occurrences keep their ids.
      horizonGmt: series.horizonGmt,
      splitFrom: series.id,
    };
    const fresh: EventRow = { ...series, ...own };
    const save = {
      ...input,
      existing: fresh,
      links: point.links,
      series: state,
      rematerialize: true,
    };
    return { write: planEventSave(save, db, ids), own: { ...own, horizonGmt: null } };
  });
  const statements = splitStatements(db, point, built.own, renamed, built.write);
  return writeThen(statements, eventLoadQueries(db, { id: built.own.id }), (event) => {
    const saved = eventFromResults(event, input.user).record!;
    return c.json(serializeEvent(render, visibleEvent(render, saved)));
  });
}

/**
 * The occurrence, its series and stored links (an override's row is its own, so its series is read
 * here: one more round trip), and the series' lines cut there.
 * @throws InvalidParamsError `recurrence` when the occurrence is not one the rule gives.
 */
async function splitPoint(db: Db, job: OccurrenceSave): Promise<SplitPoint> {
  const { input, current } = job;
  const x = current.record!.row;
  const at = x.occurrenceStart!;
  const overridden = current.occurrence === null;
  let series: EventRow;
  let links = input.links;
  if (overridden) {
    const { loaded } = await runBatch(db, { loaded: eventLoadQueries(db, { id: x.seriesId! }) });
    series = loaded.rows[0]!;
    links = storedLinks(loaded);
  } else series = current.series!.row;
  const frame = frameOf(series);
  const dates = occurrenceDates(series, at);
  try {
    const cut = cutRecurrence(parseLines(series.recurrence ?? [], frame), frame, at);
    const linesBefore = formatLines(cut.before, frame);
    const linesAfter = formatLines(cut.after, { ...frame, start: dates.startDate });
    return { x, at, overridden, series, links, linesBefore, linesAfter, dates };
  } catch (err) {
    recurrenceInvalid(err);
  }
}

/** The row is as read: same id, status and change time. */
const asRead = (row: Pick<EventRow, "id" | "status" | "changedGmt">) =>
  sql`EXISTS (SELECT 1 FROM ${events} WHERE ${events.id} = ${row.id} AND ${events.status} = ${row.status} AND ${events.changedGmt} = ${row.changedGmt})`;

/**
 * The split's batch: the guard (the series and the occurrence as read), the old series ended before
 * the occurrence, the new series (the old one's row and links with the occurrence's id, a slug of
 * its own), then the new series' save.
 */
function splitStatements(
  db: Db,
  point: SplitPoint,
  own: Record<string, unknown> & { id: number },
  renamed: boolean,
  write: EventSavePlan,
): BatchQuery[] {
  const { x, at, series, overridden } = point;
  const { id } = own;
  const s = write.stamp;
  const o = eventOccurrences;
  const occurrenceAsRead = overridden
    ? asRead(x)
    : sql`EXISTS (SELECT 1 FROM ${o} WHERE ${o.id} = ${x.id} AND ${o.seriesId} = ${series.id})`;
  const modified = { postModified: s.local, postModifiedGmt: s.gmt, changedGmt: s.gmt };
  return [
    unlessChanged(db, sql`${asRead(series)} AND ${occurrenceAsRead}`),
    // The series ends before the occurrence.
    db
      .update(events)
      .set({ recurrence: point.linesBefore, horizonGmt: COMPLETE, ...modified })
      .where(eq(events.id, series.id)),
    // Its overrides before the split show its new lines (stored on the series alone).
    db
      .update(events)
      .set({ changedGmt: s.gmt })
      .where(
        and(
          eq(events.seriesId, series.id),
          ne(events.id, series.id),
          lt(events.occurrenceStart, at),
        ),
      ),
    db.delete(o).where(and(eq(o.seriesId, series.id), gte(o.occurrenceStart, at))),
    ...(overridden ? [db.delete(events).where(eq(events.id, x.id))] : []),
    ...(renamed
      ? [
          db.insert(posts).values({ id, postType: "tribe_events" }),
          db.update(posts).set({ deletedGmt: s.gmt }).where(eq(posts.id, x.id)),
        ]
      : []),
    copySeries(db, series.id, {
      ...own,
      recurrence: JSON.stringify(point.linesAfter),
      overrides: "[]",
      slug: freeSlug("events", series.slug, series.slug, {
        scope: sql`(s.series_id IS NULL OR s.series_id = s.id)`,
      }),
      ...modified,
    }),
    ...copyLinks(db, series.id, id),
    ...write.statements,
  ];
}
