/**
 * Recurring series on the running service (contract §7.8), as the README's worked example does
 * them: a weekly meetup with one week moved and one cancelled, read anonymously by list, by
 * occurrence id and in the iCalendar feed once `CONTENT_VERSION_TTL_MS` has passed; the Cron
 * Trigger, which `npm start` runs on request (`/cdn-cgi/handler/scheduled`), leaves every answer
 * as it was. Then, on the same calendar, what no horizon means to a reader: a festival in 2029, an
 * endless choir read in 2031 (one more D1 round trip; the feed's instants, as ical.js expands
 * them, are the JSON's), one series' instances by window and page, and the series unexpanded.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import {
  ADMIN,
  type Answer,
  CONTENT_VERSION_TTL_MS,
  expectEnvelope,
  get,
  NS,
  ORIGIN,
  send,
  show,
  sleep,
  uniqueWord,
} from "./support/http";
import { MARGIN_MS, unfolded } from "./support/read-after-write";

const WORD = uniqueWord("e2eseries");
/** Long enough for every isolate's remembered content version to expire. */
const settle = () => sleep(CONTENT_VERSION_TTL_MS + MARGIN_MS);
/** The host name in the `{id}@{host}` UIDs of the service under test. */
const HOST = new URL(ORIGIN).hostname;
/** The meetup of the first test, for the unexpanded view of the calendar (README: the same calendar). */
const meetup: { series?: number; moved?: number } = {};

describe("a weekly meetup, one week moved and one cancelled (README)", () => {
  it("lists, reads and feeds the five meetings anonymously; the Cron Trigger changes nothing", async () => {
    const created = await send("POST", `${NS}/events`, {
      auth: ADMIN,
      json: {
        title: `${WORD} meetup`,
        start_date: "2027-03-02 19:00:00",
        end_date: "2027-03-02 21:00:00",
        timezone: "Europe/Berlin",
        venue: { venue: `${WORD} Hall A` },
        recurrence: ["RRULE:FREQ=WEEKLY;COUNT=6"],
      },
    });
    expect(created.status, show(created)).toBe(201);
    const series = created.body.id as number;
    const list = `${NS}/events?series=${series}&start_date=2027-03-01`;
    await settle();
    const weeks = (await get(list)).body.events as Array<{ id: number }>;
    expect(weeks.map((e) => e.id)).toHaveLength(6);

    const moved = await send("PATCH", `${NS}/events/${weeks[2].id}`, {
      auth: ADMIN,
      json: {
        start_date: "2027-03-18 18:00:00",
        end_date: "2027-03-18 20:00:00",
        venue: { venue: `${WORD} Hall B` },
      },
    });
    expect(moved.status, show(moved)).toBe(200);
    const cancelled = await send("DELETE", `${NS}/events/${weeks[4].id}`, { auth: ADMIN });
    expect(cancelled.status, show(cancelled)).toBe(200);
    await settle();

    const read = async () => {
      const now = await get(list);
      expect(now.status, show(now)).toBe(200);
      return now;
    };
    const after = await read();
    expect(
      after.body.events.map((e: any) => [e.id, e.start_date, e.venue.venue.replace(WORD, "")]),
    ).toEqual([
      [weeks[0].id, "2027-03-02 19:00:00", " Hall A"],
      [weeks[1].id, "2027-03-09 19:00:00", " Hall A"],
      [weeks[2].id, "2027-03-18 18:00:00", " Hall B"],
      [weeks[3].id, "2027-03-23 19:00:00", " Hall A"],
      [weeks[5].id, "2027-04-06 19:00:00", " Hall A"],
    ]);
    expect(after.body.events[2].series).toEqual({
      id: series,
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=6", "EXDATE;TZID=Europe/Berlin:20270330T190000"],
      occurrence_start: "2027-03-16 19:00:00",
      original_start: "2027-03-16T19:00:00+01:00",
      timezone: "Europe/Berlin",
      uid: `${series}@${HOST}`,
      split_from: null,
      cancelled: ["2027-03-30T19:00:00+02:00"],
    });
    Object.assign(meetup, { series, moved: weeks[2].id });
    expect((await get(`${NS}/events/${weeks[2].id}`)).body.start_date).toBe("2027-03-18 18:00:00");
    expect((await get(`${NS}/events/${weeks[4].id}`)).status).toBe(404);

    const feed = unfolded(await get(`${NS}/events.ics?series=${series}&start_date=2027-03-01`));
    expect(feed).toContain("DTSTART;TZID=Europe/Berlin:20270302T190000\r\n");
    expect(feed).toContain("RRULE:FREQ=WEEKLY;COUNT=6\r\n");
    expect(feed).toContain("EXDATE;TZID=Europe/Berlin:20270330T190000\r\n");
    expect(feed).toContain("RECURRENCE-ID;TZID=Europe/Berlin:20270316T190000\r\n");

    // The nightly Cron Trigger, on request: it runs, and a finished series is left as it was.
    const cron = await fetch(`${ORIGIN}/cdn-cgi/handler/scheduled?cron=17+3+*+*+*`);
    expect(cron.status).toBe(200);
    await settle();
    expect((await read()).text).toBe(after.text);
  });
});

/** Creates an event as the administrator; its id. */
async function create(json: Record<string, unknown>): Promise<number> {
  const created = await send("POST", `${NS}/events`, { auth: ADMIN, json });
  expect(created.status, show(created)).toBe(201);
  return created.body.id as number;
}

/** D1 round trips of an answer, as `Server-Timing` reports them. */
const roundTrips = (answer: Answer) =>
  Number(/d1;desc="(\d+) round trips"/.exec(answer.headers.get("server-timing") ?? "")?.[1]);

/** The UTC starts (`Y-m-d H:i:s`) ical.js expands the feed's VEVENT `uid` to, in [from, to). */
function feedStarts(ics: string, uid: string, from: string, to: string): string[] {
  const vevent = new ICAL.Component(ICAL.parse(ics))
    .getAllSubcomponents("vevent")
    .find((v) => v.getFirstPropertyValue("uid") === uid);
  expect(vevent, `VEVENT ${uid}`).toBeDefined();
  const starts: string[] = [];
  const it = new ICAL.Event(vevent!).iterator();
  for (let t = it.next(); t; t = it.next()) {
    const utc = t.convertToZone(ICAL.Timezone.utcTimezone).toString().replace("T", " ");
    const at = utc.slice(0, 19);
    if (at >= to) break;
    if (at >= from) starts.push(at);
  }
  return starts;
}

describe("no horizon a reader sees, and series as series (README, on the same calendar)", () => {
  const ids = { festival: 0, choir: 0 };
  const IN_2031 = "start_date=2031-03-20&end_date=2031-04-10";

  it("a festival starting in 2029 is three events, each with its original start", async () => {
    ids.festival = await create({
      title: `${WORD} festival`,
      start_date: "2029-07-06 10:00:00",
      end_date: "2029-07-06 23:00:00",
      timezone: "Europe/Berlin",
      venue: { venue: `${WORD} Park` },
      recurrence: ["RRULE:FREQ=DAILY;COUNT=3"],
    });
    await settle();
    const res = await get(
      `${NS}/events?series=${ids.festival}&start_date=2029-01-01&end_date=2029-12-31`,
    );
    expect(res.status, show(res)).toBe(200);
    expect(
      res.body.events.map((e: any) => [e.start_date, e.utc_start_date, e.series.original_start]),
    ).toEqual([
      ["2029-07-06 10:00:00", "2029-07-06 08:00:00", "2029-07-06T10:00:00+02:00"],
      ["2029-07-07 10:00:00", "2029-07-07 08:00:00", "2029-07-07T10:00:00+02:00"],
      ["2029-07-08 10:00:00", "2029-07-08 08:00:00", "2029-07-08T10:00:00+02:00"],
    ]);
    expect(res.body.events[0].id).toBe(ids.festival);
  });

  it("an endless choir read in 2031: one more D1 round trip, ids that answer, the feed's instants", async () => {
    ids.choir = await create({
      title: `${WORD} choir`,
      start_date: "2027-03-04 19:30:00",
      end_date: "2027-03-04 21:00:00",
      timezone: "Europe/Berlin",
      venue: { venue: `${WORD} Hall A` },
      recurrence: ["RRULE:FREQ=WEEKLY"],
    });
    await settle();
    // Inside the two years stored: one round trip (a URL read for the first time: no cache).
    const stored = await get(
      `${NS}/events?series=${ids.choir}&start_date=2027-03-20&end_date=2027-04-10`,
    );
    expect(stored.body.events.map((e: any) => e.start_date)).toEqual([
      "2027-03-25 19:30:00",
      "2027-04-01 19:30:00",
      "2027-04-08 19:30:00",
    ]);
    expect(roundTrips(stored)).toBe(1);
    // 2031, past them: computed on demand, one more.
    const late = await get(`${NS}/events?series=${ids.choir}&${IN_2031}`);
    expect(late.status, show(late)).toBe(200);
    expect(roundTrips(late)).toBe(2);
    const events = late.body.events as any[];
    expect(events.map((e) => [e.start_date, e.utc_start_date, e.series.original_start])).toEqual([
      ["2031-03-20 19:30:00", "2031-03-20 18:30:00", "2031-03-20T19:30:00+01:00"],
      ["2031-03-27 19:30:00", "2031-03-27 18:30:00", "2031-03-27T19:30:00+01:00"],
      ["2031-04-03 19:30:00", "2031-04-03 17:30:00", "2031-04-03T19:30:00+02:00"],
      ["2031-04-10 19:30:00", "2031-04-10 17:30:00", "2031-04-10T19:30:00+02:00"],
    ]);
    expect(late.body.total).toBe(4);
    expect(events[0].series).toMatchObject({
      id: ids.choir,
      recurrence: ["RRULE:FREQ=WEEKLY"],
      uid: `${ids.choir}@${HOST}`,
      cancelled: [],
    });
    // Their ids: exact in JSON, and each answers GET /events/{id} as the list shows it.
    for (const e of events) expect(Number.isSafeInteger(e.id) && e.id > 2 ** 52).toBe(true);
    const one = await get(`${NS}/events/${events[2].id}`);
    expect(one.status, show(one)).toBe(200);
    expect([one.body.id, one.body.start_date, one.body.series]).toEqual([
      events[2].id,
      events[2].start_date,
      events[2].series,
    ]);
    // The feed of the same window: ical.js expands the series to the JSON's instants.
    const ics = await get(`${NS}/events.ics?series=${ids.choir}&${IN_2031}`);
    expect(ics.status, show(ics)).toBe(200);
    expect(
      feedStarts(ics.text, `${ids.choir}@${HOST}`, "2031-03-20 00:00:00", "2031-04-11 00:00:00"),
    ).toEqual(events.map((e) => e.utc_start_date));
  });

  it("one series' instances by window and page: by the series' id or any of its events'", async () => {
    const all = (await get(`${NS}/events?series=${ids.choir}&${IN_2031}`)).body.events as any[];
    const want = all.map((e) => e.id);
    const first = await get(`${NS}/events/${all[2].id}/instances?${IN_2031}&per_page=2`);
    expect(first.status, show(first)).toBe(200);
    expect(first.body.events.map((e: any) => e.id)).toEqual(want.slice(0, 2));
    expect([first.body.total, first.body.total_pages]).toEqual([4, 2]);
    expect(first.headers.get("x-wp-total")).toBe("4");
    const next = new URL(first.body.next_rest_url);
    expect(next.pathname).toBe(`${NS}/events/${all[2].id}/instances`);
    const second = await get(`${next.pathname}${next.search}`);
    expect(second.body.events.map((e: any) => e.id)).toEqual(want.slice(2));
    // By the series' own id and by a stored occurrence's (2027): the same page.
    const stored = (await get(`${NS}/events?series=${ids.choir}&start_date=2027-03-20`)).body
      .events[0].id;
    for (const id of [ids.choir, stored]) {
      const page = await get(`${NS}/events/${id}/instances?${IN_2031}&per_page=2&page=2`);
      expect(page.body.events.map((e: any) => e.id)).toEqual(want.slice(2));
    }
    // A day the rule does not give has no instances: not found.
    const none = await get(`${NS}/events/${all[0].id + 1}/instances?${IN_2031}`);
    expectEnvelope(none);
    expect([none.status, none.body.code]).toEqual([404, "rest-event-not-found"]);
  });

  it("expand=false lists each series once, with its changed occurrence and cancelled dates", async () => {
    expect(meetup.series, "the meetup of the first test").toBeDefined();
    const window = `search=${WORD}&start_date=2027-03-01&end_date=2031-12-31`;
    const res = await get(`${NS}/events?expand=false&${window}`);
    expect(res.status, show(res)).toBe(200);
    expect(
      res.body.events.map((e: any) => [e.id, e.title.replace(WORD, ""), e.start_date]),
    ).toEqual([
      [meetup.series, " meetup", "2027-03-02 19:00:00"],
      [ids.choir, " choir", "2027-03-04 19:30:00"],
      [meetup.moved, " meetup", "2027-03-18 18:00:00"],
      [ids.festival, " festival", "2029-07-06 10:00:00"],
    ]);
    expect(res.body.total).toBe(4);
    expect(res.body.events[0].series.cancelled).toEqual(["2027-03-30T19:00:00+02:00"]);
    expect(res.body.events[1].series.recurrence).toEqual(["RRULE:FREQ=WEEKLY"]);
    // Expanded (the default), the same filters list every occurrence of the three series.
    const count = async (query: string) => (await get(`${NS}/events?${query}`)).body.total;
    const each = await Promise.all(
      [meetup.series, ids.choir, ids.festival].map((id) => count(`series=${id}&${window}`)),
    );
    expect(each.slice(0, 1).concat(each.slice(2))).toEqual([5, 3]);
    expect(await count(window)).toBe(each[0] + each[1] + each[2]);
  });
});
