/**
 * Where a series starts when it is written (contract §7.8): its DTSTART wall clock — the local time
 * asked for, which a time in a DST gap is not shown as (RFC 5545 §3.3.5) — and its first dates.
 * The save (src/events/series/save.ts) and the preview of unsaved lines
 * (src/events/series/preview.ts) both start a series here.
 */
import type { EventRow } from "../record";
import { type OccurrenceDates, occurrenceDates } from "./expand";
import { utcOfLocal } from "./lines";
import { isSeries } from "./occurrences";

/** A local date and time as sent, without a zone (`Y-m-d H:i[:s]`, also with `T`). */
const PLAIN_LOCAL = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/;

/**
 * The series' DTSTART wall clock (RFC 5545 §3.3.5): the local time sent when it names the series'
 * start instant (a time in a DST gap does, though it is shown as the time after the gap); the
 * stored one while the dates stay; else the start as stored.
 */
function seriesWallClock(
  next: EventRow,
  existing: EventRow | null,
  startSent: string | undefined,
  datesChanged: boolean,
): string {
  if (next.allDay) return next.startDate;
  const m = PLAIN_LOCAL.exec(startSent?.trim() ?? "");
  if (m) {
    const asked = `${m[1]} ${m[2]}${m[3] ?? ":00"}`;
    if (utcOfLocal(asked, next.timezone) === next.startDateUtc) return asked;
  }
  if (!datesChanged && existing && isSeries(existing) && existing.occurrenceStart)
    return existing.occurrenceStart;
  return next.startDate;
}

/**
 * Where a series written with the dates `next` starts (contract §7.8): its DTSTART wall clock
 * (`seriesWallClock`) and, when the start sent was the second reading of a time that occurs twice
 * (a DST overlap), the dates of its first reading — the series' DTSTART and first occurrence
 * (RFC 5545 §3.3.5) — which the event takes. Used by a save and by the preview of unsaved lines
 * (src/events/series/preview.ts), so that both start a series at the same instant.
 * @param next the event's dates as they are to be (local and UTC `Y-m-d H:i:s`, zone, all day).
 * @param startSent `start_date` as sent (undefined: not sent).
 */
export function seriesStart(
  next: EventRow,
  existing: EventRow | null,
  startSent: string | undefined,
  datesChanged: boolean,
): { wall: string; first?: OccurrenceDates } {
  const wall = seriesWallClock(next, existing, startSent, datesChanged);
  if (!next.allDay && datesChanged && utcOfLocal(wall, next.timezone) !== next.startDateUtc)
    return { wall, first: occurrenceDates(next, wall) };
  return { wall };
}
