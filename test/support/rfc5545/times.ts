/**
 * A generated series' first event as the service stores it (src/events/write-dates.ts reads a
 * local time in the event's zone; a time in a DST gap is the instant of the offset before it), and
 * its DTSTART: the wall clock the client asked for, which the rule repeats (RFC 5545 §3.3.5).
 */
import { DateTime } from "luxon";
import type { SeriesTimes } from "../../../src/events/series/expand";
import type { GeneratedSeries } from "./generate";

const WP = "yyyy-MM-dd HH:mm:ss";

/** The series' DTSTART (local `Y-m-d H:i:s`). */
export const seriesDtstart = (g: GeneratedSeries) => g.start;

/** The stored dates of the series' first event. */
export function firstTimes(g: GeneratedSeries): SeriesTimes {
  const start = DateTime.fromFormat(g.start, WP, { zone: g.zone });
  const end = g.allDay
    ? start.plus({ days: Math.floor(g.minutes / 1440) }).set({ hour: 23, minute: 59, second: 59 })
    : start.plus({ minutes: g.minutes });
  return {
    timezone: g.zone,
    allDay: g.allDay,
    startDate: start.toFormat(WP),
    endDate: end.toFormat(WP),
    startDateUtc: start.toUTC().toFormat(WP),
    endDateUtc: end.toUTC().toFormat(WP),
  };
}
