/**
 * What an event's `series` shows besides its lines (contract §7.8), in Google Calendar's terms
 * (`originalStartTime`, `iCalUID`, cancelled instances): the occurrence's original start as an
 * instant with its offset, the dates the series cancels (`EXDATE`), as RFC 3339 text — worked out
 * from the event row as it is shown (src/events/load.ts `EVENT_COLUMNS`), the same for a stored
 * occurrence, a computed one and an override.
 */
import { resolveZone } from "../../time/zone";
import { instantOf } from "./expand";
import { parseLines } from "./lines";

/** The row's columns these read. */
export interface SeriesViewRow {
  timezone: string;
  allDay: boolean;
  startDate: string;
  occurrenceStart: string | null;
  recurrence: string[] | null;
}

const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * A series-local wall clock as RFC 3339: the instant it names in `timezone` with its offset
 * (`2031-03-10T18:00:00-04:00`; a time in a DST gap as RFC 5545 §3.3.5 reads it), or the date
 * alone for an all-day series (`2031-03-10`).
 */
export function rfc3339(local: string, timezone: string, allDay: boolean): string {
  if (allDay) return local.slice(0, 10);
  // Not a wall clock: a rendering template's tokens (src/events/rendering/format.ts fills them in).
  if (!WALL_CLOCK.test(local)) return local;
  const zone = resolveZone(timezone) ?? resolveZone("UTC")!;
  return instantOf(local, zone).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

/**
 * The occurrence's original start (RFC 5545 `RECURRENCE-ID`; Google's `originalStartTime`) as
 * RFC 3339 (`rfc3339`), in the event's zone: where the rule put it, before any change.
 * @example originalStart(row) // "2031-03-10T18:00:00-04:00"
 */
export const originalStart = (row: SeriesViewRow) =>
  rfc3339(row.occurrenceStart ?? row.startDate, row.timezone, row.allDay);

/**
 * The dates the series' lines cancel (its `EXDATE`s) as RFC 3339 (`rfc3339`), in order: Google's
 * cancelled instances. Lines that do not read (stored before a stricter check) cancel nothing here.
 * @example cancelledStarts(row) // ["2027-03-30T19:00:00+02:00"]
 */
export function cancelledStarts(row: SeriesViewRow): string[] {
  const lines = row.recurrence ?? [];
  if (!lines.some((l) => l.toUpperCase().startsWith("EXDATE"))) return [];
  const frame = { timezone: row.timezone, allDay: row.allDay, start: row.startDate };
  try {
    return parseLines(lines, frame).exdates.map((x) => rfc3339(x, row.timezone, row.allDay));
  } catch {
    return [];
  }
}
