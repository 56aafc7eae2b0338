/**
 * VTIMEZONE components (RFC 5545 §3.6.5) computed from the IANA database the runtime ships (Intl,
 * through luxon): every UTC-offset transition in the years the feed's events cover, one STANDARD or
 * DAYLIGHT observance per transition (no RRULE, so past rule changes are exact), after one observance
 * for the offset in force at the start of the range; then the zone's rules from the year after the
 * range on, as recurring observances (`RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU`), so that a reader
 * that expands an endless series (contract §7.8) finds the right offset in any later year. A zone
 * whose later changes follow no such rule gets its transitions one by one for `IRREGULAR_YEARS`
 * more years instead. Fixed offsets (`UTC+2`) get one observance.
 */
import { DateTime, FixedOffsetZone, type Zone } from "luxon";
import { resolveZone, zoneAbbreviation } from "../time/zone";
import { contentLine, dateTimeValue, offsetValue, textLine } from "./text";

const MINUTE = 60_000;
const DAY = 86_400_000;
/**
 * Step of the transition scan. Offsets are sampled weekly and each change is then found to the
 * minute; two transitions less than a week apart (none in current rules) would be missed.
 */
const STEP = 7 * DAY;
/** Years outside this range are not scanned (dates there are clamped into it). */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2200;
/** Years after the range whose transitions a rule must give, each, to stand for all later ones. */
const RULE_YEARS = 8;
/** Years after the range written one by one when no rule gives the zone's later transitions. */
const IRREGULAR_YEARS = 80;

/** One change of offset: the instant (ms, UTC) and the offsets before and after (minutes). */
export interface Transition {
  at: number;
  from: number;
  to: number;
}

/**
 * The offset changes of `zone` in `[startMs, endMs)`, in order.
 * @example transitions(IANAZone.create("Europe/Berlin"), Date.UTC(2026, 0), Date.UTC(2027, 0))
 *   // [{ at: 2026-03-29T01:00Z, from: 60, to: 120 }, { at: 2026-10-25T01:00Z, from: 120, to: 60 }]
 */
export function transitions(zone: Zone, startMs: number, endMs: number): Transition[] {
  const out: Transition[] = [];
  if (zone.isUniversal) return out;
  let t = startMs;
  let offset = zone.offset(t);
  while (t < endMs) {
    const next = Math.min(t + STEP, endMs);
    const nextOffset = zone.offset(next);
    if (nextOffset !== offset) {
      // Binary search for the first minute with the new offset.
      let lo = t;
      let hi = next;
      while (hi - lo > MINUTE) {
        const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
        if (zone.offset(mid) === offset) lo = mid;
        else hi = mid;
      }
      out.push({ at: hi, from: offset, to: nextOffset });
    }
    t = next;
    offset = nextOffset;
  }
  return out;
}

/** Wall clock of `ms` at `offset` minutes, as a DATE-TIME value. */
const wallClock = (ms: number, offset: number) =>
  dateTimeValue(
    DateTime.fromMillis(ms + offset * MINUTE, { zone: "utc" }).toFormat("yyyy-MM-dd HH:mm:ss"),
  );

function observance(
  kind: "STANDARD" | "DAYLIGHT",
  start: string,
  from: number,
  to: number,
  name: string,
): string {
  return (
    contentLine("BEGIN", kind) +
    contentLine("DTSTART", start) +
    contentLine("TZOFFSETFROM", offsetValue(from)) +
    contentLine("TZOFFSETTO", offsetValue(to)) +
    textLine("TZNAME", name) +
    contentLine("END", kind)
  );
}

const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/** A transition's wall clock in the offset before it (how DTSTART and the rules read it). */
const localBefore = (t: Transition) => DateTime.fromMillis(t.at + t.from * MINUTE, { zone: "utc" });

/**
 * The day of `month` in `year` a yearly rule gives: `BYDAY=nWD` (n > 0: the nth weekday `wd` of
 * the month; n = -1: the last), or with `from` the first `wd` on or after that day of the month
 * (the IANA `Sun>=8` form: `BYMONTHDAY=8,…,14;BYDAY=SU`).
 */
function ruleDay(year: number, month: number, wd: number, n: number, from?: number): number {
  const first = DateTime.utc(year, month, 1);
  if (from !== undefined) {
    const start = first.set({ day: from });
    return from + ((wd - start.weekday + 7) % 7);
  }
  if (n > 0) return 1 + ((wd - first.weekday + 7) % 7) + 7 * (n - 1);
  const last = first.endOf("month");
  return last.day - ((last.weekday - wd + 7) % 7);
}

/** One recurring observance: its first transition and its `RRULE` value. */
interface RuleObservance {
  first: Transition;
  rule: string;
}

/**
 * The yearly rules that give every transition of `years` (consecutive years' transitions, the
 * same number each year, at least one), as the IANA rules say them; null when none does (no change
 * at all: an empty list).
 */
function yearlyRules(years: Transition[][]): RuleObservance[] | null {
  const perYear = years[0].length;
  if (perYear === 0) return years.every((y) => y.length === 0) ? [] : null;
  if (years.some((y) => y.length !== perYear)) return null;
  const out: RuleObservance[] = [];
  for (let i = 0; i < perYear; i++) {
    const all = years.map((y) => y[i]);
    const locals = all.map(localBefore);
    const head = locals[0];
    const same = all.every(
      (t, k) =>
        t.from === all[0].from &&
        t.to === all[0].to &&
        locals[k].month === head.month &&
        locals[k].weekday === head.weekday &&
        locals[k].toFormat("HHmmss") === head.toFormat("HHmmss"),
    );
    if (!same) return null;
    const wd = head.weekday;
    const gives = (n: number, from?: number) =>
      locals.every((l) => ruleDay(l.year, l.month, wd, n, from) === l.day);
    const n = Math.ceil(head.day / 7);
    let byDay: string | null = null;
    if (n <= 4 && gives(n)) byDay = `BYDAY=${n}${WEEKDAYS[wd - 1]}`;
    else if (gives(-1)) byDay = `BYDAY=-1${WEEKDAYS[wd - 1]}`;
    else
      for (let from = Math.max(1, head.day - 6); from <= head.day && !byDay; from++) {
        // (A day range past the month's end in some year would run into the next month.)
        const shortest = Math.min(...locals.map((l) => l.daysInMonth ?? 28));
        if (from + 6 > shortest || !gives(0, from)) continue;
        const days = Array.from({ length: 7 }, (_, k) => from + k).join(",");
        byDay = `BYMONTHDAY=${days};BYDAY=${WEEKDAYS[wd - 1]}`;
      }
    if (!byDay) return null;
    out.push({ first: all[0], rule: `FREQ=YEARLY;BYMONTH=${head.month};${byDay}` });
  }
  return out;
}

/** The transitions of `zone` in each of `count` UTC years from `year`. */
function byYear(zone: Zone, year: number, count: number): Transition[][] {
  return Array.from({ length: count }, (_, k) =>
    transitions(zone, Date.UTC(year + k, 0, 1), Date.UTC(year + k + 1, 0, 1)),
  );
}

/**
 * The VTIMEZONE of a stored event zone (`America/New_York`, `UTC`, `UTC+5:30`) for events between two
 * UTC instants, or `""` when the zone is unknown (such events are written in UTC instead).
 * @param tzid the zone name as stored; it is the TZID the events use.
 * @param firstUtc, lastUtc `Y-m-d H:i:s` UTC bounds of the events' starts and ends; the scan covers
 *   the whole years around them, plus one on each side; the zone's rules follow from the next year.
 */
export function vtimezone(tzid: string, firstUtc: string, lastUtc: string): string {
  const zone = resolveZone(tzid);
  if (!zone) return "";
  const year = (wp: string, fallback: number) =>
    Math.min(LAST_YEAR, Math.max(FIRST_YEAR, Number(wp.slice(0, 4)) || fallback));
  const now = new Date().getUTCFullYear();
  const startMs = Date.UTC(year(firstUtc, now) - 1, 0, 1);
  const endYear = year(lastUtc, now) + 2;
  const name = (ms: number) => zoneAbbreviation(tzid, DateTime.fromMillis(ms, { zone: "utc" }));
  const dst = (ms: number) =>
    !(zone instanceof FixedOffsetZone) && DateTime.fromMillis(ms, { zone }).isInDST;
  const kind = (ms: number) => (dst(ms) ? "DAYLIGHT" : "STANDARD");

  const initial = zone.offset(startMs);
  let body = observance(
    kind(startMs),
    wallClock(startMs, initial),
    initial,
    initial,
    name(startMs),
  );
  const changes = (from: number, to: number) => {
    for (const t of transitions(zone, from, to))
      body += observance(kind(t.at), wallClock(t.at, t.from), t.from, t.to, name(t.at));
  };
  changes(startMs, Date.UTC(endYear, 0, 1));
  const rules = zone.isUniversal ? [] : yearlyRules(byYear(zone, endYear, RULE_YEARS));
  if (rules === null) changes(Date.UTC(endYear, 0, 1), Date.UTC(endYear + IRREGULAR_YEARS, 0, 1));
  for (const { first, rule } of rules ?? [])
    body +=
      contentLine("BEGIN", kind(first.at)) +
      contentLine("DTSTART", wallClock(first.at, first.from)) +
      contentLine("RRULE", rule) +
      contentLine("TZOFFSETFROM", offsetValue(first.from)) +
      contentLine("TZOFFSETTO", offsetValue(first.to)) +
      textLine("TZNAME", name(first.at)) +
      contentLine("END", kind(first.at));
  return (
    contentLine("BEGIN", "VTIMEZONE") +
    textLine("TZID", tzid) +
    body +
    contentLine("END", "VTIMEZONE")
  );
}
