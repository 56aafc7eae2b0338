/**
 * Recurring series (RFC 5545 sections 3.8.5.3 RRULE, 3.8.5.2 RDATE, 3.8.5.1 EXDATE, 3.8.4.4
 * RECURRENCE-ID): written as the API's `recurrence` lines (`recurrenceLines`; contract §7.8 and
 * contract §7.9), and expanded into their occurrences (`expand`), which are imported as events of
 * their own when the API cannot hold the series, and which the tests compare the API's
 * occurrences with.
 *
 * The rules are expanded by ical.js's recurrence iterator (`ICAL.Recur#iterator`, the engine of
 * Thunderbird's calendar) on DTSTART's wall clock, which is what RFC 5545 prescribes for a DTSTART
 * with a TZID: "every Monday 09:00 New York" stays 09:00 across daylight saving time. Each
 * occurrence's wall clock is then placed in time with the same rules as DTSTART (tools/import/dates.ts):
 * an IANA zone by luxon, a zone only the file's VTIMEZONE defines by ical.js, UTC, floating, or a
 * date. UNTIL and EXDATE are compared here, as instants, rather than by ical.js, which compares a
 * wall clock in a zone it does not know as if it were UTC.
 *
 * An occurrence is keyed by its original start (`20250106T140000Z` in UTC; `20250106T090000` for
 * floating times; `20250106` for all-day series), the same key a RECURRENCE-ID names, so a moved
 * occurrence keeps its key and a second import finds every occurrence again.
 */
import ICAL from "ical.js";
import { DateTime } from "luxon";
import { resolveZone } from "../../src/time/zone";
import { type IcsDates, ianaName } from "./dates";

/** Occurrences per series at most (a rule without end over decades would otherwise be endless). */
export const MAX_OCCURRENCES = 1000;
/** Candidates the iterator may produce per series (rules whose BYxxx parts rarely match). */
const MAX_STEPS = 100_000;

/** How the series' DTSTART is placed in time, and how long each occurrence lasts. */
export interface SeriesFrame {
  first: IcsDates;
  /** DTSTART's TZID, when it has one. */
  tzid?: string;
  /** DTSTART's ical.js zone (for TZIDs only the file's VTIMEZONE defines). */
  zone?: ICAL.Timezone;
}

/** One occurrence: its key (the original start) and its dates. */
export interface Occurrence {
  key: string;
  dates: IcsDates;
}

const WP = "yyyy-MM-dd HH:mm:ss";
const wall = (t: ICAL.Time) => ({
  year: t.year,
  month: t.month,
  day: t.day,
  hour: t.isDate ? 0 : t.hour,
  minute: t.isDate ? 0 : t.minute,
  second: t.isDate ? 0 : t.second,
});
const fromWp = (wp: string, zone: string) => DateTime.fromFormat(wp, WP, { zone });
const keyOfUtc = (utc: DateTime) => utc.toFormat("yyyyMMdd'T'HHmmss'Z'");

/** The zone name (or `utc`) a series' wall clocks are read in, when luxon can read them. */
function wallZone(frame: SeriesFrame): string | null {
  switch (frame.first.kind) {
    case "zoned":
      return frame.first.zone;
    case "utc":
      return frame.zone && frame.zone !== ICAL.Timezone.utcTimezone && frame.tzid ? null : "utc";
    default:
      return "utc";
  }
}

/**
 * The instant (UTC) of a time of this series: an EXDATE, RECURRENCE-ID, UNTIL or an occurrence.
 * `Z` times are UTC; a TZID that is an IANA name is read by luxon; one only the file defines, by
 * ical.js; a time without either is read like DTSTART (writers often leave the zone off).
 */
function instantOf(t: ICAL.Time, tzid: string | undefined, frame: SeriesFrame): DateTime {
  if (t.zone === ICAL.Timezone.utcTimezone || t.zone?.tzid === "UTC")
    return DateTime.fromObject(wall(t), { zone: "utc" });
  const named = tzid ? ianaName(tzid) : null;
  if (named) return DateTime.fromObject(wall(t), { zone: resolveZone(named)! }).toUTC();
  const zone = wallZone(frame);
  if (zone) return DateTime.fromObject(wall(t), { zone: resolveZone(zone) ?? "utc" }).toUTC();
  const local = t.clone();
  if (frame.zone) local.zone = frame.zone;
  const utc = local.convertToZone(ICAL.Timezone.utcTimezone);
  return DateTime.fromObject(wall(utc), { zone: "utc" });
}

/**
 * The key of a time of this series (see the module comment).
 * @param tzid the TZID parameter of the property it comes from.
 */
export function keyOf(t: ICAL.Time, tzid: string | undefined, frame: SeriesFrame): string {
  const w = wall(t);
  const pad = (n: number, size = 2) => String(n).padStart(size, "0");
  const date = `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}`;
  if (frame.first.kind === "all-day") return date;
  if (frame.first.kind === "floating" && !t.isDate && t.zone !== ICAL.Timezone.utcTimezone)
    return `${date}T${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
  return keyOfUtc(instantOf(t, tzid, frame));
}

/** The dates of the occurrence that starts at `t` (DTSTART's wall clock), lasting as the first does. */
function datesAt(t: ICAL.Time, frame: SeriesFrame): IcsDates {
  const first = frame.first;
  switch (first.kind) {
    case "all-day": {
      const start = DateTime.fromObject(wall(t), { zone: "utc" });
      const days = fromWp(`${first.end} 00:00:00`, "utc").diff(
        fromWp(`${first.start} 00:00:00`, "utc"),
        "days",
      ).days;
      return {
        kind: "all-day",
        start: start.toFormat("yyyy-MM-dd"),
        end: start.plus({ days }).toFormat("yyyy-MM-dd"),
      };
    }
    case "floating": {
      const start = DateTime.fromObject(wall(t), { zone: "utc" });
      const ms = fromWp(first.end, "utc").diff(fromWp(first.start, "utc")).milliseconds;
      return { kind: "floating", start: start.toFormat(WP), end: start.plus(ms).toFormat(WP) };
    }
    default: {
      // RFC 5545 §3.8.5.3: the exact duration of the first occurrence applies to every one.
      const ms = fromWp(first.endUtc, "utc").diff(fromWp(first.startUtc, "utc")).milliseconds;
      const startUtc = instantOf(t, frame.tzid, frame);
      const endUtc = startUtc.plus(ms);
      if (first.kind === "utc")
        return { kind: "utc", startUtc: startUtc.toFormat(WP), endUtc: endUtc.toFormat(WP) };
      const zone = resolveZone(first.zone)!;
      return {
        kind: "zoned",
        zone: first.zone,
        start: startUtc.setZone(zone).toFormat(WP),
        end: endUtc.setZone(zone).toFormat(WP),
        startUtc: startUtc.toFormat(WP),
        endUtc: endUtc.toFormat(WP),
      };
    }
  }
}

const tzidOf = (prop: ICAL.Property) => {
  const p = prop.getParameter("tzid");
  return (Array.isArray(p) ? p[0] : p)?.trim() || undefined;
};

/** The series expanded: occurrences in start order, and whether the window or the cap cut it. */
export interface Expansion {
  occurrences: Occurrence[];
  /** Stopped at `MAX_OCCURRENCES` before `until`. */
  capped: boolean;
}

/**
 * Expands a VEVENT with RRULE and/or RDATE into its occurrences up to `until`, EXDATEs left out.
 * @param frame DTSTART's placement and the first occurrence's dates (from `eventDates`).
 * @param until occurrences starting after this instant are left out.
 * @example expand(vevent, frame, DateTime.utc().plus({ years: 2 })).occurrences[1].key // "20250113T140000Z"
 */
export function expand(vevent: ICAL.Component, frame: SeriesFrame, until: DateTime): Expansion {
  const dtstart = vevent.getFirstPropertyValue("dtstart") as ICAL.Time;
  const excluded = new Set<string>();
  for (const prop of vevent.getAllProperties("exdate"))
    for (const value of prop.getValues())
      if (value instanceof ICAL.Time) excluded.add(keyOf(value, tzidOf(prop), frame));
  const found = new Map<string, ICAL.Time>();
  const within = (t: ICAL.Time, tzid: string | undefined) =>
    frame.first.kind === "all-day" || frame.first.kind === "floating"
      ? DateTime.fromObject(wall(t), { zone: "utc" }) <= until
      : instantOf(t, tzid, frame) <= until;
  let capped = false;

  for (const prop of vevent.getAllProperties("rrule")) {
    const rule = (prop.getFirstValue() as ICAL.Recur).clone();
    // UNTIL is compared here, as an instant (see the module comment).
    const ruleUntil = rule.until;
    rule.until = null;
    const end =
      ruleUntil === null
        ? null
        : ruleUntil.isDate
          ? DateTime.fromObject(wall(ruleUntil), { zone: "utc" }).endOf("day")
          : frame.first.kind === "floating"
            ? DateTime.fromObject(wall(ruleUntil), { zone: "utc" })
            : instantOf(ruleUntil, undefined, frame);
    const iterator = rule.iterator(dtstart);
    for (let steps = 0; steps < MAX_STEPS; steps++) {
      const next = iterator.next();
      if (!next) break;
      if (end) {
        const at =
          ruleUntil?.isDate || frame.first.kind === "floating" || frame.first.kind === "all-day"
            ? DateTime.fromObject(wall(next), { zone: "utc" })
            : instantOf(next, frame.tzid, frame);
        if (at > end) break;
      }
      if (!within(next, frame.tzid)) break;
      const key = keyOf(next, frame.tzid, frame);
      if (excluded.has(key) || found.has(key)) continue;
      if (found.size >= MAX_OCCURRENCES) {
        capped = true;
        break;
      }
      found.set(key, next.clone());
    }
  }
  for (const prop of vevent.getAllProperties("rdate")) {
    for (const value of prop.getValues()) {
      const start = value instanceof ICAL.Period ? value.start : value;
      if (!(start instanceof ICAL.Time) || !within(start, tzidOf(prop))) continue;
      const key = keyOf(start, tzidOf(prop), frame);
      if (!excluded.has(key) && !found.has(key) && found.size < MAX_OCCURRENCES) {
        // An RDATE in another zone than DTSTART's starts at its own instant, shown on DTSTART's clock.
        found.set(key, start.clone());
      }
    }
  }
  // The first occurrence is DTSTART itself (RFC 5545 §3.8.5.3), unless excluded.
  const firstKey = keyOf(dtstart, frame.tzid, frame);
  if (!excluded.has(firstKey) && !found.has(firstKey) && within(dtstart, frame.tzid))
    found.set(firstKey, dtstart.clone());

  const occurrences = [...found].map(([key, t]) => ({
    key,
    dates: key === firstKey ? frame.first : datesFor(t, key, frame),
  }));
  occurrences.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { occurrences, capped };
}

/** Dates of an occurrence; an RDATE given in UTC or another zone is moved onto DTSTART's clock. */
function datesFor(t: ICAL.Time, key: string, frame: SeriesFrame): IcsDates {
  if (!key.endsWith("Z") || frame.first.kind === "utc") return datesAt(t, frame);
  const utc = DateTime.fromFormat(key, "yyyyMMdd'T'HHmmss'Z'", { zone: "utc" });
  if (frame.first.kind !== "zoned") return datesAt(t, frame);
  const local = utc.setZone(resolveZone(frame.first.zone)!);
  const moved = ICAL.Time.fromData({
    year: local.year,
    month: local.month,
    day: local.day,
    hour: local.hour,
    minute: local.minute,
    second: local.second,
  });
  return datesAt(moved, frame);
}

/** Values per `RDATE`/`EXDATE` line written (the API takes lines of at most 4000 characters). */
const VALUES_PER_LINE = 200;

/** A series' `recurrence` for the API, or why it cannot have one (then its occurrences are copies). */
export type SeriesLines = { lines: string[] } | { reason: string };

/**
 * The `recurrence` lines the API takes (contract §7.8, src/events/series/lines.ts) for a VEVENT's RRULE,
 * RDATE and EXDATE, and the occurrences `cancelled` by a RECURRENCE-ID with STATUS:CANCELLED
 * (RFC 5545: such an occurrence is not in the set, as an EXDATE). Every value is written as its
 * key (see the module comment): a UTC instant (`20260311T170000Z`, which the API reads in the
 * series' zone), a wall clock for floating series, a `VALUE=DATE` date for all-day ones; `UNTIL`
 * likewise (a DATE `UNTIL` stays a date: the whole day, as here). So the API's occurrences are
 * the starts `expand` gives.
 * @returns `reason` for what the API has no form for: several RRULEs, a DTSTART in a zone only the
 *   file's VTIMEZONE defines (its wall clock cannot be named to the API).
 * @example recurrenceLines(vevent, frame, []) // { lines: ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260429T160000Z", "EXDATE:20260311T170000Z"] }
 */
export function recurrenceLines(
  vevent: ICAL.Component,
  frame: SeriesFrame,
  cancelled: readonly string[],
): SeriesLines {
  if (wallZone(frame) === null)
    return { reason: `its DTSTART's TZID ${frame.tzid} is not an IANA time zone` };
  const rules = vevent.getAllProperties("rrule");
  if (rules.length > 1) return { reason: "it has more than one RRULE" };
  const lines: string[] = [];
  const allDay = frame.first.kind === "all-day";
  const floating = frame.first.kind === "floating";
  if (rules.length === 1) {
    const rule = (rules[0].getFirstValue() as ICAL.Recur).clone();
    const until = rule.until;
    rule.until = null;
    let text = rule.toString();
    if (until) {
      const date = `${String(until.year).padStart(4, "0")}${String(until.month).padStart(2, "0")}${String(until.day).padStart(2, "0")}`;
      text += `;UNTIL=${
        until.isDate || allDay
          ? date
          : floating
            ? keyOf(until, undefined, frame)
            : keyOfUtc(instantOf(until, undefined, frame))
      }`;
    }
    lines.push(`RRULE:${text}`);
  }
  const keys = (name: "rdate" | "exdate") => {
    const out: string[] = [];
    for (const prop of vevent.getAllProperties(name))
      for (const value of prop.getValues()) {
        const start = value instanceof ICAL.Period ? value.start : value;
        if (start instanceof ICAL.Time) out.push(keyOf(start, tzidOf(prop), frame));
      }
    return out;
  };
  const write = (name: string, list: string[]) => {
    const unique = [...new Set(list)].sort();
    for (let i = 0; i < unique.length; i += VALUES_PER_LINE)
      lines.push(
        `${name}${allDay ? ";VALUE=DATE" : ""}:${unique.slice(i, i + VALUES_PER_LINE).join(",")}`,
      );
  };
  write("RDATE", keys("rdate"));
  write("EXDATE", [...keys("exdate"), ...cancelled]);
  return { lines };
}

/**
 * The series-local wall clock (`Y-m-d H:i:s`, the API's `series.occurrence_start`) of the
 * occurrence keyed `key`, in a series stored in `zone`.
 * @example occurrenceStart("20260318T170000Z", "Europe/Berlin") // "2026-03-18 18:00:00"
 */
export function occurrenceStart(key: string, zone: string): string {
  if (/^\d{8}$/.test(key))
    return `${key.slice(0, 4)}-${key.slice(4, 6)}-${key.slice(6, 8)} 00:00:00`;
  if (key.endsWith("Z"))
    return DateTime.fromFormat(key, "yyyyMMdd'T'HHmmss'Z'", { zone: "utc" })
      .setZone(resolveZone(zone) ?? "utc")
      .toFormat(WP);
  return DateTime.fromFormat(key, "yyyyMMdd'T'HHmmss", { zone: "utc" }).toFormat(WP);
}
