/**
 * An occurrence of a recurring series as every renderer sees it (contract §7.8): the series' event
 * row with the occurrence's own id, dates and original start, so that its JSON, VEVENT and JSON-LD
 * come from the same serializers as any event's (and a list shows it "as an event of its own").
 */
import type { eventOccurrences } from "../../db/schema";
import type { EventRecord, EventRow } from "../record";

/** A row of `event_occurrences`. */
export type OccurrenceRow = typeof eventOccurrences.$inferSelect;

/** Whether a row is a series (the event written with `recurrence`: its first occurrence). */
export const isSeries = (row: Pick<EventRow, "id" | "seriesId">) => row.seriesId === row.id;

/** Whether a row is an override (one occurrence of a series, changed on its own). */
export const isOverride = (row: Pick<EventRow, "id" | "seriesId">) =>
  row.seriesId !== null && row.seriesId !== row.id;

/** The event row an occurrence shows: its series' with its own id, dates and original start. */
export function occurrenceRow(series: EventRow, occurrence: OccurrenceRow): EventRow {
  return {
    ...series,
    id: occurrence.id,
    startDate: occurrence.startDate,
    endDate: occurrence.endDate,
    startDateUtc: occurrence.startDateUtc,
    endDateUtc: occurrence.endDateUtc,
    timezoneAbbr: occurrence.timezoneAbbr,
    occurrenceStart: occurrence.occurrenceStart,
  };
}

/** The record of an occurrence: its series' record (links, terms, image) with the occurrence's row. */
export const occurrenceRecord = (series: EventRecord, occurrence: OccurrenceRow): EventRecord => ({
  ...series,
  row: occurrenceRow(series.row, occurrence),
});
