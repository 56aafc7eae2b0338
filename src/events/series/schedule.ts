/**
 * A recurring series as a schema.org `Schedule` (contract §7.8, the `eventSchedule` of its
 * event's JSON-LD), where its rule can be said that way: one `RRULE` with `FREQ`, `INTERVAL`,
 * `COUNT` or `UNTIL`, `BYDAY` (weekdays, or iCal's ordinal form such as `2TU`, which schema.org's
 * `byDay` takes as text), `BYMONTHDAY` and `BYMONTH`, and a `WKST` only where it changes nothing
 * (schema.org has no week start: a reader counts weeks from Monday, as RFC 5545's default). A rule
 * with `RDATE`s, with `BYSETPOS`, `BYYEARDAY` or `BYWEEKNO`, or whose `WKST` other than `MO` decides
 * which weeks an `INTERVAL` skips (`WEEKLY`, `INTERVAL` over 1, several `BYDAY`s) has no `Schedule`
 * (its occurrences are still each an `Event`).
 *
 * The `Schedule` reads as the RFC 5545 rule it comes from, with `exceptDate` as `EXDATE`s (and
 * `repeatCount` as `COUNT`, which counts the excepted dates too): the series' occurrences that are
 * where the rule put them. `exceptDate` is the series' `EXDATE`s (cancelled occurrences) and the
 * original starts of its moved overrides (an occurrence whose start is no longer its original one,
 * which is an `Event` of its own); an override that keeps its start is no exception.
 */
import { DateTime } from "luxon";
import { WP_FORMAT } from "../../time/format";
import { resolveZone } from "../../time/zone";
import type { EventRow, OverrideStart } from "../record";
import { localSeconds, parseLines, type SeriesFrame, utcOfLocal } from "./lines";
import { frameOf } from "./regenerate";

const DAYS: Record<string, string> = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
  SA: "Saturday",
  SU: "Sunday",
};
const PERIODS: Record<string, string> = { DAILY: "D", WEEKLY: "W", MONTHLY: "M", YEARLY: "Y" };
const SAID = new Set(["FREQ", "INTERVAL", "COUNT", "BYDAY", "BYMONTHDAY", "BYMONTH", "WKST"]);

/**
 * Whether the rule's `WKST` changes its occurrences (RFC 5545 §3.3.10: it decides which weeks a
 * `WEEKLY` rule with an `INTERVAL` over 1 and several `BYDAY`s skips; `BYWEEKNO` is not said anyway).
 */
function weekStartMatters(part: (name: string) => string | undefined): boolean {
  const wkst = part("WKST");
  return (
    wkst !== undefined &&
    wkst !== "MO" &&
    part("FREQ") === "WEEKLY" &&
    Number(part("INTERVAL") ?? "1") > 1 &&
    (part("BYDAY")?.split(",").length ?? 0) > 1
  );
}

/**
 * The original starts (series-local) of the overrides that moved: whose start is another instant
 * than their original start (RFC 5545 §3.3.5 reading of that wall clock), or another day or kind
 * (all-day or timed) in an all-day series.
 */
function movedStarts(overrides: readonly OverrideStart[], frame: SeriesFrame): string[] {
  return overrides
    .filter(([original, start, startUtc, allDay]) =>
      frame.allDay
        ? !allDay || start.slice(0, 10) !== original.slice(0, 10)
        : allDay || startUtc !== utcOfLocal(original, frame.timezone),
    )
    .map(([original]) => original);
}

/** An ISO 8601 duration of whole seconds (`PT2H`, `P1DT30M`). */
function isoDuration(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const rest = seconds % 86400;
  const h = Math.floor(rest / 3600);
  const m = Math.floor((rest % 3600) / 60);
  const s = rest % 60;
  const time = `${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s ? `${s}S` : ""}`;
  return `P${days ? `${days}D` : ""}${time ? `T${time}` : ""}` || "PT0S";
}

/**
 * The last day the rule may give an occurrence on (`endDate`, inclusive): `UNTIL`'s local day when
 * the series' time of day on it is not after `UNTIL`, else the day before (a series split at an
 * occurrence ends the second before it: that day is the new series').
 */
function lastDay(until: string, frame: SeriesFrame): string {
  if (frame.allDay) return until.slice(0, 10);
  const zone = resolveZone(frame.timezone) ?? "utc";
  const day = DateTime.fromFormat(until, WP_FORMAT, { zone: "utc" }).setZone(zone).toISODate()!;
  if (utcOfLocal(`${day} ${frame.start.slice(11)}`, frame.timezone) <= until) return day;
  return DateTime.fromISO(day, { zone: "utc" }).minus({ days: 1 }).toISODate()!;
}

/** A `Schedule`'s properties (src/events/json-ld.ts adds its `@type`). */
export interface ScheduleFields {
  repeatFrequency: string;
  byDay?: string[];
  byMonthDay?: number[];
  byMonth?: number[];
  startDate: string;
  endDate?: string;
  repeatCount?: number;
  startTime?: string;
  endTime?: string;
  duration?: string;
  exceptDate?: string[];
  scheduleTimezone: string;
}

/**
 * The `Schedule` of a series' event row (the series itself, read with its `overrideStarts`:
 * src/events/load.ts `EVENT_COLUMNS`), or undefined when the row is no series or its rule cannot
 * be said as one.
 * @example eventSchedule(row) // { repeatFrequency: "P1W", byDay: ["https://schema.org/Tuesday"], … }
 */
export function eventSchedule(row: EventRow): ScheduleFields | undefined {
  if (row.seriesId !== row.id || !row.recurrence) return undefined;
  const frame = frameOf(row);
  let rec: ReturnType<typeof parseLines>;
  try {
    rec = parseLines(row.recurrence, frame);
  } catch {
    return undefined;
  }
  if (!rec.rule || rec.rdates.length || rec.rule.some(([n]) => !SAID.has(n))) return undefined;
  const part = (name: string) => rec.rule?.find(([n]) => n === name)?.[1];
  if (weekStartMatters(part)) return undefined;
  const except = [...new Set([...rec.exdates, ...movedStarts(row.overrideStarts ?? [], frame)])];
  except.sort();
  const list = (name: string) => part(name)?.split(",") ?? [];
  const interval = part("INTERVAL") ?? "1";
  const count = part("COUNT");
  const byDay = list("BYDAY").map((d) => (DAYS[d] ? `https://schema.org/${DAYS[d]}` : d));
  const seconds = localSeconds(row.startDate, row.endDate);
  return {
    repeatFrequency: `P${interval}${PERIODS[part("FREQ") ?? "DAILY"]}`,
    ...(byDay.length ? { byDay } : {}),
    ...(list("BYMONTHDAY").length ? { byMonthDay: list("BYMONTHDAY").map(Number) } : {}),
    ...(list("BYMONTH").length ? { byMonth: list("BYMONTH").map(Number) } : {}),
    startDate: row.startDate.slice(0, 10),
    ...(rec.until ? { endDate: lastDay(rec.until, frame) } : {}),
    ...(count ? { repeatCount: Number(count) } : {}),
    ...(row.allDay
      ? {}
      : {
          startTime: frame.start.slice(11),
          endTime: row.endDate.slice(11),
          duration: isoDuration(Math.max(seconds, 0)),
        }),
    ...(except.length
      ? { exceptDate: except.map((x) => (row.allDay ? x.slice(0, 10) : x.replace(" ", "T"))) }
      : {}),
    scheduleTimezone: row.timezone,
  };
}
