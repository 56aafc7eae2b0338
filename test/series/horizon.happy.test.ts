/**
 * No horizon a reader can see (contract §7.8): a series may start whenever an event may — years
 * after the two years that are stored ahead — on create and on an update that adds or moves its
 * rule, and lists its occurrences like any other series.
 */

import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import ICAL from "ical.js";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { feed } from "../ical/support";
import { ADMIN, api, NS, roundTrips } from "../support/api";
import { change, createEvent } from "./support";

/** Runs the scheduled handler as the platform would at `at`. */
async function cron(at: DateTime) {
  await worker.scheduled(
    createScheduledController({ scheduledTime: at.toMillis(), cron: "17 3 * * *" }),
    env as never,
  );
}

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

describe("occurrences past the stored horizon", () => {
  /** A weekly endless meetup, Mondays 18:00 in New York from 1 March 2027, and a single event in 2031. */
  async function calendar() {
    const s = await createEvent({
      title: "Standup",
      start_date: "2027-03-01 18:00:00",
      end_date: "2027-03-01 18:30:00",
      timezone: "America/New_York",
      categories: ["Work"],
      recurrence: ["RRULE:FREQ=WEEKLY"],
    });
    const single = await createEvent({
      title: "Film",
      start_date: "2031-03-04 12:00:00",
      end_date: "2031-03-04 14:00:00",
    });
    return { s, single };
  }
  const IN_2031 = "start_date=2031-03-01&end_date=2031-03-31";

  it("are listed for a window in 2031 among single events, paged and counted, in two round trips", async () => {
    const { s, single } = await calendar();
    const res = await api(`${NS}/events?${IN_2031}&per_page=50`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.events.map((e: any) => [e.title, e.start_date, e.utc_start_date])).toEqual([
      ["Standup", "2031-03-03 18:00:00", "2031-03-03 23:00:00"],
      ["Film", "2031-03-04 12:00:00", "2031-03-04 12:00:00"],
      ["Standup", "2031-03-10 18:00:00", "2031-03-10 22:00:00"],
      ["Standup", "2031-03-17 18:00:00", "2031-03-17 22:00:00"],
      ["Standup", "2031-03-24 18:00:00", "2031-03-24 22:00:00"],
      ["Standup", "2031-03-31 18:00:00", "2031-03-31 22:00:00"],
    ]);
    expect(res.body.total).toBe(6);
    expect(roundTrips(res)).toBe(2);
    const standups = res.body.events.filter((e: any) => e.title === "Standup");
    for (const e of standups) {
      expect(e.series.id).toBe(s.id);
      expect(e.series.occurrence_start).toBe(e.start_date);
      expect(e.url).toBe(`http://calendar.test/event/standup/${e.start_date.slice(0, 10)}/`);
      expect(e.categories.map((c: any) => c.name)).toEqual(["Work"]);
      expect(Number.isSafeInteger(e.id)).toBe(true);
    }
    expect(new Set(standups.map((e: any) => e.id)).size).toBe(5);
    // Pages of two: the same items in the same order.
    const paged: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const p = await api(`${NS}/events?${IN_2031}&per_page=2&page=${page}`);
      expect(p.status, p.text).toBe(200);
      expect(p.body.total).toBe(6);
      paged.push(...p.body.events.map((e: any) => e.id));
    }
    expect(paged).toEqual(res.body.events.map((e: any) => e.id));
    // Filters apply as to stored occurrences.
    const work = await api(`${NS}/events?${IN_2031}&categories=work`);
    expect(work.body.total).toBe(5);
    const film = await api(`${NS}/events?${IN_2031}&search=film`);
    expect(film.body.events.map((e: any) => e.id)).toEqual([single.id]);
    // The same for an editor (the full path), and without the read cache.
    const editor = await api(`${NS}/events?${IN_2031}&per_page=50`, { headers: ADMIN });
    expect(editor.body.events.map((e: any) => e.id)).toEqual(res.body.events.map((e: any) => e.id));
  });

  it("an open-ended series read in 2035: the JSON's instants and the feed's (ical.js) agree", async () => {
    await calendar();
    const res = await api(`${NS}/events?start_date=2035-01-01&end_date=2035-12-31&per_page=50`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(53);
    const utc = res.body.events.map((e: any) => e.utc_start_date);
    expect(utc.slice(0, 2)).toEqual(["2035-01-01 23:00:00", "2035-01-08 23:00:00"]);
    expect(utc.filter((u: string) => u.endsWith("22:00:00"))).toHaveLength(34);
    // The feed of the same window holds the series, which ical.js expands to the same instants.
    const ics = await feed("?start_date=2035-01-01&end_date=2035-12-31");
    expect(ics.status).toBe(200);
    const master = new ICAL.Component(ICAL.parse(ics.text)).getAllSubcomponents("vevent")[0]!;
    const it = new ICAL.Event(master).iterator();
    const expanded: string[] = [];
    for (let t = it.next(); t && t.year <= 2035; t = it.next()) {
      const u = t.convertToZone(ICAL.Timezone.utcTimezone).toString().replace("T", " ");
      if (t.year === 2035) expanded.push(u.slice(0, 19).replace("Z", ""));
    }
    expect(expanded).toHaveLength(53);
    expect(expanded.slice(0, 50)).toEqual(utc);
  });

  it("answer GET /events/{id} by their computed id, as they will once stored (the scheduled handler)", async () => {
    const { s } = await calendar();
    const listedIds = (await api(`${NS}/events?${IN_2031}&series=${s.id}`)).body.events.map(
      (e: any) => e.id,
    );
    const id = listedIds[1];
    const before = await api(`${NS}/events/${id}`);
    expect(before.status, before.text).toBe(200);
    expect(before.body.start_date).toBe("2031-03-10 18:00:00");
    expect(before.body.series).toEqual({
      id: s.id,
      recurrence: ["RRULE:FREQ=WEEKLY"],
      occurrence_start: "2031-03-10 18:00:00",
      original_start: "2031-03-10T18:00:00-04:00",
      timezone: "America/New_York",
      uid: `${s.id}@calendar.test`,
      split_from: null,
      cancelled: [],
    });
    expect(before.body.json_ld.startDate).toBe("2031-03-10T18:00:00-04:00");
    const asAdmin = await api(`${NS}/events/${id}`, { headers: ADMIN });
    expect(asAdmin.body).toEqual(before.body);
    // A day the rule does not give, and one past the series' first day it names: not found.
    for (const other of [id + 1, id - 10_000_000]) {
      const res = await api(`${NS}/events/${other}`);
      expect(res.status, res.text).toBe(404);
      expect(res.body.code).toBe("rest-event-not-found");
    }
    // Stored by the scheduled handler run in 2029: the same answer, from storage now.
    await cron(DateTime.utc(2029, 4, 1));
    const stored = await env.DB.prepare("SELECT id FROM event_occurrences WHERE id = ?")
      .bind(id)
      .first();
    expect(stored).not.toBeNull();
    const after = await api(`${NS}/events/${id}`);
    expect(after.body).toEqual(before.body);
    expect(
      (await api(`${NS}/events?${IN_2031}&series=${s.id}`)).body.events.map((e: any) => e.id),
    ).toEqual(listedIds);
  });
});
