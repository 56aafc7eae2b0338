/**
 * Refused recurring series (contract §7.8): bad or unsupported lines, a start the rule does not
 * give, two occurrences on a day, more than the documented 1,000 occurrences up to the horizon —
 * each a 400 `rest_invalid_param` naming `recurrence`, with nothing written; and what only a series
 * may change, sent for one occurrence.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { change, createEvent, listed } from "./support";

const START = { start_date: "2027-03-02 19:00:00", end_date: "2027-03-02 21:00:00" };

/** Rows of the tables a write could touch. */
async function counts() {
  const row = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM event_occurrences) AS occurrences, (SELECT count(*) FROM posts) AS posts",
  ).first();
  return row;
}

async function refused(json: Record<string, unknown>) {
  const before = await counts();
  const res = await api(`${NS}/events`, {
    headers: ADMIN,
    json: { title: "X", ...START, ...json },
  });
  expect(res.status, JSON.stringify(json)).toBe(400);
  expect(res.body.code).toBe("rest_invalid_param");
  expect(Object.keys(res.body.data.params)).toEqual(["recurrence"]);
  expect(await counts()).toEqual(before);
  return res;
}

describe("recurrence refused: 400 naming recurrence, nothing written", () => {
  it("lines that are not RFC 5545 lines this service supports", async () => {
    for (const recurrence of [
      ["RRULE:FREQ=FOO"],
      ["RRULE:FREQ=HOURLY"],
      ["RRULE:FREQ=WEEKLY;BYHOUR=9"],
      ["RRULE:FREQ=WEEKLY;X-NAME=1"],
      ["RRULE:FREQ=WEEKLY;BYDAY=XX"],
      ["RRULE:FREQ=WEEKLY;COUNT=2;UNTIL=20270401T000000Z"],
      ["RRULE:FREQ=WEEKLY;COUNT=0"],
      ["RRULE:INTERVAL=2"],
      ["RRULE:FREQ=WEEKLY", "RRULE:FREQ=DAILY"],
      ["EXRULE:FREQ=WEEKLY"],
      ["RDATE;VALUE=PERIOD:20270305T190000Z/PT1H"],
      ["RDATE:20270230T190000"],
      ["RDATE;TZID=Mars/Olympus:20270305T190000"],
      ["RDATE;VALUE=DATE:20270305T190000"],
      ["DTSTART:20270302T190000"],
      ["not a line"],
      [42],
      { rule: "weekly" },
      Array.from({ length: 51 }, () => "RRULE:FREQ=WEEKLY"),
    ])
      await refused({ recurrence });
  });

  it("a start the rule does not give, an excluded start, an RDATE before it", async () => {
    // 2 March 2027 is a Tuesday.
    await refused({ recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO"] });
    await refused({ recurrence: ["RRULE:FREQ=WEEKLY", "EXDATE:20270302T190000"] });
    await refused({ recurrence: ["RRULE:FREQ=WEEKLY", "RDATE:20270301T190000"] });
  });

  it("two occurrences on one day", async () => {
    await refused({ recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3", "RDATE:20270309T080000"] });
  });

  it("more than 1,000 occurrences from the start up to the horizon (two years ahead)", async () => {
    const res = await refused({
      start_date: "2024-01-01 09:00:00",
      end_date: "2024-01-01 10:00:00",
      recurrence: ["RRULE:FREQ=DAILY"],
    });
    expect(res.body.data.params.recurrence).toContain("1000");
    // The German message says the same.
    const de = await api(`/de${NS}/events`, {
      headers: ADMIN,
      json: {
        title: "X",
        start_date: "2024-01-01 09:00:00",
        end_date: "2024-01-01 10:00:00",
        recurrence: ["RRULE:FREQ=DAILY"],
      },
    });
    expect(de.body.data.params.recurrence).toContain("Termine");
  });

  it("an update with bad lines leaves the series as it was", async () => {
    const s = await createEvent({ ...START, recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"] });
    const before = await listed();
    const res = await change(s.id, { recurrence: ["RRULE:FREQ=MINUTELY"], title: "Changed" });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(["recurrence"]);
    expect(await listed()).toEqual(before);
  });
});

describe("one occurrence", () => {
  it("may not change what is the series' own (status, author, password, slug, post dates, hide_from_listings, recurrence, uid)", async () => {
    const s = await createEvent({ ...START, recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"] });
    const [, second] = await listed();
    for (const json of [
      { status: "draft" },
      { author: 1 },
      { password: "x" },
      { slug: "other" },
      { date: "2026-01-01 10:00:00" },
      { hide_from_listings: true },
      { recurrence: ["RRULE:FREQ=DAILY;COUNT=2"] },
      { uid: "x@example.org" },
    ]) {
      const res = await change(second.id, { ...json, title: "Not me" });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(Object.keys(res.body.data.params)).toEqual(Object.keys(json));
    }
    expect((await listed()).map((e) => e.title)).toEqual(["Meetup", "Meetup", "Meetup"]);
    expect(s.id).toBe((await listed())[0].id);
  });

  it("scope is this or following", async () => {
    await createEvent({ ...START, recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"] });
    const [, second] = await listed();
    const res = await change(second.id, { title: "Y" }, "?scope=all");
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(["scope"]);
  });

  it("is split only where the rule gives it (not at an RDATE of its own)", async () => {
    await createEvent({
      ...START,
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3", "RDATE:20270304T190000"],
    });
    const events = await listed();
    expect(events[1].start_date).toBe("2027-03-04 19:00:00");
    const res = await change(events[1].id, { title: "Y" }, "?scope=following");
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(["recurrence"]);
    expect(await listed()).toEqual(events);
  });
});
