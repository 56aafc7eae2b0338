/**
 * The archive's default date window (tec-reference §2.1): from yesterday to two years ahead. The
 * arguments that take these defaults are declared in src/events/date-fields.ts.
 */
import type { DateTime } from "luxon";
import { WP_FORMAT } from "../time/format";
import { resolveZone } from "../time/zone";

/** The last `defaultStartDate` answer, by site zone and UTC day (it changes once a day). */
let lastStart = { key: "", value: "" };

/**
 * Default `start_date`: "yesterday 23:59" on the UTC clock, in site time (§2.1). Remembered for
 * the UTC day: every archive request without `start_date` asks (the time zone arithmetic is a
 * visible share of a miss).
 */
export function defaultStartDate(siteTimezone: string, now: DateTime): string {
  const key = `${siteTimezone}\n${new Date(now.toMillis()).toISOString().slice(0, 10)}`;
  if (lastStart.key === key) return lastStart.value;
  const zone = resolveZone(siteTimezone) ?? "utc";
  const value = now
    .toUTC()
    .minus({ days: 1 })
    .set({ hour: 23, minute: 59, second: 0, millisecond: 0 })
    .setZone(zone)
    .toFormat(WP_FORMAT);
  lastStart = { key, value };
  return value;
}

/** The last `defaultEndDate` answer, by UTC second. */
let lastEnd = { second: Number.NaN, value: "" };

/**
 * Default `end_date`: UTC now + 24 months, as a `Y-m-d H:i:s` reading of the UTC clock (§2.1).
 * Remembered for the second it names (the requests of a busy second share it).
 */
export function defaultEndDate(now: DateTime): string {
  const second = Math.floor(now.toMillis() / 1000);
  if (lastEnd.second !== second)
    lastEnd = { second, value: now.toUTC().plus({ months: 24 }).toFormat(WP_FORMAT) };
  return lastEnd.value;
}
