/**
 * The ids of occurrences past a series' stored horizon (contract §7.8). An occurrence the series'
 * rule gives beyond what is stored in `event_occurrences` (src/events/series/regenerate.ts) is listed,
 * read and written by an id computed from its series and its day — the id it keeps once it is
 * stored (by the scheduled handler, or by a write that reaches it), so a reader never sees the
 * horizon move:
 *
 *   id = 2^52 + series id × 2^22 + days from the series' first day to the occurrence's
 *
 * (days of the series' wall clock; a series has at most one occurrence per day). Such ids lie above
 * every id the post sequence hands out (src/db/ids.ts `INSTANCE_ID_BASE`) and below
 * `Number.MAX_SAFE_INTEGER`, so JSON readers keep them exact. Series with an id of 2^30 or more
 * (none a post sequence reaches) have no computed occurrences: all of theirs are stored.
 */
import { INSTANCE_ID_BASE } from "../../db/ids";

/** Days an occurrence may lie after its series' first day (about 11,000 years). */
const DAY_SPAN = 2 ** 22;
/** Series ids below this have computed occurrence ids. */
const SERIES_SPAN = 2 ** 30;
const DAY_MS = 86_400_000;

/** The UTC milliseconds of a `Y-m-d…` wall clock's date (years below 100 too). */
const dayMs = (s: string) =>
  new Date(0).setUTCFullYear(
    Number(s.slice(0, 4)),
    Number(s.slice(5, 7)) - 1,
    Number(s.slice(8, 10)),
  );

/** Days from one `Y-m-d…` wall clock's date to another's. */
const daysBetween = (from: string, to: string) => Math.round((dayMs(to) - dayMs(from)) / DAY_MS);

/**
 * The id of the occurrence of series `seriesId` (first start `seriesStart`) that starts at
 * `start` (both the series' wall clock, `Y-m-d H:i:s`), or null when the series has no computed
 * ids (its id ≥ 2^30, or a day outside the span).
 * @example instanceId(337, "2027-03-02 19:00:00", "2031-03-04 19:00:00") // 4503601040852407
 */
export function instanceId(seriesId: number, seriesStart: string, start: string): number | null {
  const day = daysBetween(seriesStart, start);
  if (!Number.isSafeInteger(seriesId) || seriesId <= 0 || seriesId >= SERIES_SPAN) return null;
  if (day < 0 || day >= DAY_SPAN) return null;
  return INSTANCE_ID_BASE + seriesId * DAY_SPAN + day;
}

/** Whether an id is in the range of computed occurrence ids. */
export const isInstanceId = (id: number) =>
  Number.isSafeInteger(id) && id >= INSTANCE_ID_BASE + DAY_SPAN;

/**
 * What a computed id names: its series and the occurrence's day (the series' first day plus
 * `days`); null for any other id.
 */
export function readInstanceId(id: number): { seriesId: number; days: number } | null {
  if (!isInstanceId(id)) return null;
  const rest = id - INSTANCE_ID_BASE;
  return { seriesId: Math.floor(rest / DAY_SPAN), days: rest % DAY_SPAN };
}

/** The `Y-m-d` that lies `days` after the date of `seriesStart`. */
export function dayAfter(seriesStart: string, days: number): string {
  const d = new Date(dayMs(seriesStart) + days * DAY_MS);
  const y = String(d.getUTCFullYear()).padStart(4, "0");
  return `${y}-${d.toISOString().slice(5, 10)}`;
}
