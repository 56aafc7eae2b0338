/**
 * VTIMEZONE components (RFC 5545 §3.6.5) computed from the IANA database the runtime ships (Intl,
 * through luxon): every UTC-offset transition in the years the feed's events cover, one STANDARD or
 * DAYLIGHT observance per transition (no RRULE, so past rule changes are exact), after one observance
 * for the offset in force at the start of the range. Fixed offsets (`UTC+2`) get one observance.
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

/**
 * The VTIMEZONE of a stored event zone (`America/New_York`, `UTC`, `UTC+5:30`) for events between two
 * UTC instants, or `""` when the zone is unknown (such events are written in UTC instead).
 * @param tzid the zone name as stored; it is the TZID the events use.
 * @param firstUtc, lastUtc `Y-m-d H:i:s` UTC bounds of the events' starts and ends; the scan covers
 *   the whole years around them, plus one on each side.
 */
export function vtimezone(tzid: string, firstUtc: string, lastUtc: string): string {
  const zone = resolveZone(tzid);
  if (!zone) return "";
  const year = (wp: string, fallback: number) =>
    Math.min(LAST_YEAR, Math.max(FIRST_YEAR, Number(wp.slice(0, 4)) || fallback));
  const now = new Date().getUTCFullYear();
  const startMs = Date.UTC(year(firstUtc, now) - 1, 0, 1);
  const endMs = Date.UTC(year(lastUtc, now) + 2, 0, 1);
  const name = (ms: number) => zoneAbbreviation(tzid, DateTime.fromMillis(ms, { zone: "utc" }));
  const dst = (ms: number) =>
    !(zone instanceof FixedOffsetZone) && DateTime.fromMillis(ms, { zone }).isInDST;

  const initial = zone.offset(startMs);
  let body = observance(
    dst(startMs) ? "DAYLIGHT" : "STANDARD",
    wallClock(startMs, initial),
    initial,
    initial,
    name(startMs),
  );
  for (const t of transitions(zone, startMs, endMs)) {
    body += observance(
      dst(t.at) ? "DAYLIGHT" : "STANDARD",
      wallClock(t.at, t.from),
      t.from,
      t.to,
      name(t.at),
    );
  }
  return (
    contentLine("BEGIN", "VTIMEZONE") +
    textLine("TZID", tzid) +
    body +
    contentLine("END", "VTIMEZONE")
  );
}
