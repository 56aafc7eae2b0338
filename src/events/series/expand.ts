/**
 * Expanding a series (contract §7.8): its starts from a `Recurrence` (src/events/series/lines.ts), the
 * rule's by python-dateutil's algorithm (src/events/series/rrule.ts) in the series' own wall clock (floating time, so that a
 * weekly 19:00 stays 19:00 across DST changes, as RFC 5545 §3.3.10 asks), and each occurrence's
 * stored dates: its instant in the series' zone (RFC 5545 §3.3.5: a time in a DST gap with the offset
 * before the gap, for that occurrence alone) and the series' duration.
 *
 * The recurrence set (RFC 5545 §3.8.5): the rule's starts (counted from the series' start, COUNT
 * as RFC 5545 says, UNTIL bounding their instants), with `RDATE`s, without `EXDATE`s. The series'
 * own start must be its first occurrence (a start the rule does not give makes a set RFC 5545
 * calls undefined), and a series has at most one occurrence per day (an occurrence's page is
 * `/event/{slug}/{date}/`).
 */
import { DateTime, type Zone } from "luxon";
import { WP_FORMAT, wallMillis, wallText } from "../../time/format";
import { resolveZone, zoneAbbreviations } from "../../time/zone";
import {
  type Recurrence,
  RecurrenceError,
  type SeriesFrame,
  shiftLocal,
  utcOfLocal,
} from "./lines";
import { ruleWallClocks } from "./rrule";

/**
 * Most occurrences a series may have from its start up to the horizon when it is written
 * (contract §7.8): more is a 400 naming `recurrence` (split the series, or shorten the rule).
 */
export const MAX_OCCURRENCES = 1000;

/**
 * The rule's starts (local wall clocks) before `before` (local, exclusive), at most `limit` of them;
 * `done` when the rule has no more (COUNT or UNTIL reached). An `UNTIL` bounds the starts' instants
 * (RFC 5545 §3.3.10), read in the series' zone.
 * @throws RecurrenceError `recurrence_line` for parts the expander cannot read, `recurrence_span`
 *   for a rule that needs too many periods to reach `before` (src/events/series/rrule.ts).
 */
export function ruleStarts(
  rec: Recurrence,
  frame: SeriesFrame,
  before: string,
  limit: number,
  from: string | null = null,
): { starts: string[]; done: boolean } {
  if (!rec.rule) return { starts: [], done: true };
  if (!rec.until || frame.allDay)
    return ruleWallClocks(rec.rule, frame.start, before, limit, rec.until, from);
  // A start is in while its instant is at most UNTIL: past the local day after it, none is (one
  // start a day at most, each later than the one before).
  const zone = resolveZone(frame.timezone) ?? "utc";
  const untilLocal = DateTime.fromFormat(rec.until, WP_FORMAT, { zone: "utc" })
    .setZone(zone)
    .toFormat(WP_FORMAT);
  const { starts, done } = ruleWallClocks(
    rec.rule,
    frame.start,
    before,
    limit,
    shiftLocal(untilLocal, 86_400),
    from,
  );
  const kept = starts.filter((s) => utcOfLocal(s, frame.timezone) <= rec.until!);
  return { starts: kept, done: done || kept.length < starts.length };
}

/**
 * The series' occurrences (local starts, ascending) before `before` (local, exclusive), and whether
 * they are all it has (`complete`).
 * @param limit most occurrences to give; with `strict`, more is an error.
 * @param from reads (not writes) that want the starts from this local wall clock on: earlier ones
 *   may be missing (src/events/series/rrule.ts skips the rule's periods far before it), the start's checks
 *   are not repeated.
 * @throws RecurrenceError `recurrence_start` when the series' start is not its first occurrence,
 *   `recurrence_day` for two occurrences on one day, `recurrence_limit` (strict) for more than
 *   `limit`, `recurrence_line` for parts the expander cannot read, `recurrence_span` for a rule
 *   that needs too many periods (src/events/series/rrule.ts).
 * @example expand(rec, { timezone: "Europe/Berlin", allDay: false, start: "2026-12-01 19:00:00" }, "2028-12-01 00:00:00")
 */
export function expand(
  rec: Recurrence,
  frame: SeriesFrame,
  before: string,
  {
    limit = MAX_OCCURRENCES,
    strict = true,
    from = null,
  }: { limit?: number; strict?: boolean; from?: string | null } = {},
): { starts: string[]; complete: boolean } {
  const { starts: rule, done } = ruleStarts(rec, frame, before, limit + 1, from);
  // The start's checks are the write's; a read from `from` on may not have the first starts.
  if (from === null && rec.rule && rule[0] !== frame.start && !rec.rdates.includes(frame.start))
    throw new RecurrenceError("recurrence_start");
  if (rec.exdates.includes(frame.start) || rec.rdates.some((r) => r < frame.start))
    throw new RecurrenceError("recurrence_start");
  const excluded = new Set(rec.exdates);
  const all = [...new Set([frame.start, ...rule, ...rec.rdates.filter((r) => r < before)])]
    .filter((s) => s >= frame.start && s < before && !excluded.has(s))
    .sort();
  for (let i = 1; i < all.length; i++) {
    if (all[i].slice(0, 10) === all[i - 1].slice(0, 10))
      throw new RecurrenceError("recurrence_day", [all[i].slice(0, 10)]);
  }
  const complete = done && !rec.rdates.some((r) => r >= before);
  if (all.length > limit) {
    if (strict) throw new RecurrenceError("recurrence_limit", [limit]);
    return { starts: all.slice(0, limit), complete: false };
  }
  return { starts: all, complete };
}

/** The stored dates of one occurrence. */
export interface OccurrenceDates {
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
  timezoneAbbr: string;
}

/**
 * The instant of a local wall clock in `zone` as RFC 5545 §3.3.5 reads it: a time in a gap (spring
 * forward) with the offset before the gap (Berlin's 02:30 on the last Sunday of March is 01:30 UTC,
 * shown 03:30), a time that occurs twice (fall back) the first time; whatever the shift (Lord
 * Howe's is half an hour).
 */
export function instantOf(local: string, zone: Zone): DateTime {
  const utc = utcOfLocal(local, zone.name);
  return DateTime.fromFormat(utc, WP_FORMAT, { zone: "utc" }).setZone(zone);
}

/** What of the series an occurrence's dates come from: its zone and its own first dates. */
export interface SeriesTimes {
  timezone: string;
  allDay: boolean;
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
}

/**
 * The dates of the occurrence starting at `start` (local): as long as the series' first (the same
 * exact duration, RFC 5545 §3.8.5.3; all-day series the same number of days).
 */
export function occurrenceDates(series: SeriesTimes, start: string): OccurrenceDates {
  return occurrencesDates(series, [start])[0];
}

/**
 * The dates of the occurrences starting at `starts` (local, ascending), each what `occurrenceDates`
 * gives; the zone's abbreviations computed once per transition, not once per occurrence
 * (src/time/zone.ts `zoneAbbreviations`).
 */
export function occurrencesDates(
  series: SeriesTimes,
  starts: readonly string[],
): OccurrenceDates[] {
  const zone = resolveZone(series.timezone) ?? resolveZone("UTC")!;
  const utc = (dt: DateTime) => dt.toUTC().toFormat(WP_FORMAT);
  const dates: Array<Omit<OccurrenceDates, "timezoneAbbr">> = [];
  const named: Array<{ ms: number; offset: number }> = [];
  if (series.allDay) {
    const day = (s: string) => DateTime.fromFormat(s.slice(0, 10), "yyyy-MM-dd", { zone: "utc" });
    const days = Math.round(day(series.endDate).diff(day(series.startDate), "days").days);
    for (const start of starts) {
      const first = DateTime.fromFormat(start.slice(0, 10), "yyyy-MM-dd", { zone });
      const last = first.plus({ days }).set({ hour: 23, minute: 59, second: 59 });
      dates.push({
        startDate: first.toFormat(WP_FORMAT),
        endDate: last.toFormat(WP_FORMAT),
        startDateUtc: utc(first),
        endDateUtc: utc(last),
      });
      named.push({ ms: first.toMillis(), offset: first.offset });
    }
  } else {
    const read = (s: string) => DateTime.fromFormat(s, WP_FORMAT, { zone: "utc" }).toMillis();
    const duration = read(series.endDateUtc) - read(series.startDateUtc);
    const offsetAt = offsetsOf(zone);
    for (const start of starts) {
      const fast = timedDates(start, duration, offsetAt);
      if (fast) {
        dates.push(fast.dates);
        named.push(fast.named);
        continue;
      }
      const begin = instantOf(start, zone);
      const end = begin.plus({ milliseconds: duration }).setZone(zone);
      dates.push({
        startDate: begin.toFormat(WP_FORMAT),
        endDate: end.toFormat(WP_FORMAT),
        startDateUtc: utc(begin),
        endDateUtc: utc(end),
      });
      named.push({ ms: begin.toMillis(), offset: begin.offset });
    }
  }
  const names = zoneAbbreviations(series.timezone, named);
  return dates.map((d, i) => ({ ...d, timezoneAbbr: names[i] }));
}

/**
 * The zone's offset (minutes) at an instant (epoch ms), each instant asked of ICU once: in a batch
 * of occurrences, the offsets a day before and after one are those of its neighbours'.
 */
function offsetsOf(zone: Zone): (ms: number) => number {
  const known = new Map<number, number>();
  return (ms) => {
    let offset = known.get(ms);
    if (offset === undefined) {
      offset = zone.offset(ms);
      known.set(ms, offset);
    }
    return offset;
  };
}

/**
 * The dates of a timed occurrence from its local start, as luxon gives them (`instantOf`, then
 * `toFormat`), in integer arithmetic: the instant RFC 5545 §3.3.5 reads (src/events/series/lines.ts
 * `utcOf`, the same readings), then each wall clock. Null when that arithmetic would not be
 * exact — an offset that is not a whole number of minutes (local mean time, before ~1900), a year
 * outside 1000–9999 — and luxon is asked instead.
 */
function timedDates(start: string, duration: number, offsetAt: (ms: number) => number) {
  const ms = wallMillis(start);
  if (ms === null) return null;
  const day = 86_400_000;
  const around = [offsetAt(ms - day), offsetAt(ms), offsetAt(ms + day)];
  if (!around.every(Number.isInteger)) return null;
  const readings = around
    .map((o) => ms - o * 60_000)
    .filter((i) => offsetAt(i) * 60_000 === ms - i)
    .sort((a, b) => a - b);
  const begin = readings[0] ?? ms - around[0] * 60_000;
  const end = begin + duration;
  const [bo, eo] = [offsetAt(begin), offsetAt(end)];
  if (!Number.isInteger(bo) || !Number.isInteger(eo)) return null;
  const texts = [begin + bo * 60_000, end + eo * 60_000, begin, end].map(wallText);
  if (texts.some((t) => t === null)) return null;
  const [startDate, endDate, startDateUtc, endDateUtc] = texts as string[];
  return {
    dates: { startDate, endDate, startDateUtc, endDateUtc },
    named: { ms: begin, offset: bo },
  };
}

/** A UTC `Y-m-d H:i:s` as a wall clock in `timezone`. */
export function localOf(utc: string, timezone: string): string {
  const zone = resolveZone(timezone) ?? "utc";
  return DateTime.fromFormat(utc, WP_FORMAT, { zone: "utc" }).setZone(zone).toFormat(WP_FORMAT);
}
