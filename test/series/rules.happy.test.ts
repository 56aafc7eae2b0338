/**
 * Recurring series: what RFC 5545 rules give (contract §7.8). Each series is written through the
 * worker and read back from the archive: every occurrence an event of its own, in the series' wall
 * clock across DST changes, each as long as the series' first.
 */
import { describe, expect, it } from "vitest";
import { createEvent, listed, starts } from "./support";

const series = (start: string, end: string, recurrence: string[], more = {}) =>
  createEvent({ start_date: start, end_date: end, recurrence, ...more });

const localStarts = async () => (await listed()).map((e) => e.start_date.slice(0, 10));

describe("rules (RFC 5545 RRULE, RDATE, EXDATE)", () => {
  it("DAILY with COUNT: as many days, each an event with its own id, url and dates", async () => {
    const made = await series("2027-05-01 09:00:00", "2027-05-01 10:30:00", [
      "RRULE:FREQ=DAILY;COUNT=3",
    ]);
    const events = await listed();
    expect(events.map((e) => [e.start_date, e.end_date])).toEqual([
      ["2027-05-01 09:00:00", "2027-05-01 10:30:00"],
      ["2027-05-02 09:00:00", "2027-05-02 10:30:00"],
      ["2027-05-03 09:00:00", "2027-05-03 10:30:00"],
    ]);
    expect(events[0].id).toBe(made.id);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    expect(events.map((e) => e.url)).toEqual([
      "http://calendar.test/event/meetup/2027-05-01/",
      "http://calendar.test/event/meetup/2027-05-02/",
      "http://calendar.test/event/meetup/2027-05-03/",
    ]);
    for (const e of events) {
      expect(e.series).toEqual({
        id: made.id,
        recurrence: ["RRULE:FREQ=DAILY;COUNT=3"],
        occurrence_start: e.start_date,
        original_start: `${e.start_date.replace(" ", "T")}+00:00`,
        timezone: "UTC",
        uid: `${made.id}@calendar.test`,
        split_from: null,
        cancelled: [],
      });
      expect(e.rest_url).toBe(`http://calendar.test/wp-json/tribe/events/v1/events/${e.id}`);
      expect(e.start_date_details.day).toBe(e.start_date.slice(8, 10));
      expect(e.title).toBe("Meetup");
    }
  });

  it("WEEKLY with BYDAY and a daily INTERVAL", async () => {
    await series("2027-03-02 19:00:00", "2027-03-02 21:00:00", [
      "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4",
    ]);
    await series("2027-06-01 08:00:00", "2027-06-01 09:00:00", [
      "RRULE:FREQ=DAILY;INTERVAL=10;COUNT=3",
    ]);
    expect(await localStarts()).toEqual([
      "2027-03-02",
      "2027-03-04",
      "2027-03-09",
      "2027-03-11",
      "2027-06-01",
      "2027-06-11",
      "2027-06-21",
    ]);
  });

  it("MONTHLY with BYMONTHDAY, and with BYDAY and BYSETPOS (the last weekday)", async () => {
    await series("2027-01-15 12:00:00", "2027-01-15 13:00:00", [
      "RRULE:FREQ=MONTHLY;BYMONTHDAY=15;COUNT=3",
    ]);
    await series("2027-01-29 17:00:00", "2027-01-29 18:00:00", [
      "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3",
    ]);
    expect(await localStarts()).toEqual([
      "2027-01-15",
      "2027-01-29",
      "2027-02-15",
      "2027-02-26",
      "2027-03-15",
      "2027-03-31",
    ]);
  });

  it("YEARLY, plain and on the last Sunday of March", async () => {
    await series("2027-06-10 10:00:00", "2027-06-10 11:00:00", ["RRULE:FREQ=YEARLY;COUNT=2"]);
    await series("2027-03-28 10:00:00", "2027-03-28 11:00:00", [
      "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;COUNT=2",
    ]);
    expect(await localStarts()).toEqual(["2027-03-28", "2027-06-10", "2028-03-26", "2028-06-10"]);
  });

  it("UNTIL ends the rule (inclusive), in UTC or as a date", async () => {
    await series(
      "2027-03-02 19:00:00",
      "2027-03-02 20:00:00",
      ["RRULE:FREQ=WEEKLY;UNTIL=20270316T180000Z"],
      { timezone: "Europe/Berlin" },
    );
    await series("2027-08-01 10:00:00", "2027-08-01 11:00:00", ["RRULE:FREQ=DAILY;UNTIL=20270803"]);
    expect(await localStarts()).toEqual([
      "2027-03-02",
      "2027-03-09",
      "2027-03-16",
      "2027-08-01",
      "2027-08-02",
      "2027-08-03",
    ]);
  });

  it("RDATE adds and EXDATE removes occurrences (COUNT counts the rule's, excluded or not)", async () => {
    const made = await series(
      "2027-03-02 19:00:00",
      "2027-03-02 20:00:00",
      [
        "RRULE:FREQ=WEEKLY;COUNT=4",
        "RDATE;TZID=Europe/Berlin:20270305T190000",
        "EXDATE:20270309T180000Z",
      ],
      { timezone: "Europe/Berlin" },
    );
    expect(await localStarts()).toEqual(["2027-03-02", "2027-03-05", "2027-03-16", "2027-03-23"]);
    // The lines as stored: values in the series' zone.
    expect(made.series.recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=4",
      "RDATE;TZID=Europe/Berlin:20270305T190000",
      "EXDATE;TZID=Europe/Berlin:20270309T190000",
    ]);
  });
});

describe("time zones: wall-clock time across DST changes", () => {
  it("Europe/Berlin: 19:00 stays 19:00 when summer time starts (CET → CEST) and ends", async () => {
    await series(
      "2027-03-16 19:00:00",
      "2027-03-16 21:00:00",
      ["RRULE:FREQ=WEEKLY;COUNT=3", "RDATE;TZID=Europe/Berlin:20271028T190000,20271104T190000"],
      { timezone: "Europe/Berlin" },
    );
    const events = await listed();
    expect(starts(events)).toEqual([
      ["2027-03-16 19:00:00", "2027-03-16 18:00:00", "CET"],
      ["2027-03-23 19:00:00", "2027-03-23 18:00:00", "CET"],
      ["2027-03-30 19:00:00", "2027-03-30 17:00:00", "CEST"],
      ["2027-10-28 19:00:00", "2027-10-28 17:00:00", "CEST"],
      ["2027-11-04 19:00:00", "2027-11-04 18:00:00", "CET"],
    ]);
    expect(events.map((e) => e.utc_end_date)).toEqual([
      "2027-03-16 20:00:00",
      "2027-03-23 20:00:00",
      "2027-03-30 19:00:00",
      "2027-10-28 19:00:00",
      "2027-11-04 20:00:00",
    ]);
  });

  it("America/New_York: EST → EDT; a time in the spring-forward gap moves forward (RFC 5545)", async () => {
    await series("2027-03-07 10:00:00", "2027-03-07 11:00:00", ["RRULE:FREQ=WEEKLY;COUNT=2"], {
      timezone: "America/New_York",
    });
    await series("2027-03-13 02:30:00", "2027-03-13 03:00:00", ["RRULE:FREQ=DAILY;COUNT=3"], {
      timezone: "America/New_York",
    });
    await series("2027-11-06 01:30:00", "2027-11-06 02:00:00", ["RRULE:FREQ=DAILY;COUNT=2"], {
      timezone: "America/New_York",
    });
    expect(starts(await listed())).toEqual([
      ["2027-03-07 10:00:00", "2027-03-07 15:00:00", "EST"],
      ["2027-03-13 02:30:00", "2027-03-13 07:30:00", "EST"],
      // 02:30 does not exist on 14 March: 03:30 EDT, the offset before the gap.
      ["2027-03-14 03:30:00", "2027-03-14 07:30:00", "EDT"],
      ["2027-03-14 10:00:00", "2027-03-14 14:00:00", "EDT"],
      ["2027-03-15 02:30:00", "2027-03-15 06:30:00", "EDT"],
      ["2027-11-06 01:30:00", "2027-11-06 05:30:00", "EDT"],
      // 01:30 happens twice on 7 November: the first one (EDT).
      ["2027-11-07 01:30:00", "2027-11-07 05:30:00", "EDT"],
    ]);
  });
});

describe("all-day series", () => {
  it("repeat whole days, each as many days long as the first", async () => {
    await series("2027-03-06", "2027-03-06", ["RRULE:FREQ=WEEKLY;COUNT=2"], {
      all_day: true,
      timezone: "Europe/Berlin",
    });
    const made = await series("2027-04-10", "2027-04-11", ["RRULE:FREQ=MONTHLY;COUNT=2"], {
      all_day: true,
    });
    const events = await listed();
    expect(events.map((e) => [e.all_day, e.start_date, e.end_date])).toEqual([
      [true, "2027-03-06 00:00:00", "2027-03-06 23:59:59"],
      [true, "2027-03-13 00:00:00", "2027-03-13 23:59:59"],
      [true, "2027-04-10 00:00:00", "2027-04-11 23:59:59"],
      [true, "2027-05-10 00:00:00", "2027-05-11 23:59:59"],
    ]);
    expect(events[0].utc_start_date).toBe("2027-03-05 23:00:00");
    expect(made.series.recurrence).toEqual(["RRULE:FREQ=MONTHLY;COUNT=2"]);
  });
});
