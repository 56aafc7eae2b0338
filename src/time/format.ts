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
