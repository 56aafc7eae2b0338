/**
 * JSON-LD `eventSchedule` of a series after its occurrences were moved, kept or cancelled (contract
 * §7.8): `exceptDate` holds the cancelled dates (`EXDATE`s) and the original starts of the moved
 * overrides (each an `Event` of its own), never those of overrides that keep their start; the stored
 * rendering of the series follows every such write, and the full path answers the same. A rule whose
 * week start decides its weeks has no `Schedule` (schema.org cannot say `WKST`).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { change, createEvent, listed } from "./support";

const OFF = { ...env, READ_CACHE: "off" };

/** The series' schedule as anonymous readers get it (stored renderings), checked against the full path. */
async function scheduleOf(id: number) {
  const cached = await api(`${NS}/events/${id}`);
  const full = await api(`${NS}/events/${id}`, {}, OFF);
  const admin = await api(`${NS}/events/${id}`, { headers: ADMIN });
  expect(cached.status).toBe(200);
  expect(cached.text).toBe(full.text);
  expect(admin.body.json_ld).toEqual(cached.body.json_ld);
  return cached.body.json_ld.eventSchedule;
}

/** Tuesdays 19:00–21:00 in Berlin, six weeks from 2 March 2027 (the README's meetup). */
const meetup = () =>
  createEvent({
    start_date: "2027-03-02 19:00:00",
    end_date: "2027-03-02 21:00:00",
    timezone: "Europe/Berlin",
    recurrence: ["RRULE:FREQ=WEEKLY;COUNT=6"],
  });

describe("exceptDate after moves and cancellations", () => {
  it("holds a moved occurrence's original start and a cancelled date, not a kept start", async () => {
    const s = await meetup();
    expect((await scheduleOf(s.id)).exceptDate).toBeUndefined();
    const weeks = await listed(`series=${s.id}`);
    // Week 2 gets a title of its own (same start), week 3 moves to Thursday 18:00, week 5 goes.
    expect((await change(weeks[1].id, { title: "Quiz night" })).status).toBe(200);
    expect(
      (
        await change(weeks[2].id, {
          start_date: "2027-03-18 18:00:00",
          end_date: "2027-03-18 20:00:00",
        })
      ).status,
    ).toBe(200);
    expect((await change(weeks[4].id)).status).toBe(200);
    const schedule = await scheduleOf(s.id);
    expect(schedule).toMatchObject({
      repeatFrequency: "P1W",
      startDate: "2027-03-02",
      repeatCount: 6,
      startTime: "19:00:00",
      scheduleTimezone: "Europe/Berlin",
      exceptDate: ["2027-03-16T19:00:00", "2027-03-30T19:00:00"],
    });
    // The moved week is an Event of its own, at its new start.
    const moved = await api(`${NS}/events/${weeks[2].id}`);
    expect(moved.body.json_ld.startDate).toBe("2027-03-18T18:00:00+01:00");
  });

  it("drops the exception when the occurrence moves back to its original start", async () => {
    const s = await meetup();
    const third = (await listed(`series=${s.id}`))[2];
    await change(third.id, { start_date: "2027-03-16 20:00:00", end_date: "2027-03-16 22:00:00" });
    expect((await scheduleOf(s.id)).exceptDate).toEqual(["2027-03-16T19:00:00"]);
    // Same wall clock, another zone: another instant, still moved.
    await change(third.id, {
      start_date: "2027-03-16 19:00:00",
      end_date: "2027-03-16 21:00:00",
      timezone: "Europe/London",
    });
    expect((await scheduleOf(s.id)).exceptDate).toEqual(["2027-03-16T19:00:00"]);
    // The original instant, written in London time: where the rule put it, no exception.
    await change(third.id, { start_date: "2027-03-16 18:00:00", end_date: "2027-03-16 20:00:00" });
    expect((await scheduleOf(s.id)).exceptDate).toBeUndefined();
  });

  it("moves a series' exceptions with it, and keeps a moved override's", async () => {
    const s = await meetup();
    const fourth = (await listed(`series=${s.id}`))[3];
    await change(fourth.id, { start_date: "2027-03-24 19:00:00", end_date: "2027-03-24 21:00:00" });
    // The whole series an hour later: the override keeps its own dates, its original start moves.
    await change(s.id, { start_date: "2027-03-02 20:00:00", end_date: "2027-03-02 22:00:00" });
    expect(await scheduleOf(s.id)).toMatchObject({
      startTime: "20:00:00",
      exceptDate: ["2027-03-23T20:00:00"],
    });
  });

  it("gives an all-day series' moved day as a date", async () => {
    const s = await createEvent({
      start_date: "2027-05-01",
      end_date: "2027-05-01",
      all_day: true,
      recurrence: ["RRULE:FREQ=DAILY;COUNT=5"],
    });
    const days = await listed(`series=${s.id}`);
    await change(days[2].id, { start_date: "2027-05-10", end_date: "2027-05-10", all_day: true });
    await change(days[3].id, { title: "Open day" });
    expect((await scheduleOf(s.id)).exceptDate).toEqual(["2027-05-03"]);
  });
});

describe("rules schema.org cannot say", () => {
  it("has no Schedule when WKST decides which weeks an INTERVAL skips", async () => {
    const s = await createEvent({
      start_date: "2027-03-07 10:00:00",
      end_date: "2027-03-07 11:00:00",
      recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO;WKST=SU;COUNT=4"],
    });
    // Weeks from Sunday: 7 and 8 March, then 21 and 22 (from Monday it would be 7, 15, 21, 29).
    expect((await listed(`series=${s.id}`)).map((e) => e.start_date.slice(0, 10))).toEqual([
      "2027-03-07",
      "2027-03-08",
      "2027-03-21",
      "2027-03-22",
    ]);
    expect(await scheduleOf(s.id)).toBeUndefined();
    // A week start that changes nothing (one weekday) is left out, and the rule said.
    const one = await createEvent({
      start_date: "2027-03-07 10:00:00",
      end_date: "2027-03-07 11:00:00",
      recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;WKST=SU;COUNT=4"],
    });
    expect(await scheduleOf(one.id)).toMatchObject({ repeatFrequency: "P2W", repeatCount: 4 });
  });
});
