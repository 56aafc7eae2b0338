/**
 * Changing a recurring series (contract §7.8): one occurrence (an override), this and the following
 * ones (a split), the series itself, one occurrence deleted (an EXDATE), the repetition ended, the
 * whole series deleted. The worked example of the README is the first test.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { change, createEvent, listed } from "./support";

/** A weekly meetup, Tuesdays 19:00–21:00 in Berlin, six weeks from 2 March 2027. */
const meetup = (more = {}) =>
  createEvent({
    title: "Meetup",
    description: "Talks and drinks.",
    start_date: "2027-03-02 19:00:00",
    end_date: "2027-03-02 21:00:00",
    timezone: "Europe/Berlin",
    venue: { venue: "Hall A" },
    recurrence: ["RRULE:FREQ=WEEKLY;COUNT=6"],
    ...more,
  });

const summary = (events: any[]) =>
  events.map((e) => [e.id, e.title, e.start_date, e.series.occurrence_start]);

describe("one occurrence, and the series", () => {
  it("a weekly meetup with one week moved and one cancelled (the README's example)", async () => {
    const s = await meetup();
    const weeks = await listed();
    expect(weeks).toHaveLength(6);
    // Week 3 moves to Thursday, 18:00, in another hall.
    const moved = await change(weeks[2].id, {
      start_date: "2027-03-18 18:00:00",
      end_date: "2027-03-18 20:00:00",
      venue: { venue: "Hall B" },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({
      id: weeks[2].id,
      start_date: "2027-03-18 18:00:00",
      url: "http://calendar.test/event/meetup/2027-03-16/",
      series: { id: s.id, occurrence_start: "2027-03-16 19:00:00" },
    });
    expect(moved.body.venue.venue).toBe("Hall B");
    // Week 5 is cancelled.
    const cancelled = await change(weeks[4].id);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ deleted: true, previous: { id: weeks[4].id } });

    const now = await listed();
    expect(now.map((e) => [e.id, e.start_date, e.venue.venue])).toEqual([
      [weeks[0].id, "2027-03-02 19:00:00", "Hall A"],
      [weeks[1].id, "2027-03-09 19:00:00", "Hall A"],
      [weeks[2].id, "2027-03-18 18:00:00", "Hall B"],
      [weeks[3].id, "2027-03-23 19:00:00", "Hall A"],
      [weeks[5].id, "2027-04-06 19:00:00", "Hall A"],
    ]);
    // The cancelled week is an EXDATE of the series, and gone for good.
    expect(now[0].series.recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=6",
      "EXDATE;TZID=Europe/Berlin:20270330T190000",
    ]);
    expect((await api(`${NS}/events/${weeks[4].id}`)).status).toBe(404);
    // Single GETs of each answer as the list does.
    for (const e of now) {
      const one = await api(`${NS}/events/${e.id}`);
      expect(one.status).toBe(200);
      // A single GET adds JSON-LD: its own, and its venue's.
      const { json_ld, venue, ...rest } = one.body;
      const { json_ld: _, ...place } = venue;
      expect({ ...rest, venue: place }).toEqual(e);
      expect(json_ld).toMatchObject({ "@type": "Event", url: e.url });
    }
  });

  it("an override keeps what it sets when the series changes it, and follows the rest", async () => {
    const s = await meetup();
    const weeks = await listed();
    await change(weeks[1].id, { title: "Special guest" });
    const res = await change(s.id, { title: "Tuesday meetup", description: "New place." });
    expect(res.status, res.text).toBe(200);
    const now = await listed();
    expect(now.map((e) => e.title)).toEqual([
      "Tuesday meetup",
      "Special guest",
      "Tuesday meetup",
      "Tuesday meetup",
      "Tuesday meetup",
      "Tuesday meetup",
    ]);
    expect(now.every((e) => e.description === "<p>New place.</p>")).toBe(true);
    expect(now[1].slug).toBe(s.slug);
    // A second change of the same occurrence adds to what it sets.
    await change(weeks[1].id, { featured: true });
    await change(s.id, { title: "Meetup", featured: false });
    const again = await listed();
    expect(again[1]).toMatchObject({ title: "Special guest", featured: true });
    expect(again[2]).toMatchObject({ title: "Meetup", featured: false });
  });

  it("moving the series moves every occurrence: ids and overrides are kept", async () => {
    const s = await meetup();
    const weeks = await listed();
    await change(weeks[3].id, { title: "Week four" });
    const res = await change(s.id, {
      start_date: "2027-03-02 18:30:00",
      end_date: "2027-03-02 20:00:00",
    });
    expect(res.status, res.text).toBe(200);
    const now = await listed();
    expect(summary(now)).toEqual([
      [weeks[0].id, "Meetup", "2027-03-02 18:30:00", "2027-03-02 18:30:00"],
      [weeks[1].id, "Meetup", "2027-03-09 18:30:00", "2027-03-09 18:30:00"],
      [weeks[2].id, "Meetup", "2027-03-16 18:30:00", "2027-03-16 18:30:00"],
      [weeks[3].id, "Week four", "2027-03-23 18:30:00", "2027-03-23 18:30:00"],
      [weeks[4].id, "Meetup", "2027-03-30 18:30:00", "2027-03-30 18:30:00"],
      [weeks[5].id, "Meetup", "2027-04-06 18:30:00", "2027-04-06 18:30:00"],
    ]);
    expect(now.every((e) => e.end_date.endsWith(" 20:00:00"))).toBe(true);
  });

  it("a new rule keeps the occurrences it still gives; the others go (and are reported)", async () => {
    const s = await meetup();
    const weeks = await listed();
    const res = await change(s.id, { recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3"] });
    expect(res.status, res.text).toBe(200);
    expect((await listed()).map((e) => e.id)).toEqual([weeks[0].id, weeks[2].id, weeks[4].id]);
    const gone = (await api(`${NS}/deleted?type=event`)).body.deleted.map((d: any) => d.id);
    expect(gone).toEqual([weeks[1].id, weeks[3].id, weeks[5].id]);
  });

  it("recurrence [] (or null) ends the repetition: the first event stays, alone", async () => {
    for (const recurrence of [[], null]) {
      const s = await meetup({ title: `Once ${JSON.stringify(recurrence)}` });
      const res = await change(s.id, { recurrence });
      expect(res.status, res.text).toBe(200);
      expect(res.body.series).toBeUndefined();
      expect(res.body.url).toBe(`http://calendar.test/event/${s.slug}/`);
    }
    const now = await listed();
    expect(now).toHaveLength(2);
    expect(now.every((e) => !("series" in e))).toBe(true);
  });

  it("a single event becomes a series with recurrence", async () => {
    const e = await createEvent({
      start_date: "2027-05-03 10:00:00",
      end_date: "2027-05-03 11:00:00",
    });
    const res = await change(e.id, { recurrence: "RRULE:FREQ=DAILY;COUNT=2" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.series).toEqual({
      id: e.id,
      recurrence: ["RRULE:FREQ=DAILY;COUNT=2"],
      occurrence_start: "2027-05-03 10:00:00",
      original_start: "2027-05-03T10:00:00+00:00",
      timezone: "UTC",
      uid: `${e.id}@calendar.test`,
      split_from: null,
      cancelled: [],
    });
    expect((await listed()).map((x) => x.start_date)).toEqual([
      "2027-05-03 10:00:00",
      "2027-05-04 10:00:00",
    ]);
  });
});

describe("this and the following occurrences (scope=following)", () => {
  it("splits the series there: a new series with the occurrence's id, the rest of the rule and the change", async () => {
    const s = await meetup();
    const weeks = await listed();
    await change(weeks[4].id, { title: "Week five" });
    const res = await change(
      weeks[3].id,
      {
        title: "Spring meetup",
        start_date: "2027-03-23 20:00:00",
        end_date: "2027-03-23 22:00:00",
      },
      "?scope=following",
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: weeks[3].id,
      title: "Spring meetup",
      slug: "meetup-2",
      series: {
        id: weeks[3].id,
        recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=TU"],
        occurrence_start: "2027-03-23 20:00:00",
        // The new series names the one it was split off.
        split_from: s.id,
        uid: `${weeks[3].id}@calendar.test`,
      },
    });
    const now = await listed();
    expect(now.map((e) => [e.id, e.title, e.start_date, e.series.id])).toEqual([
      [weeks[0].id, "Meetup", "2027-03-02 19:00:00", s.id],
      [weeks[1].id, "Meetup", "2027-03-09 19:00:00", s.id],
      [weeks[2].id, "Meetup", "2027-03-16 19:00:00", s.id],
      [weeks[3].id, "Spring meetup", "2027-03-23 20:00:00", weeks[3].id],
      // The override after the split point moves to the new series, what it set kept.
      [weeks[4].id, "Week five", "2027-03-30 20:00:00", weeks[3].id],
      [weeks[5].id, "Spring meetup", "2027-04-06 20:00:00", weeks[3].id],
    ]);
    // The old series ends the second before the split.
    expect(now[0].series.recurrence).toEqual(["RRULE:FREQ=WEEKLY;UNTIL=20270323T175959Z"]);
  });

  it("DELETE with scope=following ends the series before the occurrence", async () => {
    const s = await meetup();
    const weeks = await listed();
    const res = await change(weeks[2].id, undefined, "?scope=following");
    expect(res.status, res.text).toBe(200);
    expect((await listed()).map((e) => e.id)).toEqual([weeks[0].id, weeks[1].id]);
    const gone = (await api(`${NS}/deleted?type=event`)).body.deleted.map((d: any) => d.id);
    expect(gone).toEqual(weeks.slice(2).map((w) => w.id));
    expect((await api(`${NS}/events/${s.id}`)).body.series.recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;UNTIL=20270316T175959Z",
    ]);
  });
});

describe("deleting the series", () => {
  it("moves the series, its overrides and occurrences to the trash; force deletes them all", async () => {
    const s = await meetup();
    const weeks = await listed();
    await change(weeks[1].id, { title: "Two" });
    const trashed = await change(s.id);
    expect(trashed.status, trashed.text).toBe(200);
    expect(trashed.body.status).toBe("trash");
    expect(await listed()).toEqual([]);
    const asEditor = await listed("status=trash", ADMIN);
    expect(asEditor.map((e) => e.id)).toEqual(weeks.map((w) => w.id));
    // In the order of the changes: the override first (the series' write moves it first), then the
    // series with its occurrences.
    const log = (await api(`${NS}/deleted?type=event`)).body.deleted;
    expect(log.map((d: any) => [d.id, d.status]).sort()).toEqual(
      weeks.map((w) => [w.id, "trash"]).sort(),
    );

    const forced = await change(s.id, undefined, "?force=true");
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body.deleted).toBe(true);
    const after = (await api(`${NS}/deleted?type=event`)).body.deleted;
    expect(after.map((d: any) => [d.id, d.status]).sort()).toEqual(
      weeks.map((w) => [w.id, "deleted"]).sort(),
    );
    for (const w of weeks) expect((await api(`${NS}/events/${w.id}`)).status).toBe(404);
  });
});
