/**
 * The date filters of the event archive (tec-reference §6.2): defaults, inclusive day rounding or
 * strict instants, and "relative dates drop the defaults". All values end up as site-local
 * `Y-m-d H:i:s` strings compared with the events' local start/end (TEC's default "event" timezone
 * mode).
 */
import type { DateTime } from "luxon";
import { WP_FORMAT } from "../time/format";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";

/** The last `defaultStartDate` answer, by site zone and UTC day (it changes once a day). */
let lastStart = { key: "", value: "" };

/**
 * Default `start_date`: "yesterday 23:59" on the UTC clock, in site time (§2.1). Remembered for
 * the UTC day: every archive request without `start_date` asks (the time zone arithmetic is a
 * visible share of a miss, issue 16).
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

export type DateParam =
  | "start_date"
  | "end_date"
  | "starts_before"
  | "starts_after"
  | "ends_before"
  | "ends_after";
export const RELATIVE: DateParam[] = ["starts_before", "starts_after", "ends_before", "ends_after"];

/** `strict_dates` truthy per §6.2: `true`, `1`, `yes`, `on` (any case). */
export const isStrict = (value: string | undefined) => /^(true|1|yes|on)$/i.test(value ?? "");

/**
 * Turns one date input into the site-local string the filter compares with.
 * Inclusive: the calendar date of the raw input (a timestamp counts as UTC), at 00:00:00 for
 * `start_date` and 23:59:59 for the others. Strict: the instant, naive inputs read as UTC, in site time.
 * @returns null when the input does not parse (validation already rejected such input).
 */
export function roundDate(
  param: DateParam,
  input: string,
  strict: boolean,
  siteTimezone: string,
  now: DateTime,
): string | null {
  const site = resolveZone(siteTimezone) ?? "utc";
  if (strict) {
    const dt = parseTime(input, resolveZone("UTC")!, now);
    return dt ? dt.setZone(site).toFormat(WP_FORMAT) : null;
  }
  const dt = parseTime(input, resolveZone(siteTimezone)!, now);
  if (!dt) return null;
  return `${dt.toFormat("yyyy-MM-dd")} ${param === "start_date" ? "00:00:00" : "23:59:59"}`;
}

/** Which date filters apply, as site-local strings. */
export type DateFilters = Partial<Record<DateParam, string>>;

/**
 * Resolves the archive's date filters (§6.2).
 * @param values the validated inputs (defaults included for start/end).
 * @param inQuery names present in the query string (only those keep start/end next to relative dates).
 * @param include with `include`, every date filter is ignored (contract §4 row 3).
 */
export function resolveDateFilters(
  values: Partial<Record<DateParam, string>>,
  options: {
    strict: boolean;
    inQuery: (name: string) => boolean;
    include: boolean;
    siteTimezone: string;
    now: DateTime;
  },
): DateFilters {
  if (options.include) return {};
  const relative = RELATIVE.some((p) => values[p] !== undefined);
  const out: DateFilters = {};
  for (const param of ["start_date", "end_date", ...RELATIVE] as DateParam[]) {
    const value = values[param];
    if (value === undefined) continue;
    if (relative && (param === "start_date" || param === "end_date") && !options.inQuery(param))
      continue;
    const rounded = roundDate(param, value, options.strict, options.siteTimezone, options.now);
    if (rounded !== null) out[param] = rounded;
  }
  return out;
}
