/**
 * WordPress date strings: `Y-m-d H:i:s` (tec-reference §4.1) and their `*_details` split (§4.6).
 */
import { DateTime, type Zone } from "luxon";

export const WP_FORMAT = "yyyy-MM-dd HH:mm:ss";

/** `2026-12-05 19:00:00` for a luxon DateTime, in its own zone. */
export function wpDate(dt: DateTime): string {
  return dt.toFormat(WP_FORMAT);
}

/** The instant `Y-m-d H:i:s` names in `zone`, or null when the string is not of that shape. */
export function fromWpDate(value: string, zone: Zone | string): DateTime | null {
  const dt = DateTime.fromFormat(value, WP_FORMAT, { zone });
  return dt.isValid ? dt : null;
}

/** Date details of §4.6: the stored string split into zero-padded strings, no zone conversion. */
export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

/** Splits `Y-m-d H:i:s` into §4.6 details. */
export function dateDetails(value: string): DateDetails {
  const [date = "", time = ""] = value.split(" ");
  const [year = "", month = "", day = ""] = date.split("-");
  const [hour = "", minutes = "", seconds = ""] = time.split(":");
  return { year, month, day, hour, minutes, seconds };
}

/** The current UTC time as `Y-m-d H:i:s`. */
export function nowGmt(now: DateTime = DateTime.utc()): string {
  return wpDate(now.toUTC());
}

/**
 * `Y-m-d H:i:s` read as UTC (epoch ms) without luxon, or null outside the years 1000–9999 (not a
 * date check: `2026-02-30` reads as 2 March; `wallText` of the result tells).
 */
export function wallMillis(text: string): number | null {
  const n = (from: number, to: number) => Number(text.slice(from, to));
  const year = n(0, 4);
  if (!(year >= 1000 && year <= 9999) || text.length !== 19) return null;
  return Date.UTC(year, n(5, 7) - 1, n(8, 10), n(11, 13), n(14, 16), n(17, 19));
}

/** Epoch ms (whole) as `Y-m-d H:i:s` (UTC) without luxon, or null outside the years 1000–9999. */
export function wallText(ms: number): string | null {
  if (!Number.isInteger(ms)) return null;
  const iso = new Date(ms).toISOString();
  return iso.length === 24 && iso >= "1000" && iso < "9999-12-31T23:59:59.999Z"
    ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
    : null;
}

/**
 * A wall clock (`Y-m-d H:i:s`) `seconds` or calendar `years` later (luxon's `plus`: a 29 February
 * becomes the 28th). Read and written without luxon's format parser in the years 1000–9999 (its
 * share of a list's miss was a tenth of the worker's JavaScript: src/events/computed.ts).
 * @example shiftWall("2028-02-29 10:00:00", { years: 1 }) // "2029-02-28 10:00:00"
 */
export function shiftWall(local: string, by: { seconds: number } | { years: number }): string {
  const ms = wallMillis(local);
  const text =
    ms === null ? null : wallText(DateTime.fromMillis(ms, { zone: "utc" }).plus(by).toMillis());
  return (
    text ?? DateTime.fromFormat(local, WP_FORMAT, { zone: "utc" }).plus(by).toFormat(WP_FORMAT)
  );
}
