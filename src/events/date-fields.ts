/**
 * The event's dates, each wire name declared here once (tec-reference §4.1, §2.1, §2.3, §6.2,
 * §8.2):
 * - the fields an event sends and takes, `all_day` to `timezone_abbr` (part of `EVENT_FIELDS`,
 *   src/events/contract.ts), and the write arguments that decide the stored dates (`DATE_ARG`,
 *   src/events/write-dates.ts);
 * - the date filters of the archive, `start_date` to `ends_after`: their arguments, the column each
 *   compares and how (src/events/dates.ts rounds and resolves them, src/events/filters.ts applies
 *   them);
 * - how a client (the importers) asks for every date, sends an event's dates and reads them back.
 */
import { gt, gte, lt, lte, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type * as v from "valibot";
import { events } from "../db/schema";
import { type Arg, arg } from "../http/args";
import { NOTHING_HIDDEN, type wireSchema } from "../http/contract";
import { flag } from "../http/schema-kit";
import { timeInput, wpBoolean } from "../http/validators";
import { defaultEndDate, defaultStartDate } from "./date-defaults";
import { details, type EventView, text, writable } from "./field-kit";
import { timezoneOrEmpty } from "./write-validators";

const required = (key: string) =>
  arg({ schema: timeInput, required: true, type: "string", description: `events.write.${key}` });

/** The event's date fields, in the order they are sent (§4.1), `start_date`/`end_date` required on create. */
export const EVENT_DATE_FIELDS = {
  all_day: {
    out: flag("event.all_day"),
    read: (r: EventView) => r.row.allDay,
    arg: arg({
      schema: wpBoolean,
      type: "boolean",
      default: false,
      description: "events.write.all_day",
    }),
    blank: null,
    // The record keeps the flag: the dates stay shown (the iCalendar feed writes an all-day
    // event's as dates).
    hides: NOTHING_HIDDEN,
  },
  start_date: { ...text("start_date", (r) => r.row.startDate), arg: required("start_date") },
  start_date_details: details("start_date_details", (r) => r.row.startDate),
  end_date: { ...text("end_date", (r) => r.row.endDate), arg: required("end_date") },
  end_date_details: details("end_date_details", (r) => r.row.endDate),
  utc_start_date: text("utc_start_date", (r) => r.row.startDateUtc),
  utc_start_date_details: details("utc_start_date_details", (r) => r.row.startDateUtc),
  utc_end_date: text("utc_end_date", (r) => r.row.endDateUtc),
  utc_end_date_details: details("utc_end_date_details", (r) => r.row.endDateUtc),
  timezone: {
    ...text("timezone", (r) => r.row.timezone),
    ...writable("timezone", timezoneOrEmpty),
  },
  timezone_abbr: text("timezone_abbr", (r) => r.row.timezoneAbbr),
};

/** The write arguments that decide the stored dates (§8.2), by the names TypeScript gives them. */
export const DATE_ARG = {
  timezone: "timezone",
  allDay: "all_day",
  start: "start_date",
  end: "end_date",
} as const;

/** The same, in TEC's order of `POST /events` arguments (§2.3). */
export const DATE_ARGS = [
  DATE_ARG.timezone,
  DATE_ARG.allDay,
  DATE_ARG.start,
  DATE_ARG.end,
] as const;

/** The date arguments as a write parsed them (absent when not sent). */
interface DateValues {
  start_date?: string;
  end_date?: string;
  all_day?: boolean;
  timezone?: string;
}

/** The dates a write asks for (§8.2), as src/events/write-dates.ts `eventDates` takes them. */
export interface DateInputs {
  start?: string;
  end?: string;
  allDay?: boolean;
  /** `""` = the site's zone. */
  timezone?: string;
}

/**
 * What a write says of the event's dates (§8.2): undefined when an update sends none of
 * `DATE_ARGS`; `all_day` counts only when sent (a create takes its default).
 */
export function dateInputs(
  a: DateValues,
  sent: Set<string>,
  creating: boolean,
): DateInputs | undefined {
  if (!creating && !DATE_ARGS.some((n) => sent.has(n))) return undefined;
  return {
    start: a.start_date,
    end: a.end_date,
    allDay: sent.has(DATE_ARG.allDay) || creating ? a.all_day : undefined,
    timezone: a.timezone,
  };
}

/** A date filter of the archive: its argument, the column it compares, how. */
interface DateFilter {
  arg: Arg<string>;
  column: SQLiteColumn;
  compare: (column: SQLiteColumn, value: string) => SQL;
  /** The default window (`start_date`, `end_date`): dropped next to relative filters unless in the query (§6.2). */
  window?: true;
  /** Inclusive dates round to the day's first second (`start_date`), else to its last. */
  dayStart?: true;
}

const relative = (key: string, column: SQLiteColumn, compare: DateFilter["compare"]) =>
  ({
    arg: arg({ schema: timeInput, swaggerType: "string", description: `events.${key}` }),
    column,
    compare,
  }) satisfies DateFilter;

/** The archive's date filters (§2.1, §6.2), in TEC's order of arguments. */
export const ARCHIVE_DATES = {
  start_date: {
    arg: arg({
      schema: timeInput,
      default: (c) => defaultStartDate(c.siteTimezone, c.now),
      swaggerType: "string",
      description: "events.start_date",
    }),
    column: events.startDate,
    compare: gte,
    window: true,
    dayStart: true,
  },
  end_date: {
    arg: arg({
      schema: timeInput,
      default: (c) => defaultEndDate(c.now),
      swaggerType: "string",
      description: "events.end_date",
    }),
    column: events.endDate,
    compare: lte,
    window: true,
  },
  starts_before: relative("starts_before", events.startDate, lt),
  starts_after: relative("starts_after", events.startDate, gt),
  ends_before: relative("ends_before", events.endDate, lt),
  ends_after: relative("ends_after", events.endDate, gt),
} satisfies Record<string, DateFilter>;

/** One of the archive's date filters. */
export type DateParam = keyof typeof ARCHIVE_DATES;

/** The arguments of the date filters, for `GET /events` (src/events/args.ts). */
export const ARCHIVE_DATE_ARGS = Object.fromEntries(
  Object.entries(ARCHIVE_DATES).map(([name, f]) => [name, f.arg]),
) as { [K in DateParam]: (typeof ARCHIVE_DATES)[K]["arg"] };

/**
 * The query that selects events of every date, as a client asks for it (the importers).
 * @example everyDate("1970-01-01", "2999-12-31") // { start_date: "1970-01-01", end_date: "2999-12-31" }
 */
export const everyDate = (from: string, to: string): Record<string, string> => ({
  start_date: from,
  end_date: to,
});

/** An event's dates as a client sends them (§2.3); `timezone` left out when undefined. */
export interface SentDates {
  start: string;
  end: string;
  allDay: boolean;
  timezone?: string;
}

/** `SentDates` under their wire names. */
export interface DatesBody {
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone?: string;
}

/**
 * The body of `SentDates`.
 * @example datesBody({ start: "2026-12-05", end: "2026-12-05", allDay: true })
 *   // { start_date: "2026-12-05", end_date: "2026-12-05", all_day: true }
 */
export const datesBody = (d: SentDates): DatesBody => ({
  start_date: d.start,
  end_date: d.end,
  all_day: d.allDay,
  ...(d.timezone === undefined ? {} : { timezone: d.timezone }),
});

/** The date fields of an event object as sent (§4.1), as far as a client reads them. */
export type EventDatesObject = Pick<
  v.InferOutput<ReturnType<typeof wireSchema<typeof EVENT_DATE_FIELDS>>>,
  "all_day" | "start_date" | "end_date" | "utc_start_date" | "utc_end_date" | "timezone"
>;

/**
 * What a client reads of an event object's dates: `allDay` (null when password protection blanked
 * it, §4.7), the local `start`/`end` and their UTC copies (`Y-m-d H:i:s`), the zone.
 */
export const datesOf = (e: EventDatesObject) => ({
  allDay: e.all_day,
  start: e.start_date,
  end: e.end_date,
  startUtc: e.utc_start_date,
  endUtc: e.utc_end_date,
  timezone: e.timezone,
});
