/**
 * Event dates on create and update (tec-reference §8.2, §8.3, §12.1; contract §4 row 10, contract §5):
 * inputs are read in the request `timezone`, else the event's, else the site's; inputs with their own
 * offset keep their instant. All-day events snap to 00:00:00–23:59:59 local; an end before the start
 * becomes the start. The local wall clock and the UTC copies are stored, with the zone abbreviation
 * of the start (EST vs EDT).
 */
import { DateTime } from "luxon";
import { InvalidParamsError } from "../http/errors";
import { WP_FORMAT } from "../time/format";
import { parseTime } from "../time/parse";
import { canonicalZoneName, resolveZone, zoneAbbreviation } from "../time/zone";
import { DATE_ARG, type DateInputs } from "./date-fields";
import type { EventRow } from "./record";

export interface EventDates {
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
  timezone: string;
  timezoneAbbr: string;
  allDay: boolean;
}

/**
 * Computes the stored dates of an event.
 * @param existing the stored event on update (fields not sent keep its values).
 * @throws InvalidParamsError for dates that do not parse (validation normally catches them first).
 */
export function eventDates(
  input: DateInputs,
  existing: EventRow | null,
  siteTimezone: string,
  now: DateTime,
): EventDates {
  const timezone =
    input.timezone !== undefined && input.timezone !== ""
      ? canonicalZoneName(input.timezone)
      : input.timezone === ""
        ? canonicalZoneName(siteTimezone)
        : (existing?.timezone ?? canonicalZoneName(siteTimezone));
  const zone = resolveZone(timezone) ?? resolveZone("UTC")!;

  const read = (
    name: (typeof DATE_ARG)["start" | "end"],
    value: string | undefined,
    stored: string | undefined,
  ): DateTime => {
    if (value !== undefined) {
      const dt = parseTime(value, zone, now);
      if (!dt) throw new InvalidParamsError([{ name }]);
      return dt.setZone(zone);
    }
    // Not sent: keep the stored wall clock (re-read in the possibly new zone).
    return DateTime.fromFormat(stored ?? "", WP_FORMAT, { zone });
  };
  let start = read(DATE_ARG.start, input.start, existing?.startDate);
  let end = read(DATE_ARG.end, input.end, existing?.endDate);
  if (!start.isValid) throw new InvalidParamsError([{ name: DATE_ARG.start }]);
  if (!end.isValid) end = start;
  const allDay = input.allDay ?? existing?.allDay ?? false;
  if (allDay) {
    start = start.startOf("day");
    end = end.set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
  }
  if (end < start) end = allDay ? start.set({ hour: 23, minute: 59, second: 59 }) : start;
  return {
    startDate: start.toFormat(WP_FORMAT),
    endDate: end.toFormat(WP_FORMAT),
    startDateUtc: start.toUTC().toFormat(WP_FORMAT),
    endDateUtc: end.toUTC().toFormat(WP_FORMAT),
    timezone,
    timezoneAbbr: zoneAbbreviation(timezone, start),
    allDay,
  };
}
