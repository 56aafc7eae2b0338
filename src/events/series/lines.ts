/**
 * A series' `recurrence` (contract §7.8): RFC 5545 lines `RRULE`, `RDATE` and `EXDATE` (Google
 * Calendar's shape), read into a `Recurrence` whose values are series-local wall clocks, and written
 * back as the stored lines. The values are read in the event's zone (RFC 5545 §3.3.5: a floating
 * time is the series' own wall clock; a UTC or `TZID` time is the instant it names, seen in the
 * series' zone); the stored lines carry the series' zone (`TZID=…`, `VALUE=DATE` for all-day series,
 * `UNTIL` in UTC as RFC 5545 §3.3.10 asks), so that the feed can emit them as they are.
 *
 * What is supported (anything else is a `RecurrenceError`, answered 400 naming `recurrence`):
 * at most one `RRULE` with `FREQ` `DAILY`, `WEEKLY`, `MONTHLY` or `YEARLY` and the parts `INTERVAL`,
 * `COUNT` or `UNTIL`, `BYDAY`, `BYMONTHDAY`, `BYMONTH`, `BYYEARDAY`, `BYWEEKNO`, `BYSETPOS`, `WKST`
 * (no `BYHOUR`/`BYMINUTE`/`BYSECOND`: an occurrence is a day's); any number of `RDATE` and `EXDATE`
 * lines of `DATE` or `DATE-TIME` values (not `PERIOD`). A `DATE` value in a series with times names
 * the occurrence of that day (at the series' time of day). The stored lines keep the limits of the
 * input (`MAX_LINES`, `MAX_LINE_LENGTH`, and `MAX_DATES` in all), after whatever a write added.
 */
import { DateTime } from "luxon";
import { paramValue } from "../../text/ical-params";
import { WP_FORMAT, wallMillis, wallText } from "../../time/format";
import { resolveZone } from "../../time/zone";

/** Most lines a `recurrence` may have. */
export const MAX_LINES = 50;
/** Longest line (an `RDATE` with many dates is long), as sent and as stored. */
export const MAX_LINE_LENGTH = 4000;
/**
 * Most `RDATE` and `EXDATE` values a series stores, together (each deleted occurrence is one
 * more `EXDATE`): with lines of at most `MAX_LINE_LENGTH` characters, at most seven stored lines
 * (`formatLines`), each of which reads back under the limits above.
 */
export const MAX_DATES = 1000;

/** A series' rule with its values as series-local wall clocks (`Y-m-d H:i:s`). */
export interface Recurrence {
  /** The `RRULE` parts but `UNTIL`, upper case, in the order given (`[["FREQ","WEEKLY"], …]`); null without a rule. */
  rule: Array<[string, string]> | null;
  /**
   * The rule's `UNTIL` (the inclusive bound of its starts, RFC 5545 §3.3.10): the UTC instant
   * (`Y-m-d H:i:s`) in a series with times, which bounds the starts' instants; the local date
   * (`Y-m-d 00:00:00`) in an all-day series. Null without one.
   */
  until: string | null;
  /** Added starts, sorted, unique. */
  rdates: string[];
  /** Excluded starts, sorted, unique. */
  exdates: string[];
}

/** Where a series' values are read: its zone, whether it is all-day, its start (local). */
export interface SeriesFrame {
  /** IANA name or `UTC±H[:MM]` (stored canonical). */
  timezone: string;
  allDay: boolean;
  /** The series' first start, local `Y-m-d H:i:s` (DTSTART). */
  start: string;
}

/**
 * Why lines are refused: a message key under `params.` (the strings files) and its values after the
 * parameter's name.
 */
export class RecurrenceError extends Error {
  constructor(
    readonly key:
      | "recurrence_line"
      | "recurrence_limit"
      | "recurrence_start"
      | "recurrence_day"
      | "recurrence_size"
      | "recurrence_span",
    readonly args: Array<string | number> = [],
  ) {
    super(`${key}: ${args.join(", ")}`);
    this.name = "RecurrenceError";
  }
}

const FREQUENCIES = new Set(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]);
const PARTS = new Set([
  "FREQ",
  "INTERVAL",
  "COUNT",
  "UNTIL",
  "BYDAY",
  "BYMONTHDAY",
  "BYMONTH",
  "BYYEARDAY",
  "BYWEEKNO",
  "BYSETPOS",
  "WKST",
]);

/** `NAME;PARAM=VALUE;…:VALUE` of one content line (RFC 5545 §3.1), parameter values unquoted. */
const LINE =
  /^([A-Za-z-]+)((?:;[A-Za-z-]+=(?:"[^"]*"|[^;:,"]*)(?:,(?:"[^"]*"|[^;:,"]*))*)*):(.*)$/s;
const PARAM = /;([A-Za-z-]+)=("[^"]*"|[^;:"]*)/g;
/** A DATE or DATE-TIME value (RFC 5545 §3.3.4, and RFC 5545 §3.3.5). */
const VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;

const bad = (line: string) => new RecurrenceError("recurrence_line", [line.slice(0, 200)]);

/** A luxon zone that exists (the series' is checked when the event is written). */
function zoneOf(name: string, line: string) {
  const zone = resolveZone(name);
  if (!zone) throw bad(line);
  return zone;
}

/**
 * One DATE or DATE-TIME value as a series-local wall clock.
 * @param tzid the value's `TZID` parameter (a zone name), if any.
 */
function localValue(value: string, tzid: string | undefined, frame: SeriesFrame, line: string) {
  const m = VALUE.exec(value.trim());
  if (!m) throw bad(line);
  const [, y, mo, d, h, mi, s, z] = m;
  const date = `${y}-${mo}-${d}`;
  const check = DateTime.fromFormat(date, "yyyy-MM-dd", { zone: "utc" });
  if (!check.isValid) throw bad(line);
  const startTime = frame.start.slice(11);
  if (h === undefined)
    return { date: true, local: `${date} ${frame.allDay ? "00:00:00" : startTime}` };
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) throw bad(line);
  const wall = `${date} ${h}:${mi}:${s === "60" ? "59" : s}`;
  let local = wall;
  if (z === "Z" || tzid !== undefined) {
    const from = z === "Z" ? "utc" : zoneOf(tzid as string, line);
    const instant = DateTime.fromFormat(wall, WP_FORMAT, { zone: from });
    if (!instant.isValid) throw bad(line);
    local = instant.setZone(zoneOf(frame.timezone, line)).toFormat(WP_FORMAT);
  }
  return { date: false, local: frame.allDay ? `${local.slice(0, 10)} 00:00:00` : local };
}

const DAY = "(?:MO|TU|WE|TH|FR|SA|SU)";
/** What each `BY…` part and `WKST` may hold (RFC 5545 §3.3.10), one value of its comma list. */
const PART_VALUES: Record<string, { form: RegExp; max?: number; signed?: boolean }> = {
  BYDAY: { form: new RegExp(`^([+-]?\\d{1,2})?${DAY}$`), max: 53, signed: true },
  BYMONTHDAY: { form: /^([+-]?\d{1,2})$/, max: 31, signed: true },
  BYYEARDAY: { form: /^([+-]?\d{1,3})$/, max: 366, signed: true },
  BYWEEKNO: { form: /^([+-]?\d{1,2})$/, max: 53, signed: true },
  BYSETPOS: { form: /^([+-]?\d{1,3})$/, max: 366, signed: true },
  BYMONTH: { form: /^(\d{1,2})$/, max: 12 },
  WKST: { form: new RegExp(`^${DAY}$`) },
};

/** Whether a `BY…` part's (or `WKST`'s) value is one RFC 5545 allows. */
function partValueValid(name: string, value: string): boolean {
  const spec = PART_VALUES[name];
  if (!spec) return true;
  const items = value.split(",");
  if (name === "WKST" && items.length > 1) return false;
  return items.every((item) => {
    const m = spec.form.exec(item);
    if (!m) return false;
    if (m[1] === undefined) return true;
    const n = Math.abs(Number(m[1]));
    return n >= 1 && n <= (spec.max ?? 0) && (spec.signed || !/^[+-]/.test(m[1]));
  });
}

/**
 * A local wall clock in the series' zone as the UTC instant RFC 5545 §3.3.5 reads it (a time in a
 * DST gap with the offset before the gap, a time that occurs twice the first time).
 */
function utcOf(local: string, zoneName: string, line: string): string {
  const zone = zoneOf(zoneName, line);
  const t = DateTime.fromFormat(local, WP_FORMAT, { zone: "utc" });
  if (!t.isValid) throw bad(line);
  const day = 86_400_000;
  const ms = t.toMillis();
  const readings = [zone.offset(ms - day), zone.offset(ms), zone.offset(ms + day)]
    .map((o) => ms - o * 60_000)
    .filter((i) => zone.offset(i) * 60_000 === ms - i)
    .sort((a, b) => a - b);
  const instant = readings[0] ?? ms - zone.offset(ms - day) * 60_000;
  return DateTime.fromMillis(instant, { zone: "utc" }).toFormat(WP_FORMAT);
}

/** The `RRULE`'s `UNTIL` as `Recurrence.until` holds it. */
function untilValue(part: string, frame: SeriesFrame, line: string): string {
  const v = localValue(part, undefined, frame, line);
  if (frame.allDay) return `${v.local.slice(0, 10)} 00:00:00`;
  const m = VALUE.exec(part);
  // A UTC bound is the instant itself; a floating one (and a date: its whole day) the series' wall clock.
  if (m?.[7] === "Z")
    return `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6] === "60" ? "59" : m[6]}`;
  return utcOf(v.date ? `${v.local.slice(0, 10)} 23:59:59` : v.local, frame.timezone, line);
}

/** The `RRULE` value's parts, checked: unknown parts and values RFC 5545 does not allow are refused. */
function ruleParts(value: string, frame: SeriesFrame, line: string) {
  const parts: Array<[string, string]> = [];
  let until: string | null = null;
  const seen = new Set<string>();
  for (const piece of value.split(";")) {
    const eq = piece.indexOf("=");
    if (eq < 1) throw bad(line);
    const name = piece.slice(0, eq).trim().toUpperCase();
    const part = piece
      .slice(eq + 1)
      .trim()
      .toUpperCase();
    if (!PARTS.has(name) || seen.has(name) || part === "") throw bad(line);
    seen.add(name);
    if (name === "UNTIL") {
      until = untilValue(part, frame, line);
      continue;
    }
    if (name === "FREQ" && !FREQUENCIES.has(part)) throw bad(line);
    if ((name === "INTERVAL" || name === "COUNT") && !/^[1-9]\d{0,4}$/.test(part)) throw bad(line);
    if (!partValueValid(name, part)) throw bad(line);
    parts.push([name, part]);
  }
  if (!seen.has("FREQ") || (seen.has("COUNT") && seen.has("UNTIL"))) throw bad(line);
  // Weekdays with and without an ordinal in one BYDAY of a MONTHLY or YEARLY rule (`1MO,TU`), and
  // an ordinal beside BYWEEKNO (which RFC 5545 §3.3.10 forbids): calendar programs read them
  // differently (python-dateutil gives no day), so no series can mean one thing to all of them.
  const byday = parts.find(([n]) => n === "BYDAY")?.[1].split(",") ?? [];
  const ordinals = byday.filter((d) => d.length > 2).length;
  const freq = parts.find(([n]) => n === "FREQ")?.[1];
  if (
    ordinals &&
    (freq === "MONTHLY" || freq === "YEARLY") &&
    (ordinals < byday.length || seen.has("BYWEEKNO"))
  )
    throw bad(line);
  return { parts, until };
}

/**
 * Reads lines as sent (or as stored) into a `Recurrence`, in `frame`.
 * @param maxDates most `RDATE` and `EXDATE` values the lines may hold together, counted as sent
 *   (`MAX_DATES` for lines as sent: refused before the values are read, which costs the CPU time).
 * @throws RecurrenceError `recurrence_line` for a line that is not a supported RFC 5545 line,
 *   `recurrence_size` for more than `maxDates` values.
 * @example parseLines(["RRULE:FREQ=WEEKLY;BYDAY=TU", "EXDATE;TZID=Europe/Berlin:20261215T190000"], frame)
 */
export function parseLines(
  lines: readonly string[],
  frame: SeriesFrame,
  maxDates = Number.POSITIVE_INFINITY,
): Recurrence {
  const out: Recurrence = { rule: null, until: null, rdates: [], exdates: [] };
  let values = 0;
  for (const raw of lines) {
    const line = raw.trim();
    const m = LINE.exec(line);
    if (!m) throw bad(line);
    const name = m[1].toUpperCase();
    const params = new Map<string, string>();
    for (const [, key, value] of m[2].matchAll(PARAM))
      params.set(key.toUpperCase(), value.replace(/^"|"$/g, ""));
    const value = m[3];
    if (name === "RRULE") {
      if (out.rule || params.size) throw bad(line);
      const { parts, until } = ruleParts(value, frame, line);
      out.rule = parts;
      out.until = until;
      continue;
    }
    if (name !== "RDATE" && name !== "EXDATE") throw bad(line);
    const type = (params.get("VALUE") ?? "DATE-TIME").toUpperCase();
    for (const key of params.keys()) if (key !== "VALUE" && key !== "TZID") throw bad(line);
    if (type !== "DATE" && type !== "DATE-TIME") throw bad(line);
    const list = name === "RDATE" ? out.rdates : out.exdates;
    const items = value.split(",");
    values += items.length;
    if (values > maxDates)
      throw new RecurrenceError("recurrence_size", [maxDates, MAX_LINE_LENGTH]);
    for (const item of items) {
      const v = localValue(item, params.get("TZID"), frame, line);
      if (v.date !== (type === "DATE")) throw bad(line);
      list.push(v.local);
    }
  }
  out.rdates = [...new Set(out.rdates)].sort();
  out.exdates = [...new Set(out.exdates)].sort();
  return out;
}

/** `Y-m-d H:i:s` → `YYYYMMDDTHHMMSS` (or `YYYYMMDD`). */
const compact = (local: string, date: boolean) =>
  date ? local.slice(0, 10).replaceAll("-", "") : local.replace(/[-:]/g, "").replace(" ", "T");

/**
 * The stored lines of a `Recurrence` in `frame`: `RRULE` (with `UNTIL` in UTC, or as a date for
 * all-day series), then its `RDATE` and its `EXDATE` values with the series' `TZID` (or
 * `VALUE=DATE`), as few lines of each as fit `MAX_LINE_LENGTH` characters (contract §7.8: the
 * stored form obeys the limits of the input, so that a series takes its own lines back).
 * @throws RecurrenceError `recurrence_size` (values: `MAX_DATES`, `MAX_LINE_LENGTH`) for more than
 *   `MAX_DATES` `RDATE` and `EXDATE` values together, or an `RRULE` that would be longer than
 *   `MAX_LINE_LENGTH` as stored (its `UNTIL` in UTC).
 * @example formatLines(rec, frame) // ["RRULE:FREQ=WEEKLY;BYDAY=TU", "EXDATE;TZID=Europe/Berlin:20261215T190000"]
 */
export function formatLines(rec: Recurrence, frame: SeriesFrame): string[] {
  const tooLarge = () => new RecurrenceError("recurrence_size", [MAX_DATES, MAX_LINE_LENGTH]);
  if (rec.rdates.length + rec.exdates.length > MAX_DATES) throw tooLarge();
  const out: string[] = [];
  if (rec.rule) {
    const parts = rec.rule.map(([n, v]) => `${n}=${v}`);
    if (rec.until)
      parts.push(
        frame.allDay ? `UNTIL=${compact(rec.until, true)}` : `UNTIL=${compact(rec.until, false)}Z`,
      );
    out.push(`RRULE:${parts.join(";")}`);
  }
  const dates = (name: string, list: string[]) => {
    if (!list.length) return;
    const head = `${name}${frame.allDay ? ";VALUE=DATE" : `;TZID=${paramValue(frame.timezone)}`}:`;
    let line = "";
    for (const value of list.map((l) => compact(l, frame.allDay))) {
      if (line && line.length + 1 + value.length > MAX_LINE_LENGTH) {
        out.push(line);
        line = "";
      }
      line = line ? `${line},${value}` : `${head}${value}`;
    }
    out.push(line);
  };
  dates("RDATE", rec.rdates);
  dates("EXDATE", rec.exdates);
  if (out.some((line) => line.length > MAX_LINE_LENGTH)) throw tooLarge();
  return out;
}

/** A local wall clock moved by `seconds` (wall-clock arithmetic: no zone, no DST). */
export function shiftLocal(local: string, seconds: number): string {
  // Integer arithmetic where it is exact (a valid date, years 1000–9999): a series' write shifts
  // every occurrence it keeps.
  const ms = wallMillis(local);
  if (ms !== null && Number.isInteger(seconds) && wallText(ms) === local) {
    const shifted = wallText(ms + seconds * 1000);
    if (shifted !== null) return shifted;
  }
  return DateTime.fromFormat(local, WP_FORMAT, { zone: "utc" })
    .plus({ seconds })
    .toFormat(WP_FORMAT);
}

/** Seconds from one local wall clock to another (wall-clock arithmetic). */
export function localSeconds(from: string, to: string): number {
  const a = DateTime.fromFormat(from, WP_FORMAT, { zone: "utc" });
  const b = DateTime.fromFormat(to, WP_FORMAT, { zone: "utc" });
  return Math.round((b.toMillis() - a.toMillis()) / 1000);
}

/**
 * The rule moved with its series by `seconds` of wall clock (a series whose start moves keeps its
 * occurrences, each moved as much): `UNTIL` (read as the wall clock of `frame`, the series' frame
 * after the move), `RDATE` and `EXDATE` values.
 */
export function shiftRecurrence(rec: Recurrence, seconds: number, frame: SeriesFrame): Recurrence {
  if (seconds === 0) return rec;
  const move = (l: string) => shiftLocal(l, seconds);
  let until = rec.until;
  if (until && frame.allDay) until = move(until);
  else if (until) {
    const zone = zoneOf(frame.timezone, "UNTIL");
    const local = DateTime.fromFormat(until, WP_FORMAT, { zone: "utc" }).setZone(zone);
    until = utcOf(move(local.toFormat(WP_FORMAT)), frame.timezone, "UNTIL");
  }
  return { rule: rec.rule, until, rdates: rec.rdates.map(move), exdates: rec.exdates.map(move) };
}

/**
 * A local wall clock of a series with times as the UTC instant RFC 5545 §3.3.5 reads it (a time in
 * a DST gap with the offset before the gap, one that occurs twice the first time), `Y-m-d H:i:s`.
 */
export const utcOfLocal = (local: string, timezone: string): string =>
  utcOf(local, timezone, local);
