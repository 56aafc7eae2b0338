/**
 * Series read unexpanded (contract §7.8; Google Calendar's `singleEvents=false`): `GET
 * /events?expand=false` lists each series once — its first event, with its lines and cancelled
 * dates — each override once and every single event, where the first of their events that match
 * shows; paged, counted and filtered like `/events`, the same by the full path and from the stored
 * renderings.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { change, createEvent } from "./support";

const IN_2031 = "start_date=2031-03-01&end_date=2031-05-31";

/** A weekly endless meetup (from 2027), a monthly board meeting (from 2031) and a single event. */
async function calendar() {
  const meetup = await createEvent({
    title: "Meetup",
    start_date: "2027-03-02 19:00:00",
    end_date: "2027-03-02 21:00:00",
    timezone: "Europe/Berlin",
    categories: ["Social"],
    recurrence: ["RRULE:FREQ=WEEKLY"],
  });
  const board = await createEvent({
    title: "Board",
    start_date: "2031-03-20 17:00:00",
    end_date: "2031-03-20 18:00:00",
    recurrence: ["RRULE:FREQ=MONTHLY;COUNT=6"],
  });
  const film = await createEvent({
    title: "Film",
    start_date: "2031-03-10 18:00:00",
    end_date: "2031-03-10 20:00:00",
  });
  return { meetup, board, film };
}

const list = async (query: string, headers = {}) => {
  const res = await api(`${NS}/events?${query}`, { headers });
  expect(res.status, res.text).toBe(200);
  return res;
};

describe("GET /events?expand=false", () => {
  it("lists each series once, with its overrides and cancelled dates, where its first listed event is", async () => {
    const { meetup, board, film } = await calendar();
    const expanded = await list(`${IN_2031}&per_page=50`);
    const boardEvents = expanded.body.events.filter((e: any) => e.title === "Board");
    // One board meeting moved (an override), one cancelled.
    const moved = await change(boardEvents[1].id, {
      title: "Board (moved)",
      start_date: "2031-04-21 17:00:00",
      end_date: "2031-04-21 18:00:00",
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await change(boardEvents[2].id)).status).toBe(200);
    for (const headers of [{}, ADMIN]) {
      const res = await list(`${IN_2031}&expand=false`, headers);
      expect(res.body.events.map((e: any) => [e.id, e.title, e.start_date])).toEqual([
        [meetup.id, "Meetup", "2027-03-02 19:00:00"],
        [film.id, "Film", "2031-03-10 18:00:00"],
        [board.id, "Board", "2031-03-20 17:00:00"],
        [boardEvents[1].id, "Board (moved)", "2031-04-21 17:00:00"],
      ]);
      expect(res.body.total).toBe(4);
      const [m, , b, o] = res.body.events;
      expect(m.series.recurrence).toEqual(["RRULE:FREQ=WEEKLY"]);
      expect(b.series.cancelled).toEqual(["2031-05-20T17:00:00+00:00"]);
      expect(o.series).toMatchObject({ id: board.id, original_start: "2031-04-20T17:00:00+00:00" });
      expect(res.body.rest_url).toContain("expand=0");
    }
  });

  it("pages and filters like /events", async () => {
    const { meetup, film } = await calendar();
    const pages: number[] = [];
    for (let page = 1; page <= 2; page++) {
      const res = await list(`${IN_2031}&expand=false&per_page=2&page=${page}`);
      expect(res.body.total).toBe(3);
      expect(res.body.total_pages).toBe(2);
      pages.push(...res.body.events.map((e: any) => e.id));
    }
    const whole = await list(`${IN_2031}&expand=false`);
    expect(pages).toEqual(whole.body.events.map((e: any) => e.id));
    const social = await list(`${IN_2031}&expand=false&categories=social`);
    expect(social.body.events.map((e: any) => e.id)).toEqual([meetup.id]);
    const past = await api(`${NS}/events?${IN_2031}&expand=false&per_page=2&page=3`);
    expect(past.status).toBe(404);
    expect((await list(`${IN_2031}&expand=true`)).body.total).toBeGreaterThan(10);
    expect(
      (await list(`search=film&${IN_2031}&expand=0`)).body.events.map((e: any) => e.id),
    ).toEqual([film.id]);
    const bad = await api(`${NS}/events?expand=maybe`);
    expect([bad.status, Object.keys(bad.body.data.params)]).toEqual([400, ["expand"]]);
  });
});
