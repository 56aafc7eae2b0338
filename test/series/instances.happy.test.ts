/**
 * `GET /events/{id}/instances` (contract §7.8; Google Calendar's `events.instances`): the events of
 * one series in a window — past the stored horizon too — paged, filtered and ordered as `/events`,
 * by the series' id or any of its events'; errors as `GET /events/{id}` answers them.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, roundTrips } from "../support/api";
import { change, createEvent } from "./support";

/** A weekly endless meetup from 2 March 2027 (Tuesdays 19:00, Berlin) and another series. */
async function calendar() {
  const s = await createEvent({
    title: "Meetup",
    start_date: "2027-03-02 19:00:00",
    end_date: "2027-03-02 21:00:00",
    timezone: "Europe/Berlin",
    recurrence: ["RRULE:FREQ=WEEKLY"],
  });
  const other = await createEvent({
    title: "Other",
    start_date: "2027-03-03 19:00:00",
    end_date: "2027-03-03 21:00:00",
    recurrence: ["RRULE:FREQ=WEEKLY"],
  });
  const single = await createEvent({
    title: "Film",
    start_date: "2031-03-05 19:00:00",
    end_date: "2031-03-05 21:00:00",
  });
  return { s, other, single };
}

const MARCH_2031 = "start_date=2031-03-01&end_date=2031-03-31";
const instances = (id: number, query = MARCH_2031, headers = {}) =>
  api(`${NS}/events/${id}/instances?${query}`, { headers });

describe("GET /events/{id}/instances", () => {
  it("lists one series' events in a window past the stored horizon, paged like /events", async () => {
    const { s } = await calendar();
    const res = await instances(s.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.events.map((e: any) => [e.title, e.start_date, e.series.id])).toEqual([
      ["Meetup", "2031-03-04 19:00:00", s.id],
      ["Meetup", "2031-03-11 19:00:00", s.id],
      ["Meetup", "2031-03-18 19:00:00", s.id],
      ["Meetup", "2031-03-25 19:00:00", s.id],
    ]);
    expect(res.body.total).toBe(4);
    expect(roundTrips(res)).toBeLessThanOrEqual(2);
    const page = await instances(s.id, `${MARCH_2031}&per_page=3`);
    expect(page.body.total_pages).toBe(2);
    expect(page.body.rest_url).toBe(
      `http://calendar.test${NS}/events/${s.id}/instances?page=1&per_page=3&start_date=2031-03-01+00%3A00%3A00&end_date=2031-03-31+23%3A59%3A59&status=publish`,
    );
    expect(page.body.next_rest_url).toContain(`/events/${s.id}/instances?`);
    expect(page.headers.get("x-wp-total")).toBe("4");
    const second = await instances(s.id, `${MARCH_2031}&per_page=3&page=2`);
    expect(second.body.events.map((e: any) => e.start_date)).toEqual(["2031-03-25 19:00:00"]);
    // Filters apply as on /events.
    expect((await instances(s.id, `${MARCH_2031}&search=other`)).body.total).toBe(0);
    // The same for an editor (the full path).
    const editor = await instances(s.id, MARCH_2031, ADMIN);
    expect(editor.body.events.map((e: any) => e.id)).toEqual(res.body.events.map((e: any) => e.id));
  });

  it("any event of the series names it: an occurrence, an override, a computed occurrence", async () => {
    const { s } = await calendar();
    const near = (await instances(s.id, "start_date=2027-03-01&end_date=2027-03-31")).body.events;
    await change(near[2].id, { title: "Guest night" });
    const far = (await instances(s.id)).body.events.map((e: any) => e.id);
    for (const id of [near[1].id, near[2].id, far[2]]) {
      const res = await instances(id);
      expect(res.status, res.text).toBe(200);
      expect(res.body.events.map((e: any) => e.id)).toEqual(far);
    }
    const first = await instances(s.id, "start_date=2027-03-01&end_date=2027-03-31");
    expect(first.body.events.map((e: any) => e.title)).toEqual([
      "Meetup",
      "Meetup",
      "Guest night",
      "Meetup",
      "Meetup",
    ]);
  });

  it("a single event's instances are itself", async () => {
    const { single } = await calendar();
    const res = await instances(single.id);
    expect(res.body.events.map((e: any) => e.id)).toEqual([single.id]);
  });

  it("answers errors as GET /events/{id}: 404 unknown, 400 not an event, 403 trashed or not readable", async () => {
    const { s } = await calendar();
    const unknown = await instances(999_999);
    expect([unknown.status, unknown.body.code]).toEqual([404, "rest-event-not-found"]);
    const venue = await createEvent({
      title: "With venue",
      start_date: "2027-05-01 10:00:00",
      end_date: "2027-05-01 11:00:00",
      venue: { venue: "Hall" },
    });
    const notEvent = await instances(venue.venue.id);
    expect([notEvent.status, notEvent.body.code]).toEqual([400, "rest-invalid-event-id"]);
    const badDate = await instances(s.id, "start_date=someday");
    expect([badDate.status, Object.keys(badDate.body.data.params)]).toEqual([400, ["start_date"]]);
    const draft = await createEvent({
      title: "Draft",
      status: "draft",
      start_date: "2027-05-01 10:00:00",
      end_date: "2027-05-01 11:00:00",
      recurrence: ["RRULE:FREQ=DAILY;COUNT=3"],
    });
    const hidden = await instances(draft.id, "start_date=2027-05-01&end_date=2027-05-31");
    expect([hidden.status, hidden.body.code]).toEqual([403, "event-not-accessible"]);
    const byAdmin = await instances(draft.id, "start_date=2027-05-01&end_date=2027-05-31", ADMIN);
    expect(byAdmin.body.total).toBe(3);
    expect((await change(s.id)).status).toBe(200);
    const trashed = await instances(s.id);
    expect([trashed.status, trashed.body.code]).toEqual([403, "event-no-longer-available"]);
  });

  it("is in /doc in both languages: its id names a series by any of its events', no series or expand", async () => {
    for (const [lang, words] of [
      ["en", ["series", "any of its events"]],
      ["de", ["Serie", "einer ihrer Veranstaltungen"]],
    ] as const) {
      const doc = await api(`/${lang}${NS}/doc`);
      expect(doc.status, doc.text).toBe(200);
      const op = doc.body.paths["/events/{id}/instances"].get;
      const names = op.parameters.map((p: any) => p.name).filter(Boolean);
      expect(names).toContain("start_date");
      expect(names).not.toContain("series");
      expect(names).not.toContain("expand");
      const id = op.parameters.find((p: any) => p.name === "id");
      const single = doc.body.paths["/events/{id}"].get.parameters.find(
        (p: any) => p.name === "id",
      );
      expect(id.description).not.toBe(single.description);
      for (const word of words) expect(id.description).toContain(word);
    }
  });
});
