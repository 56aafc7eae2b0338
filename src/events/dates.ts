/**
 * The date filters of the event archive (tec-reference §6.2): defaults, inclusive day rounding or
 * strict instants, and "relative dates drop the defaults". All values end up as site-local
 * `Y-m-d H:i:s` strings compared with the events' local start/end (TEC's default "event" timezone
 * mode). The filters themselves (arguments, columns, comparisons) are src/events/date-fields.ts.
 */
import type { DateTime } from "luxon";
import { WP_FORMAT } from "../time/format";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { ARCHIVE_DATES, type DateParam } from "./date-fields";

export { defaultEndDate, defaultStartDate } from "./date-defaults";
export type { DateParam };

/** Every date filter, the default window first (§2.1 order). */
const PARAMS = Object.keys(ARCHIVE_DATES) as DateParam[];
/** The relative filters (`starts_before` …), which drop the default window (§6.2). */
export const RELATIVE: DateParam[] = PARAMS.filter((p) => !("window" in ARCHIVE_DATES[p]));

/** `strict_dates` truthy per §6.2: `true`, `1`, `yes`, `on` (any case). */
export const isStrict = (value: string | undefined) => /^(true|1|yes|on)$/i.test(value ?? "");

/**
 * Turns one date input into the site-local string the filter compares with.
 * Inclusive: the calendar date of the raw input (a timestamp counts as UTC), at 00:00:00 for
 * `start_date` (`dayStart`) and 23:59:59 for the others. Strict: the instant, naive inputs read as
 * UTC, in site time.
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
  return `${dt.toFormat("yyyy-MM-dd")} ${"dayStart" in ARCHIVE_DATES[param] ? "00:00:00" : "23:59:59"}`;
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
  for (const param of PARAMS) {
    const value = values[param];
    if (value === undefined) continue;
    if (relative && "window" in ARCHIVE_DATES[param] && !options.inQuery(param)) continue;
    const rounded = roundDate(param, value, options.strict, options.siteTimezone, options.now);
    if (rounded !== null) out[param] = rounded;
  }
  return out;
}
