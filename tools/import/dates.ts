/**
 * DTSTART / DTEND / DURATION of a VEVENT (RFC 5545 sections 3.3.4, 3.3.5, 3.3.6, 3.8.2) turned into the
 * dates the API takes (tec-reference §8.2): all-day dates, wall clocks in an IANA zone, UTC
 * instants, or floating wall clocks. Values are validated here, each error naming its line.
 */
import ICAL from "ical.js";
import { DateTime, IANAZone } from "luxon";
import { canonicalZoneName, resolveZone } from "../../src/time/zone";
import { IcsError } from "./errors";
import type { ScannedCalendar } from "./scan";

const WP = "yyyy-MM-dd HH:mm:ss";

/**
 * When an event happens, as the API will be told:
 * - `all-day`: calendar dates `Y-m-d`; `end` is the last day (inclusive, unlike iCalendar's DTEND).
 * - `zoned`: DTSTART had an IANA `TZID`; `start`/`end` are `Y-m-d H:i:s` wall clocks in `zone`
 *   (the canonical name the API stores), `startUtc`/`endUtc` the same instants in UTC.
 * - `utc`: DTSTART was UTC (`Z`), or had a TZID only its VTIMEZONE defines; `Y-m-d H:i:s` in UTC.
 * - `floating`: no zone at all; `Y-m-d H:i:s` wall clocks, read by the API in the event's zone.
 */
export type IcsDates =
  | { kind: "all-day"; start: string; end: string }
  | { kind: "zoned"; zone: string; start: string; end: string; startUtc: string; endUtc: string }
  | { kind: "utc"; startUtc: string; endUtc: string }
  | { kind: "floating"; start: string; end: string };

/** A DTSTART/DTEND value; `at` reads dates and floating times as UTC. */
type When =
  | { kind: "date" | "floating" | "utc"; at: DateTime; line: number; raw: string }
  | { kind: "zoned"; zone: string; at: DateTime; line: number; raw: string };

/** Reports something imported differently from the file (the import still goes ahead). */
export type Warn = (line: number, message: string) => void;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)$/;
const DURATION = /^\+?P(?:\d+W|(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+S)?)?)$/;

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 37)}...` : text);

/** An IANA zone (or `UTC`) named by a TZID, also in the `/vendor/version/Area/City` form; canonical. */
export function ianaName(tzid: string): string | null {
  if (resolveZone(tzid)) return canonicalZoneName(tzid);
  const parts = tzid.split("/").filter(Boolean);
  for (const n of [3, 2]) {
    const candidate = parts.slice(-n).join("/");
    if (parts.length > n && resolveZone(candidate) instanceof IANAZone)
      return canonicalZoneName(candidate);
  }
  return null;
}

function readWhen(
  prop: ICAL.Property,
  scanned: ScannedCalendar,
  warn: Warn,
  warned: Set<string>,
): When {
  const { line, raw } = scanned.origin(prop);
  const name = prop.name.toUpperCase();
  const isDate = prop.type === "date";
  if (!isDate && prop.type !== "date-time")
    throw new IcsError(
      line,
      `${name} must be a DATE or a DATE-TIME, not ${prop.type.toUpperCase()}`,
    );
  if (prop.jCal.length !== 4) throw new IcsError(line, `${name} must have exactly one value`);
  const bad = () =>
    new IcsError(
      line,
      `invalid ${name} "${clip(raw)}" (expected ${isDate ? "YYYYMMDD" : "YYYYMMDDTHHMMSS, optionally followed by Z"})`,
    );
  const m = (isDate ? DATE : DATE_TIME).exec(String(prop.jCal[3]));
  if (!m) throw bad();
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((x) => Number(x ?? 0));
  const fields = { year, month, day, hour, minute, second };
  const at = DateTime.fromObject(fields, { zone: "utc" });
  if (!at.isValid || year < 1000) throw bad();
  if (isDate) return { kind: "date", at, line, raw };
  if (m[7] === "Z") return { kind: "utc", at, line, raw };
  const param = prop.getParameter("tzid");
  const tzid = (Array.isArray(param) ? param[0] : param)?.trim();
  if (!tzid) return { kind: "floating", at, line, raw };
  const zone = ianaName(tzid);
  if (zone)
    return {
      kind: "zoned",
      zone,
      at: DateTime.fromObject(fields, { zone: resolveZone(zone)! }),
      line,
      raw,
    };
  // Not an IANA name (e.g. Outlook's "Eastern Standard Time"): convert with the file's VTIMEZONE.
  const time = prop.getFirstValue() as ICAL.Time;
  if (!time.zone || time.zone.tzid !== tzid)
    throw new IcsError(
      line,
      `unknown time zone TZID=${tzid}: not an IANA name, and no VTIMEZONE of the file defines it`,
    );
  let utc: ICAL.Time;
  try {
    utc = time.convertToZone(ICAL.Timezone.utcTimezone);
  } catch (err) {
    throw new IcsError(
      line,
      `cannot convert ${name} with the VTIMEZONE "${tzid}": ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (!warned.has(tzid)) {
    warned.add(tzid);
    warn(
      line,
      `TZID "${tzid}" is not an IANA time zone: times are converted to UTC with the file's VTIMEZONE, and the events get the default time zone`,
    );
  }
  const instant = DateTime.fromObject(
    {
      year: utc.year,
      month: utc.month,
      day: utc.day,
      hour: utc.hour,
      minute: utc.minute,
      second: utc.second,
    },
    { zone: "utc" },
  );
  return { kind: "utc", at: instant, line, raw };
}

function addDuration(start: When, prop: ICAL.Property, scanned: ScannedCalendar): When {
  const { line, raw } = scanned.origin(prop);
  if (!DURATION.test(raw.trim()))
    throw new IcsError(
      line,
      `invalid DURATION "${clip(raw)}" (expected a positive duration such as PT1H30M or P1D)`,
    );
  const d = prop.getFirstValue() as ICAL.Duration;
  if (start.kind === "date" && (d.hours || d.minutes || d.seconds)) {
    throw new IcsError(
      line,
      "the DURATION of an all-day event (DTSTART;VALUE=DATE) must be in days or weeks",
    );
  }
  // Days and weeks are nominal (same wall-clock time), hours and less exact (RFC 5545 §3.3.6).
  const at = start.at
    .plus({ weeks: d.weeks, days: d.days })
    .plus({ hours: d.hours, minutes: d.minutes, seconds: d.seconds });
  return { ...start, at, line, raw };
}

/**
 * Reads the dates of a VEVENT. Without DTEND, DURATION gives the end; without both, an all-day
 * event lasts one day and a timed one ends when it starts. DTEND on another TZID than DTSTART is
 * converted to DTSTART's zone.
 * @param eventLine line of the VEVENT's BEGIN (for a missing DTSTART).
 * @throws IcsError for a missing or invalid DTSTART, an invalid DTEND/DURATION, a DTEND of another
 *   kind than DTSTART (DATE vs DATE-TIME, floating vs zoned), or an end before the start.
 */
export function eventDates(
  vevent: ICAL.Component,
  eventLine: number,
  scanned: ScannedCalendar,
  warn: Warn,
  warned: Set<string>,
): IcsDates {
  const dtstart = vevent.getFirstProperty("dtstart");
  if (!dtstart) throw new IcsError(eventLine, "VEVENT without DTSTART");
  const start = readWhen(dtstart, scanned, warn, warned);
  const dtend = vevent.getFirstProperty("dtend");
  const duration = vevent.getFirstProperty("duration");
  let end: When;
  if (dtend) {
    end = readWhen(dtend, scanned, warn, warned);
    if ((start.kind === "date") !== (end.kind === "date")) {
      throw new IcsError(
        end.line,
        start.kind === "date"
          ? "DTEND must be a DATE (VALUE=DATE), like DTSTART"
          : "DTEND must be a DATE-TIME, like DTSTART",
      );
    }
    if ((start.kind === "floating") !== (end.kind === "floating")) {
      throw new IcsError(
        end.line,
        start.kind === "floating"
          ? "DTEND must be a floating time (no TZID, no Z), like DTSTART"
          : "DTEND needs a time zone (TZID or Z), like DTSTART",
      );
    }
  } else if (duration) end = addDuration(start, duration, scanned);
  else end = start.kind === "date" ? { ...start, at: start.at.plus({ days: 1 }) } : start;
  if (end.at < start.at) {
    throw new IcsError(
      end.line,
      `the event ends (${dtend ? "DTEND" : "DURATION"} "${clip(end.raw)}") before it starts (DTSTART "${clip(start.raw)}")`,
    );
  }

  if (start.kind === "date") {
    // iCalendar's end date is exclusive; a zero-length all-day event is taken as one day.
    const last = end.at.minus({ days: 1 });
    const day = (dt: DateTime) => dt.toFormat("yyyy-MM-dd");
    return { kind: "all-day", start: day(start.at), end: day(last < start.at ? start.at : last) };
  }
  if (start.kind === "floating")
    return { kind: "floating", start: start.at.toFormat(WP), end: end.at.toFormat(WP) };
  const startUtc = start.at.toUTC().toFormat(WP);
  const endUtc = end.at.toUTC().toFormat(WP);
  if (start.kind === "zoned") {
    const zone = resolveZone(start.zone)!;
    return {
      kind: "zoned",
      zone: start.zone,
      start: start.at.toFormat(WP),
      end: end.at.setZone(zone).toFormat(WP),
      startUtc,
      endUtc,
    };
  }
  return { kind: "utc", startUtc, endUtc };
}
