/**
 * What an event of a series says of its series, in Google Calendar's terms (contract §7.8): the
 * original start as RFC 3339 with its offset and zone (`originalStartTime`), the cancelled dates,
 * the series' iCalendar UID (`iCalUID`, the feed's) — also a filter that finds the series' events —
 * and the series a split one came from.
 */
import { describe, expect, it } from "vitest";
import { feed, parse } from "../ical/support";
import { ADMIN, api, NS } from "../support/api";
import { change, createEvent, listed } from "./support";

/** Tuesdays 19:00–21:00 in Berlin, six weeks from 2 March 2027 (summer time from 28 March). */
const meetup = (more = {}) =>
  createEvent({
    start_date: "2027-03-02 19:00:00",
    end_date: "2027-03-02 21:00:00",
    timezone: "Europe/Berlin",
    recurrence: ["RRULE:FREQ=WEEKLY;COUNT=6"],
    ...more,
  });

describe("series: original start, zone, cancelled dates", () => {
  it("each occurrence's original start with the offset of its day; an override keeps its slot's", async () => {
    const s = await meetup();
    const weeks = await listed(`series=${s.id}`);
    expect(weeks.map((e) => e.series.original_start)).toEqual([
      "2027-03-02T19:00:00+01:00",
      "2027-03-09T19:00:00+01:00",
      "2027-03-16T19:00:00+01:00",
      "2027-03-23T19:00:00+01:00",
      "2027-03-30T19:00:00+02:00",
      "2027-04-06T19:00:00+02:00",
    ]);
    expect(new Set(weeks.map((e) => e.series.timezone))).toEqual(new Set(["Europe/Berlin"]));
    // Week 4 moves into summer time; week 6 is cancelled.
    const moved = await change(weeks[3].id, {
      start_date: "2027-03-31 18:00:00",
      end_date: "2027-03-31 20:00:00",
    });
    expect(moved.body.series.original_start).toBe("2027-03-23T19:00:00+01:00");
    expect(moved.body.series.occurrence_start).toBe("2027-03-23 19:00:00");
    expect((await change(weeks[5].id)).status).toBe(200);
    const series = (await api(`${NS}/events/${s.id}`)).body.series;
    expect(series.cancelled).toEqual(["2027-04-06T19:00:00+02:00"]);
    // Every event of the series says so, from the stored renderings and by the full path.
    for (const headers of [{}, ADMIN]) {
      const now = await listed(`series=${s.id}`, headers);
      expect(now.map((e) => e.series.cancelled)).toEqual(Array(5).fill(series.cancelled));
      expect(now.map((e) => e.series.original_start)).toEqual([
        "2027-03-02T19:00:00+01:00",
        "2027-03-09T19:00:00+01:00",
        "2027-03-16T19:00:00+01:00",
        "2027-03-30T19:00:00+02:00",
        "2027-03-23T19:00:00+01:00",
      ]);
    }
  });

  it("an all-day series' original starts and cancelled dates are dates", async () => {
    const s = await createEvent({
      start_date: "2027-06-05",
      end_date: "2027-06-05",
      all_day: true,
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3", "EXDATE;VALUE=DATE:20270612"],
    });
    const days = await listed(`series=${s.id}`);
    expect(days.map((e) => e.series.original_start)).toEqual(["2027-06-05", "2027-06-19"]);
    expect(days[0].series.cancelled).toEqual(["2027-06-12"]);
  });
});

describe("the series' iCalendar UID", () => {
  it("is the feed's UID, on every event of the series, and finds them all as a filter", async () => {
    const s = await meetup();
    const other = await meetup({ title: "Other" });
    const weeks = await listed(`series=${s.id}`);
    await change(weeks[2].id, { title: "Guest night" });
    const uid = `${s.id}@calendar.test`;
    const now = await listed(`series=${s.id}`);
    expect(new Set(now.map((e) => e.series.uid))).toEqual(new Set([uid]));
    const ics = parse((await feed(`?series=${s.id}&start_date=2027-01-01`)).text);
    expect(new Set(ics.events.map((e) => e.uid))).toEqual(new Set([uid]));
    // As a filter: the series, its override and its occurrences (dates ignored), by post date, id.
    const found = await api(`${NS}/events?uid=${encodeURIComponent(uid)}`);
    expect(found.status, found.text).toBe(200);
    expect(found.body.events.map((e: any) => e.id).sort()).toEqual(weeks.map((e) => e.id).sort());
    expect(found.body.total).toBe(6);
    const both = await api(
      `${NS}/events?uid=${encodeURIComponent(`${uid},${other.id}@calendar.test`)}`,
    );
    expect(both.body.total).toBe(12);
    // Another site's host names nothing here.
    expect((await api(`${NS}/events?uid=${s.id}@example.org`)).body.total).toBe(0);
  });

  it("an imported UID is the series': on its occurrences and overrides, and as a filter", async () => {
    const s = await meetup({ uid: "weekly-42@example.org" });
    const weeks = await listed(`series=${s.id}`);
    await change(weeks[1].id, { title: "Moved" });
    const now = await listed(`series=${s.id}`);
    expect(now.map((e) => e.series.uid)).toEqual(Array(6).fill("weekly-42@example.org"));
    const found = await api(`${NS}/events?uid=weekly-42@example.org&per_page=50`);
    expect(found.body.total).toBe(6);
    // Its id form names nothing: the series has its own UID.
    expect((await api(`${NS}/events?uid=${s.id}@calendar.test`)).body.total).toBe(0);
  });
});

describe("a split series", () => {
  it("names the series it came from, on each of its events", async () => {
    const s = await meetup();
    const weeks = await listed(`series=${s.id}`);
    const split = await change(weeks[3].id, { title: "Spring" }, "?scope=following");
    expect(split.status, split.text).toBe(200);
    const later = await listed(`series=${weeks[3].id}`);
    expect(later.map((e) => e.series.split_from)).toEqual([s.id, s.id, s.id]);
    const earlier = await listed(`series=${s.id}`);
    expect(earlier.map((e) => e.series.split_from)).toEqual([null, null, null]);
  });
});
