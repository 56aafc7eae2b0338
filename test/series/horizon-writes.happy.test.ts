/**
 * Writes of occurrences past the stored horizon, by the ids they are listed with (contract §7.8):
 * an override, a cancelled week and a split in 2031 work as they do two weeks ahead — the series'
 * occurrences up to the one named are stored first, with the ids they were listed with — and need
 * the series' rights; what anonymous readers may not see of a series they may not see of its
 * computed occurrences either.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { seedUser } from "../support/factories";
import { change } from "./support";

const IN_2031 = "start_date=2031-03-01&end_date=2031-03-31&per_page=50";

/** A weekly endless meetup from 2 March 2027 (Tuesdays 19:00, Berlin) written by `headers`. */
async function meetup(headers: Record<string, string> = ADMIN, more = {}) {
  const res = await api(`${NS}/events`, {
    headers,
    json: {
      title: "Meetup",
      description: "Bring a friend.",
      start_date: "2027-03-02 19:00:00",
      end_date: "2027-03-02 21:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY"],
      ...more,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The 2031 March weeks as `headers` sees them: id, start, title. */
async function march(query = "", headers: Record<string, string> = {}) {
  const res = await api(`${NS}/events?${IN_2031}${query}`, { headers });
  expect(res.status, res.text).toBe(200);
  return res.body.events.map((e: any) => [e.id, e.start_date, e.title]);
}

const storedCount = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM event_occurrences").first<{ n: number }>())!.n;

describe("writes of occurrences past the stored horizon", () => {
  it("an override, a cancelled week and a split, by the ids the list gave", async () => {
    const s = await meetup();
    const weeks = await march();
    expect(weeks.map((w: any) => w[1])).toEqual([
      "2031-03-04 19:00:00",
      "2031-03-11 19:00:00",
      "2031-03-18 19:00:00",
      "2031-03-25 19:00:00",
    ]);
    const before = await storedCount();
    // Week 2 moves to Thursday: an override with the id it was listed with.
    const moved = await change(weeks[1][0], {
      title: "Guest night",
      start_date: "2031-03-13 18:00:00",
      end_date: "2031-03-13 20:00:00",
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.id).toBe(weeks[1][0]);
    expect(moved.body.series.occurrence_start).toBe("2031-03-11 19:00:00");
    // The weeks before it were stored with it (every one up to March 2031).
    expect(await storedCount()).toBeGreaterThan(before + 100);
    // Week 3 is cancelled: an EXDATE; its id is gone for good.
    const gone = await change(weeks[2][0]);
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body.deleted).toBe(true);
    expect((await api(`${NS}/events/${weeks[2][0]}`)).status).toBe(404);
    expect(await march()).toEqual([
      weeks[0],
      [weeks[1][0], "2031-03-13 18:00:00", "Guest night"],
      weeks[3],
    ]);
    const series = await api(`${NS}/events/${s.id}`);
    expect(series.body.series.recurrence).toEqual([
      "RRULE:FREQ=WEEKLY",
      "EXDATE;TZID=Europe/Berlin:20310318T190000",
    ]);
    // From week 4 on, in Hall B: a new series (a new id: a computed id names a day of its series).
    const split = await change(weeks[3][0], { venue: { venue: "Hall B" } }, "?scope=following");
    expect(split.status, split.text).toBe(200);
    expect(split.body.id).not.toBe(weeks[3][0]);
    expect(split.body.series.id).toBe(split.body.id);
    expect(split.body.start_date).toBe("2031-03-25 19:00:00");
    expect(split.body.venue.venue).toBe("Hall B");
    expect((await api(`${NS}/events/${weeks[3][0]}`)).status).toBe(404);
    const later = await api(`${NS}/events?start_date=2031-04-01&end_date=2031-04-30&per_page=50`);
    expect(later.body.events.map((e: any) => [e.series.id, e.venue.venue])).toEqual(
      Array(5).fill([split.body.id, "Hall B"]),
    );
    // The old series ends before the split.
    const old = await api(`${NS}/events/${s.id}`);
    expect(old.body.series.recurrence[0]).toBe("RRULE:FREQ=WEEKLY;UNTIL=20310325T175959Z");
  });

  it("needs the series' rights: another author gets 403 and nothing is stored", async () => {
    const author = await seedUser("author");
    const other = await seedUser("author", "other-author");
    await meetup(author.headers, { status: "publish" });
    const weeks = await march();
    const before = await storedCount();
    for (const [method, json] of [
      ["PATCH", { title: "Mine" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await api(`${NS}/events/${weeks[0][0]}`, {
        method,
        headers: other.headers,
        json,
      });
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe("rest_forbidden");
    }
    expect(await storedCount()).toBe(before);
    const own = await api(`${NS}/events/${weeks[0][0]}`, {
      method: "PATCH",
      headers: author.headers,
      json: { title: "Mine" },
    });
    expect(own.status, own.text).toBe(200);
  });

  it("anonymous readers see no computed occurrence of a draft or a private series, and a protected one's blanked", async () => {
    await meetup(ADMIN, { title: "Draft club", status: "draft" });
    await meetup(ADMIN, { title: "Private club", status: "private" });
    const locked = await meetup(ADMIN, { title: "Locked club", password: "letmein" });
    const anonymous = await api(`${NS}/events?${IN_2031}`);
    expect(anonymous.body.events.map((e: any) => e.title)).toEqual(Array(4).fill("Locked club"));
    expect(anonymous.body.events.every((e: any) => e.description === "")).toBe(true);
    const first = anonymous.body.events[0].id;
    expect((await api(`${NS}/events/${first}`)).status).toBe(403);
    const opened = await api(`${NS}/events/${first}?password=letmein`);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.description).toContain("Bring a friend.");
    expect(opened.body.series.id).toBe(locked.id);
    const admin = await api(`${NS}/events?${IN_2031}`, { headers: ADMIN });
    expect(new Set(admin.body.events.map((e: any) => e.title))).toEqual(
      new Set(["Draft club", "Private club", "Locked club"]),
    );
    // The draft's computed occurrence by id: not for anonymous readers.
    const draftWeek = admin.body.events.find((e: any) => e.title === "Draft club").id;
    const draft = await api(`${NS}/events/${draftWeek}`);
    expect(draft.status).toBe(403);
    expect(draft.body.code).toBe("event-not-accessible");
  });
});
