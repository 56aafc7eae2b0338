/**
 * The archive with recurring series (contract §7.8): each occurrence an event of its own among the
 * single events — ordering, paging, `total`, every filter, search, `include`, `per_page` as for any
 * event — in one D1 round trip, the same from the stored renderings as by the full path.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, roundTrips } from "../support/api";
import { createEvent, listed, WINDOW } from "./support";

const OFF = { ...env, READ_CACHE: "off" };

/** A weekly series of four in Hall A tagged jazz, and two single events between its weeks. */
async function calendar() {
  const s = await createEvent({
    title: "Jazz night",
    start_date: "2027-03-02 19:00:00",
    end_date: "2027-03-02 21:00:00",
    venue: { venue: "Hall A" },
    tags: "jazz",
    categories: ["Music"],
    organizer: [{ organizer: "Ann" }],
    featured: true,
    recurrence: ["RRULE:FREQ=WEEKLY;COUNT=4"],
  });
  const single = await createEvent({
    title: "Film",
    start_date: "2027-03-10 18:00:00",
    end_date: "2027-03-10 20:00:00",
  });
  const other = await createEvent({
    title: "Talk",
    start_date: "2027-03-16 19:00:00",
    end_date: "2027-03-16 20:00:00",
  });
  return { s, single, other };
}

describe("GET /events with recurring series", () => {
  it("orders occurrences and single events by start (then post date, id), pages them and counts them", async () => {
    await calendar();
    const all = await listed();
    expect(all.map((e) => [e.title, e.start_date])).toEqual([
      ["Jazz night", "2027-03-02 19:00:00"],
      ["Jazz night", "2027-03-09 19:00:00"],
      ["Film", "2027-03-10 18:00:00"],
      // The same start and post date: by id (the occurrence's is older).
      ["Jazz night", "2027-03-16 19:00:00"],
      ["Talk", "2027-03-16 19:00:00"],
      ["Jazz night", "2027-03-23 19:00:00"],
    ]);
    const seen: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await api(
        `${NS}/events?${WINDOW}&per_page=2&page=${page}`.replace("&per_page=50", ""),
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.total).toBe(6);
      expect(res.body.total_pages).toBe(3);
      expect(res.headers.get("x-wp-total")).toBe("6");
      seen.push(...res.body.events.map((e: any) => e.id));
    }
    expect(seen).toEqual(all.map((e) => e.id));
    const past = await api(`${NS}/events?${WINDOW}&per_page=2&page=4`.replace("&per_page=50", ""));
    expect(past.status).toBe(404);
  });

  it("applies every filter to an occurrence as to its series; dates, include and series to its own", async () => {
    const { s, single } = await calendar();
    const ids = (await listed()).map((e) => e.id);
    const titles = async (q: string) => (await listed(q)).map((e) => e.title);
    const jazz = ["Jazz night", "Jazz night", "Jazz night", "Jazz night"];
    expect(await titles("tags=jazz")).toEqual(jazz);
    expect(await titles("categories=music")).toEqual(jazz);
    expect(await titles(`venue=${s.venue.id}`)).toEqual(jazz);
    expect(await titles(`organizer=${s.organizer[0].id}`)).toEqual(jazz);
    expect(await titles("featured=1")).toEqual(jazz);
    expect(await titles("search=jazz")).toEqual(jazz);
    expect(await titles("search=-jazz")).toEqual(["Film", "Talk"]);
    // Conditions on the series' id (terms, organizers, indexed words) with ones on its row.
    expect(await titles("search=jazz&featured=1")).toEqual(jazz);
    expect(await titles("search=jazz&featured=0")).toEqual([]);
    expect(await titles("search=ni")).toEqual(jazz);
    expect(await titles("search=night -ta")).toEqual(jazz);
    expect(await titles("search=jazz -film")).toEqual(jazz);
    expect(await titles("categories=music&search=-jazz")).toEqual([]);
    expect(await titles(`tags=jazz&venue=${s.venue.id}`)).toEqual(jazz);
    expect(await titles(`organizer=${s.organizer[0].id}&featured=0`)).toEqual([]);
    expect(await titles("starts_after=2027-03-12")).toEqual(["Jazz night", "Talk", "Jazz night"]);
    expect(
      (await listed(`series=${s.id}&ends_before=2027-03-10`)).map((e) => e.start_date),
    ).toEqual(["2027-03-02 19:00:00", "2027-03-09 19:00:00"]);
    // include lists what it names, by post date then id, whatever the dates.
    const include = await listed(`include=${ids[3]},${single.id},${ids[1]}`);
    expect(include.map((e) => e.id)).toEqual([ids[1], ids[3], single.id].sort((a, b) => a - b));
    expect((await listed("per_page=1")).map((e) => e.id)).toEqual([ids[0]]);
  });

  it("costs one D1 round trip, answers as the full path, and a single event has no series key", async () => {
    await calendar();
    for (const q of ["", "tags=jazz", "search=night&per_page=3", "page=2&per_page=3"]) {
      const path = `${NS}/events?${WINDOW}${q ? `&${q}` : ""}`;
      const miss = await api(path);
      expect(roundTrips(miss), q).toBe(1);
      const again = await api(`${path}&_=1`);
      expect(again.text).toBe(miss.text);
      const full = await api(path, {}, OFF);
      expect(full.text, q).toBe(miss.text);
      const admin = await api(path, { headers: ADMIN });
      expect(admin.body.events).toEqual(miss.body.events);
    }
    const film = (await listed()).find((e) => e.title === "Film");
    expect(Object.keys(film)).not.toContain("series");
    expect(film.url).toBe("http://calendar.test/event/film/");
  });

  it("answers a single GET of an occurrence in one round trip, as the full path", async () => {
    await calendar();
    const third = (await listed())[4];
    const res = await api(`${NS}/events/${third.id}`);
    expect(res.status).toBe(200);
    expect(roundTrips(res)).toBe(1);
    expect(res.text).toBe((await api(`${NS}/events/${third.id}`, {}, OFF)).text);
    expect(res.body.json_ld).toMatchObject({
      "@type": "Event",
      startDate: "2027-03-16T19:00:00Z",
      url: third.url,
    });
    expect(res.body.json_ld.eventSchedule).toBeUndefined();
  });

  it("gives the series' own JSON-LD its schedule (schema.org Schedule)", async () => {
    const { s } = await calendar();
    const res = await api(`${NS}/events/${s.id}`);
    expect(res.body.json_ld.eventSchedule).toEqual({
      "@type": "Schedule",
      repeatFrequency: "P1W",
      startDate: "2027-03-02",
      repeatCount: 4,
      startTime: "19:00:00",
      endTime: "21:00:00",
      duration: "PT2H",
      scheduleTimezone: "UTC",
    });
    const monthly = await createEvent({
      title: "Board",
      start_date: "2027-01-29 17:00:00",
      end_date: "2027-01-29 18:00:00",
      timezone: "Europe/Berlin",
      recurrence: [
        "RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20271231T230000Z",
        "EXDATE;TZID=Europe/Berlin:20270430T170000",
      ],
    });
    expect(monthly.id).toBeGreaterThan(0);
    const board = await api(`${NS}/events/${monthly.id}`);
    expect(board.body.json_ld.eventSchedule).toMatchObject({
      repeatFrequency: "P1M",
      byDay: ["-1FR"],
      // UNTIL is 2028-01-01 00:00 in Berlin: the last Friday at 17:00 it allows is in 2027.
      endDate: "2027-12-31",
      exceptDate: ["2027-04-30T17:00:00"],
      scheduleTimezone: "Europe/Berlin",
    });
  });
});
