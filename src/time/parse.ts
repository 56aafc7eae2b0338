/**
 * Parsing of the date inputs TEC accepts (tec-reference §3 `is_time`, §6.2, §8.2; contract §5):
 * Unix timestamps (all digits), `Y-m-d H:i:s`, ISO 8601 with or without offset, and PHP `strtotime`
 * phrases (`now`, `tomorrow 9am`, `+1 week`, `next wednesday 4pm`, `first day of next month`).
 *
 * The grammar is PHP's, through locutus' port of `strtotime`; it computes on the runtime's clock,
 * which is UTC in workerd (and forced to UTC in our Node scripts), so a wall-clock reading "as UTC" is
 * the wall clock in whatever zone we mean. Anything it cannot read is rejected, never guessed.
 */
import { strtotime } from "locutus/php/datetime/strtotime";
import { DateTime, FixedOffsetZone, type Zone } from "luxon";
import { Memo } from "../lib/memo";

/** Zone designators that make an input absolute: `Z`, `+02:00`, `-0500`, `+00`, and named abbreviations. */
const ZONE_SUFFIX =
  /(?:(?<=\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[ap]\.?m\.?)?)\s*(?:z|[+-]\d{2}(?::?\d{2})?)|\s+(?:utc|gmt|ut|z|e[sd]t|c[sd]t|m[sd]t|p[sd]t|ak[sd]t|h[sd]t|cest|cet|eest|eet|west|wet|bst|ist|jst|msk|aest|aedt|acst|acdt|awst|nzst|nzdt))\s*$/i;

const NUMERIC = /^\s*-?\d+(?:\.\d+)?\s*$/;

/** Year bounds of dates we store (`Y-m-d` needs four digits). */
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

/** The date when it and its UTC instant have four-digit years (both are stored as `Y-m-d H:i:s`). */
function withinRange(dt: DateTime): DateTime | null {
  const inRange = (year: number) => year >= MIN_YEAR && year <= MAX_YEAR;
  return dt.isValid && inRange(dt.year) && inRange(dt.toUTC().year) ? dt : null;
}

/** An absolute `Y-m-d` date with an optional time (its zone designator cut off), any number of digits. */
const WRITTEN = /^([+-]?\d+)-(\d+)-(\d+)(?:(?:t|\s+)(\d+):(\d+)(?::(\d+)(?:[.,]\d+)?)?)?$/i;

/**
 * Whether `strtotime`'s wall-clock reading of a written date is that date. PHP's
 * parser makes something of dates it cannot hold — `99999-01-01` reads as 2009-01-01, `2026-02-30` as
 * 2 March — and such a rewritten date is refused, never stored or filtered by. `24:00:00` is the
 * next day's midnight, as in ISO 8601. Inputs that are not a plain written date pass.
 */
function readsAsWritten(text: string, wall: number | null): boolean {
  const m = WRITTEN.exec(text.trim());
  if (!m) return true;
  if (wall === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => Number(x ?? 0));
  const midnight = hour === 24 && minute === 0 && second === 0;
  const written = DateTime.fromObject(
    { year, month, day, hour: midnight ? 0 : hour, minute, second },
    { zone: "utc" },
  );
  if (!written.isValid || written.year !== year) return false;
  return (midnight ? written.plus({ days: 1 }) : written).toSeconds() === wall;
}

/**
 * Reads a date input.
 *
 * @param input what the client sent (string or number).
 * @param zone the zone that naive inputs are wall-clock times in (the event's or the site's).
 * @param now the reference instant for relative phrases.
 * @returns a DateTime in the input's own zone: `zone` for naive inputs, the given offset for inputs
 *   that carry one, UTC for Unix timestamps; null when the input is not a date.
 * @example parseTime("tomorrow 9am", IANAZone.create("Europe/Berlin"), now)?.toISO()
 */
export function parseTime(
  input: unknown,
  zone: Zone,
  now: DateTime = DateTime.utc(),
): DateTime | null {
  if (typeof input === "number") {
    return Number.isFinite(input)
      ? withinRange(DateTime.fromSeconds(Math.floor(input), { zone: "utc" }))
      : null;
  }
  if (typeof input !== "string") return null;
  const text = input.trim();
  if (text === "" || text.length > 100) return null;
  if (NUMERIC.test(text))
    return withinRange(DateTime.fromSeconds(Math.floor(Number(text)), { zone: "utc" }));
  // A plain date or date and time reads the same at any instant: remembered (the archive's
  // default window is two such inputs on every request, and strtotime is slow).
  if (PLAIN.test(text)) {
    return plain.get(`${text}\u0000${zone.name}`, () => readText(text, zone, now));
  }
  return readText(text, zone, now);
}

/** `Y-m-d`, `Y-m-d H:i` or `Y-m-d H:i:s` (also with `T`), without a zone. */
const PLAIN = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;
/** Readings of plain inputs by text and zone. */
const plain = new Memo<DateTime | null>(512);

/** `parseTime` of a trimmed, non-numeric text. */
function readText(text: string, zone: Zone, now: DateTime): DateTime | null {
  // Relative phrases count from the wall clock in `zone`, expressed as a UTC reading.
  const wallNow = now.setZone(zone);
  const wallNowSeconds = Math.floor(wallNow.setZone("utc", { keepLocalTime: true }).toSeconds());
  const zoned = ZONE_SUFFIX.exec(text);
  if (zoned) {
    const instant = safeStrtotime(text, wallNowSeconds);
    if (instant === null) return null;
    // The wall clock of the input without its designator gives the input's own offset.
    const wall = safeStrtotime(text.slice(0, zoned.index), wallNowSeconds);
    if (!readsAsWritten(text.slice(0, zoned.index), wall)) return null;
    const offsetMinutes = wall === null ? 0 : Math.round((wall - instant) / 60);
    if (Math.abs(offsetMinutes) > 18 * 60) return null;
    return withinRange(
      DateTime.fromSeconds(instant, { zone: FixedOffsetZone.instance(offsetMinutes) }),
    );
  }
  const wall = safeStrtotime(text, wallNowSeconds);
  if (wall === null || !readsAsWritten(text, wall)) return null;
  const reading = DateTime.fromSeconds(wall, { zone: "utc" });
  return withinRange(
    DateTime.fromObject(
      {
        year: reading.year,
        month: reading.month,
        day: reading.day,
        hour: reading.hour,
        minute: reading.minute,
        second: reading.second,
      },
      { zone },
    ),
  );
}

function safeStrtotime(text: string, nowSeconds: number): number | null {
  try {
    const result = strtotime(text, nowSeconds);
    return typeof result === "number" && Number.isFinite(result) ? result : null;
  } catch {
    return null;
  }
}

/**
 * TEC's `is_time` validator: a number or a date phrase that parses.
 * @example isTime("next wednesday 4pm") // true; isTime("before my birthday") // false
 */
export function isTime(input: unknown): boolean {
  return parseTime(input, FixedOffsetZone.utcInstance) !== null;
}

/** True when the input is a Unix timestamp (all digits). */
export function isTimestamp(input: unknown): boolean {
  return typeof input === "number" || (typeof input === "string" && NUMERIC.test(input));
}
