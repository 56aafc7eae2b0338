/**
 * Recurring series on the running service (contract §7.8), as the README's worked example does
 * them: a weekly meetup with one week moved and one cancelled, read anonymously by list, by
 * occurrence id and in the iCalendar feed once `CONTENT_VERSION_TTL_MS` has passed; and the Cron
 * Trigger, which `npm start` runs on request (`/cdn-cgi/handler/scheduled`), leaves every answer
 * as it was.
 */
import { describe, expect, it } from "vitest";
import {
  ADMIN,
  CONTENT_VERSION_TTL_MS,
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
      // Google Calendar's originalStartTime, with its offset and zone; the series' iCalendar UID;
      // its cancelled dates (contract §7.8).
      original_start: "2027-03-16T19:00:00+01:00",
      timezone: "Europe/Berlin",
      uid: `${series}@${new URL(ORIGIN).hostname}`,
      split_from: null,
      cancelled: ["2027-03-30T19:00:00+02:00"],
    });
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
