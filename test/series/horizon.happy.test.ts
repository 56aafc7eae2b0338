/**
 * No horizon a reader can see (contract §7.8): a series may start whenever an event may — years
 * after the two years that are stored ahead — on create and on an update that adds or moves its
 * rule, and lists its occurrences like any other series.
 */
import { describe, expect, it } from "vitest";
import { api, NS, roundTrips } from "../support/api";
import { change, createEvent } from "./support";

const LATE = "start_date=2029-01-01&end_date=2033-12-31&per_page=50";

/** The occurrences of a series in a window, as the archive lists them anonymously. */
async function occurrences(id: number, window = LATE) {
  const res = await api(`${NS}/events?${window}&series=${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.events as any[];
}

describe("a series starting past the stored horizon", () => {
  it("is created: a weekly COUNT=3 from 4 June 2029 is three events", async () => {
    const s = await createEvent({
      start_date: "2029-06-04 18:00:00",
      end_date: "2029-06-04 19:00:00",
      timezone: "America/New_York",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"],
    });
    expect(s.series.recurrence).toEqual(["RRULE:FREQ=WEEKLY;COUNT=3"]);
    const events = await occurrences(s.id);
    expect(events.map((e) => [e.start_date, e.utc_start_date])).toEqual([
      ["2029-06-04 18:00:00", "2029-06-04 22:00:00"],
      ["2029-06-11 18:00:00", "2029-06-11 22:00:00"],
      ["2029-06-18 18:00:00", "2029-06-18 22:00:00"],
    ]);
    expect(events[0].id).toBe(s.id);
  });

  it("is made by an update of a 2029 event, and moved further by another", async () => {
    const single = await createEvent({
      start_date: "2029-06-04 18:00:00",
      end_date: "2029-06-04 19:00:00",
    });
    const made = await change(single.id, { recurrence: ["RRULE:FREQ=DAILY;COUNT=2"] });
    expect(made.status, made.text).toBe(200);
    expect((await occurrences(single.id)).map((e) => e.start_date)).toEqual([
      "2029-06-04 18:00:00",
      "2029-06-05 18:00:00",
    ]);
    const moved = await change(single.id, {
      start_date: "2032-02-03 18:00:00",
      end_date: "2032-02-03 19:00:00",
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await occurrences(single.id)).map((e) => e.start_date)).toEqual([
      "2032-02-03 18:00:00",
      "2032-02-04 18:00:00",
    ]);
  });

  it("an endless series from 2031 lists its first two years from what is stored: one round trip", async () => {
    const s = await createEvent({
      start_date: "2031-01-01 08:00:00",
      end_date: "2031-01-01 09:00:00",
      recurrence: ["RRULE:FREQ=DAILY"],
    });
    const res = await api(`${NS}/events?start_date=2032-12-01&end_date=2032-12-31&series=${s.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(31);
    expect(roundTrips(res)).toBe(1);
  });
});
