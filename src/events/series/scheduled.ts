/**
 * The Cron Trigger's work (contract §7.8; `[triggers] crons` in wrangler.toml, the Worker's
 * `scheduled` handler): moving the horizon of every series whose rule goes on, so that its
 * occurrences stay materialized at least two years ahead (the default window of `/events`) and
 * reads of that window never expand a rule (past it, src/events/series/computed.ts does). A series whose horizon is within `SLACK_DAYS` of the write horizon gets
 * the occurrences up to a new one, in one batch per series that applies only to the series as read
 * (a write in between wins; the next run tries again). Each new occurrence is stored with the id it
 * was listed with before (src/events/series/instance-ids.ts). New occurrences move the content version
 * (drizzle/0013_series_triggers.sql) like any write anonymous readers see, and count as changed for
 * `modified_after`.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { type Db, openDb } from "../../db/client";
import { IdReservation } from "../../db/ids";
import { events } from "../../db/schema";
import { isConflict, unlessChanged } from "../../db/write";
import { WP_FORMAT } from "../../time/format";
import type { EventRow } from "../record";
import { expand, localOf, occurrenceDates, occurrencesDates } from "./expand";
import { instanceId } from "./instance-ids";
import { parseLines } from "./lines";
import {
  COMPLETE,
  frameOf,
  HORIZON_DAYS,
  horizonAt,
  insertOccurrences,
  type PlannedOccurrence,
  stampOf,
} from "./regenerate";

/** A series is extended when its horizon is less than this many days before the write horizon. */
export const SLACK_DAYS = 15;
/** Series read per round; rounds go on until none is left (or `MAX_ROUNDS`). */
const ROUND = 25;
const MAX_ROUNDS = 40;
/** Most occurrences one series gains per run (a later run goes on). */
const MAX_NEW = 1000;

/** What one run did. */
export interface ExtendReport {
  series: number;
  occurrences: number;
  /** Series whose batch lost to a write in between (tried again by the next run). */
  skipped: number;
}

/**
 * The occurrences of `row` from its horizon up to `horizonGmt` (all of them when complete), at most
 * `MAX_NEW`, and the horizon they reach: `COMPLETE`, `horizonGmt`, or — when `MAX_NEW` cut them —
 * the second after the last one's start (those after it are stored by the next extension, and
 * computed until then: src/events/series/computed.ts).
 */
function nextOccurrences(row: EventRow, horizonGmt: string) {
  const frame = frameOf(row);
  const from = localOf(row.horizonGmt ?? COMPLETE, row.timezone);
  const { starts, complete } = expand(
    parseLines(row.recurrence ?? [], frame),
    frame,
    localOf(horizonGmt, row.timezone),
    { limit: 1_000_000, strict: false, from },
  );
  const all = starts.filter((s) => s >= from);
  const fresh = all.slice(0, MAX_NEW);
  const cut = all.length > MAX_NEW;
  const reach = cut
    ? DateTime.fromFormat(occurrenceDates(row, fresh.at(-1)!).startDateUtc, WP_FORMAT, {
        zone: "utc",
      })
        .plus({ seconds: 1 })
        .toFormat(WP_FORMAT)
    : complete
      ? COMPLETE
      : horizonGmt;
  return { fresh, reach };
}

/**
 * The occurrences to store for each plan, with the ids they were listed with (computed:
 * src/events/series/instance-ids.ts; a series without computed ids takes them from the post sequence).
 */
async function plannedOccurrences(
  db: Db,
  plans: Array<{ row: EventRow; fresh: string[] }>,
): Promise<PlannedOccurrence[][]> {
  const computed = (row: EventRow, start: string) => instanceId(row.id, row.startDate, start);
  const reservation = new IdReservation(db);
  await reservation.ensure({
    post: plans.reduce((n, p) => n + p.fresh.filter((s) => computed(p.row, s) === null).length, 0),
    term: 0,
  });
  const ids = reservation.allocators().postIds;
  return plans.map((plan) => {
    const dates = occurrencesDates(plan.row, plan.fresh);
    return plan.fresh.map((start, i) => ({
      id: computed(plan.row, start) ?? ids.take(),
      occurrenceStart: start,
      ...dates[i],
    }));
  });
}

/**
 * Stores a series' occurrences up to `horizonGmt` now (contract §7.8: a write that names an
 * occurrence past the stored horizon by its computed id stores it first, with every one before
 * it), in batches of at most `MAX_NEW`, each applied only while the series is as read.
 * @param row the series as read.
 * @returns false when a write in between changed the series (read it again and retry).
 */
export async function storeUntil(
  db: Db,
  row: EventRow,
  horizonGmt: string,
  now: DateTime,
): Promise<boolean> {
  let current = row;
  while (current.horizonGmt !== null && current.horizonGmt < horizonGmt) {
    const plan = { row: current, ...nextOccurrences(current, horizonGmt) };
    const [occurrences] = await plannedOccurrences(db, [plan]);
    if (!(await extendOne(db, current, occurrences, plan.reach, stampOf(now)))) return false;
    current = { ...current, horizonGmt: plan.reach };
  }
  return true;
}

/**
 * Extends the series due (see the module comment).
 * @param now the run's clock (the scheduled event's time).
 * @returns how many series and occurrences it wrote.
 */
export async function extendSeries(database: D1Database, now: DateTime): Promise<ExtendReport> {
  const { db } = openDb(database, { write: true });
  const report: ExtendReport = { series: 0, occurrences: 0, skipped: 0 };
  const horizon = horizonAt(now);
  const due = now
    .toUTC()
    .plus({ days: HORIZON_DAYS - SLACK_DAYS })
    .toFormat(WP_FORMAT);
  const stamp = stampOf(now);
  const done = new Set<number>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const rows = (
      await db
        .select()
        .from(events)
        .where(and(sql`${events.seriesId} = ${events.id}`, lt(events.horizonGmt, due)))
        .orderBy(events.horizonGmt)
        .limit(ROUND)
    ).filter((r) => !done.has(r.id));
    if (!rows.length) break;
    const plans = rows.map((row) => {
      done.add(row.id);
      try {
        return { row, ...nextOccurrences(row, horizon) };
      } catch (err) {
        // Lines that no longer expand (a rule stored before a stricter check): left as they are.
        console.error(`series ${row.id}: not extended`, err);
        return { row, fresh: [] as string[], reach: COMPLETE };
      }
    });
    const planned = await plannedOccurrences(db, plans);
    for (const [i, plan] of plans.entries()) {
      const occurrences = planned[i];
      const applied = await extendOne(db, plan.row, occurrences, plan.reach, stamp);
      if (applied) {
        report.series++;
        report.occurrences += occurrences.length;
      } else report.skipped++;
    }
  }
  return report;
}

/** One series' batch: applies only while the series is as read. */
async function extendOne(
  db: Db,
  row: EventRow,
  occurrences: PlannedOccurrence[],
  horizonGmt: string,
  stamp: string,
): Promise<boolean> {
  const asRead = sql`EXISTS (SELECT 1 FROM ${events} WHERE ${events.id} = ${row.id} AND ${events.changedGmt} = ${row.changedGmt} AND ${events.horizonGmt} = ${row.horizonGmt})`;
  try {
    await db.batch([
      unlessChanged(db, asRead),
      ...insertOccurrences(db, row.id, occurrences, new Set(occurrences.map((o) => o.id)), stamp),
      db.update(events).set({ horizonGmt }).where(eq(events.id, row.id)),
    ] as never);
    return true;
  } catch (err) {
    if (isConflict(err)) return false;
    throw err;
  }
}
