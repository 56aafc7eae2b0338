/**
 * Zone names once per transition (contract §7.8, src/time/zone.ts `zoneAbbreviations`): the dates a
 * series write stores for its occurrences (src/events/series/expand.ts `occurrencesDates`) are byte for
 * byte what the per-occurrence computation gave (test/support/zone-names-reference.ts), over
 * generated series — zones with DST, half-hour and odd offsets, a skipped day (Pacific/Apia, 2011),
 * Ramadan's suspended DST (Africa/Casablanca), a name that changes while the offset stays
 * (Africa/Tunis, 1970) and ones that come back (Africa/Algiers, Europe/London), local mean time's offsets of odd seconds, starts across DST changes and
 * in any year from 1000 to 9990, all-day and timed, every `FREQ`.
 */
import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  expand,
  instantOf,
  occurrencesDates,
  type SeriesTimes,
} from "../../src/events/series/expand";
import { parseLines, shiftLocal } from "../../src/events/series/lines";
import { WP_FORMAT } from "../../src/time/format";
import { resolveZone } from "../../src/time/zone";
import { referenceOccurrenceDates } from "../support/zone-names-reference";

const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "Australia/Lord_Howe",
  "Asia/Kolkata",
  "America/St_Johns",
  "Pacific/Apia",
  "Africa/Casablanca",
  "Europe/Istanbul",
  "Europe/London",
  "Africa/Tunis",
  "Europe/Dublin",
  "UTC+5:30",
];

/** A series' first event as a write stores it, from a local start and a length in minutes. */
function seriesTimes(zone: string, allDay: boolean, start: string, minutes: number): SeriesTimes {
  const z = resolveZone(zone)!;
  if (allDay) {
    const first = DateTime.fromFormat(start.slice(0, 10), "yyyy-MM-dd", { zone: z });
    const last = first
      .plus({ days: Math.floor(minutes / 1440) })
      .set({ hour: 23, minute: 59, second: 59 });
    const [f, l] = [first, last].map((d) => [d.toFormat(WP_FORMAT), d.toUTC().toFormat(WP_FORMAT)]);
    return {
      timezone: zone,
      allDay,
      startDate: f[0],
      startDateUtc: f[1],
      endDate: l[0],
      endDateUtc: l[1],
    };
  }
  const begin = instantOf(start, z);
  const end = begin.plus({ minutes }).setZone(z);
  return {
    timezone: zone,
    allDay,
    startDate: begin.toFormat(WP_FORMAT),
    startDateUtc: begin.toUTC().toFormat(WP_FORMAT),
    endDate: end.toFormat(WP_FORMAT),
    endDateUtc: end.toUTC().toFormat(WP_FORMAT),
  };
}

/** Compares the new dates with the reference's for one series; returns how many occurrences. */
function compare(zone: string, allDay: boolean, start: string, minutes: number, rule: string) {
  const series = seriesTimes(zone, allDay, start, minutes);
  const frame = { timezone: zone, allDay, start };
  const { starts } = expand(parseLines([rule], frame), frame, "2099-01-01 00:00:00", {
    limit: 400,
    strict: false,
  });
  expect(occurrencesDates(series, starts)).toEqual(
    starts.map((s) => referenceOccurrenceDates(series, s)),
  );
  return starts.length;
}

describe("zone names once per transition", () => {
  it("names that change while the offset stays (Tunis 1970: +01 to CET), and come back (Algiers)", () => {
    // Tunis at +1 h: `+01` until 1970, where ICU's names begin, `CET` after: found by halving.
    expect(
      compare("Africa/Tunis", false, "1969-11-20 19:00:00", 120, "RRULE:FREQ=DAILY;COUNT=90"),
    ).toBe(90);
    const dates = occurrencesDates(seriesTimes("Africa/Tunis", false, "1969-12-30 12:00:00", 60), [
      "1969-12-30 12:00:00",
      "1969-12-31 12:00:00",
      "1970-01-01 12:00:00",
      "1970-01-05 12:00:00",
    ]);
    expect(dates.map((d) => d.timezoneAbbr)).toEqual(["+01", "+01", "CET", "CET"]);
    // Casablanca: +01, +00 in Ramadan, and (tz 2026c) WET from September 2026 at the same +0.
    compare("Africa/Casablanca", false, "2026-01-10 19:00:00", 60, "RRULE:FREQ=DAILY;COUNT=400");
    compare("Africa/Casablanca", false, "2019-01-10 19:00:00", 60, "RRULE:FREQ=WEEKLY;COUNT=400");
    // A name that comes back at one offset (src/time/zone.ts RENAMED_ZONES): each instant named.
    // Algiers at +1 h: WEST, then CET (1980), then WEST again (1981); Tripoli at +2 h alike;
    // London at +1 h: BST, +01 all year 1968–1971, BST again; Istanbul's EEST, +03, EEST, +03.
    compare("Africa/Algiers", false, "1975-07-15 12:00:00", 60, "RRULE:FREQ=YEARLY;COUNT=60");
    compare("Africa/Tripoli", false, "1975-07-15 12:00:00", 60, "RRULE:FREQ=YEARLY;COUNT=60");
    compare("Europe/London", false, "1966-07-15 12:00:00", 60, "RRULE:FREQ=YEARLY;COUNT=10");
    compare("Europe/Istanbul", false, "2016-08-20 19:00:00", 120, "RRULE:FREQ=DAILY;COUNT=60");
  });

  it("a daily series across Apia's skipped 30 December 2011 and Berlin's DST changes", () => {
    compare("Pacific/Apia", false, "2011-12-20 10:00:00", 90, "RRULE:FREQ=DAILY;COUNT=30");
    compare("Europe/Berlin", false, "2026-03-01 02:30:00", 60, "RRULE:FREQ=DAILY;COUNT=400");
    compare("Europe/Berlin", true, "2026-03-01 00:00:00", 2 * 1440, "RRULE:FREQ=DAILY;COUNT=400");
  });

  it("local mean time (offsets of odd seconds) and its end: Amsterdam 1937, Berlin 1893", () => {
    compare("Europe/Amsterdam", false, "1937-06-20 12:00:00", 90, "RRULE:FREQ=DAILY;COUNT=30");
    compare("Europe/Berlin", false, "1893-03-20 19:00:00", 120, "RRULE:FREQ=DAILY;COUNT=30");
    compare("Europe/Berlin", true, "1893-03-20 00:00:00", 60, "RRULE:FREQ=DAILY;COUNT=30");
  });

  it("generated series give what the per-occurrence computation gave, byte for byte", () => {
    const rule = fc.oneof(
      fc.integer({ min: 2, max: 200 }).map((n) => `RRULE:FREQ=DAILY;COUNT=${n}`),
      fc.integer({ min: 2, max: 60 }).map((n) => `RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=${n}`),
      fc.integer({ min: 2, max: 40 }).map((n) => `RRULE:FREQ=MONTHLY;COUNT=${n}`),
      fc.integer({ min: 2, max: 30 }).map((n) => `RRULE:FREQ=YEARLY;COUNT=${n}`),
    );
    const start = fc
      .record({
        // Days around the DST changes of both hemispheres, and any day.
        day: fc.oneof(
          fc.date({
            min: new Date("2000-01-01"),
            max: new Date("2040-12-31"),
            noInvalidDate: true,
          }),
          fc
            .tuple(
              fc.integer({ min: 2005, max: 2035 }),
              fc.constantFrom(2, 3, 9, 10, 11),
              fc.integer({ min: 1, max: 28 }),
            )
            .map(([y, m, d]) => new Date(Date.UTC(y, m, d))),
        ),
        time: fc.constantFrom("02:30:00", "01:30:00", "00:15:00", "19:00:00", "23:45:00"),
      })
      .map(({ day, time }) => `${day.toISOString().slice(0, 10)} ${time}`);
    let occurrences = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.boolean(),
        start,
        fc.integer({ min: 15, max: 4 * 1440 }),
        rule,
        (zone, allDay, s, minutes, r) => {
          occurrences += compare(
            zone,
            allDay,
            allDay ? `${s.slice(0, 10)} 00:00:00` : s,
            minutes,
            r,
          );
        },
      ),
      { numRuns: 60, seed: 34 },
    );
    expect(occurrences).toBeGreaterThan(1000);
  });

  it("wall clocks shifted without luxon are luxon's (a series' write shifts each it keeps)", () => {
    const luxon = (local: string, seconds: number) =>
      DateTime.fromFormat(local, WP_FORMAT, { zone: "utc" }).plus({ seconds }).toFormat(WP_FORMAT);
    const local = fc
      .tuple(
        fc.integer({ min: 990, max: 10_010 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 60 }),
      )
      .map((p) => {
        const [y, ...rest] = p.map((n) => String(n).padStart(2, "0"));
        return `${y}-${rest[0]}-${rest[1]} ${rest[2]}:${rest[3]}:${rest[4]}`;
      });
    const seconds = fc.oneof(
      fc.integer({ min: -1e10, max: 1e10 }),
      fc.constantFrom(1, -1, 86_400, -86_400),
    );
    fc.assert(
      fc.property(local, seconds, (l, s) => {
        expect(shiftLocal(l, s)).toBe(luxon(l, s));
      }),
      { numRuns: 3000, seed: 34 },
    );
  });
});
