/**
 * A series takes its own lines back (contract §7.8): `PATCH` of the series with exactly the
 * `series.recurrence` one of its occurrences shows answers 200 and changes nothing — not its
 * occurrences, not their ids or `modified`, not what `modified_after` reports — for a series with
 * many `EXDATE`s (some of them deleted occurrences), with `RDATE`s, and on both sides of a split.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { forgetVersion } from "../../src/read-cache/version";
import { api, NS } from "../support/api";
import { change, createEvent, listed } from "./support";

/** `n` values `YYYYMMDDT{time}` a day apart from `from` (UTC date), joined by commas. */
function values(n: number, from: number, time: string): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `${new Date(from + i * 86_400_000).toISOString().slice(0, 10).replace(/-/g, "")}T${time}`,
  ).join(",");
}

/** Everything written so far, as if long ago (a write elsewhere: the isolate is told). */
async function age() {
  await env.DB.batch([
    env.DB.prepare("UPDATE events SET changed_gmt = '2026-01-01 00:00:00'"),
    env.DB.prepare("UPDATE event_occurrences SET changed_gmt = '2026-01-01 00:00:00'"),
  ]);
  forgetVersion();
}

/**
 * GETs an occurrence of series `id`, patches the series with its `series.recurrence`, and checks
 * that the write answered 200 and changed nothing.
 */
async function takesItsLinesBack(id: number) {
  const before = await listed(`series=${id}`);
  const occurrence = (await api(`${NS}/events/${before[before.length - 1].id}`)).body;
  const lines: string[] = occurrence.series.recurrence;
  expect(lines.every((l) => l.length <= 4000)).toBe(true);
  const series = (await api(`${NS}/events/${id}`)).body;
  await age();
  const res = await change(id, { recurrence: lines });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  expect(res.body.series.recurrence).toEqual(lines);
  expect(await listed(`series=${id}`)).toEqual(before);
  expect((await api(`${NS}/events/${id}`)).body).toEqual(series);
  expect(await listed("modified_after=2026-06-01T00:00:00Z")).toEqual([]);
  return lines;
}

describe("PATCH of a series with its own series.recurrence", () => {
  it("with hundreds of EXDATEs, three of them deleted occurrences", async () => {
    // Daily at 08:00 in the weeks after the series (none an occurrence): 300 dates, two lines.
    const from = Date.UTC(2027, 5, 1);
    const s = await createEvent({
      start_date: "2027-03-02 19:00:00",
      end_date: "2027-03-02 21:00:00",
      timezone: "Europe/Berlin",
      recurrence: [
        "RRULE:FREQ=WEEKLY;COUNT=10",
        `EXDATE:${values(150, from, "080000")}`,
        `EXDATE:${values(150, from + 150 * 86_400_000, "080000")}`,
      ],
    });
    const weeks = await listed(`series=${s.id}`);
    // An override, and three occurrences deleted: 303 EXDATEs, more than one line holds.
    expect((await change(weeks[1].id, { title: "Special" })).status).toBe(200);
    for (const week of [weeks[3], weeks[5], weeks[7]])
      expect((await change(week.id)).status).toBe(200);
    const lines = await takesItsLinesBack(s.id);
    expect(lines.filter((l) => l.startsWith("EXDATE;TZID=Europe/Berlin:")).length).toBe(2);
    expect(lines.join(",")).toContain("20270323T190000");
    expect((await listed(`series=${s.id}`)).map((e) => e.title)).toEqual([
      "Meetup",
      "Special",
      "Meetup",
      "Meetup",
      "Meetup",
      "Meetup",
      "Meetup",
    ]);
  });

  it("with RDATEs and EXDATEs, all-day", async () => {
    const s = await createEvent({
      start_date: "2027-03-01 00:00:00",
      end_date: "2027-03-01 23:59:59",
      all_day: true,
      timezone: "America/New_York",
      recurrence: [
        "RRULE:FREQ=MONTHLY;BYMONTHDAY=1;UNTIL=20281231",
        // The 15th of each month, 18 of them, one after another line.
        ...Array.from(
          { length: 18 },
          (_, i) =>
            `RDATE;VALUE=DATE:${new Date(Date.UTC(2027, 2 + i, 15)).toISOString().slice(0, 10).replace(/-/g, "")}`,
        ),
        "EXDATE;VALUE=DATE:20270601,20270801",
      ],
    });
    const lines = await takesItsLinesBack(s.id);
    expect(lines[0]).toBe("RRULE:FREQ=MONTHLY;BYMONTHDAY=1;UNTIL=20281231");
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^RDATE;VALUE=DATE:20270315,20270415,.*,20280815$/),
      "EXDATE;VALUE=DATE:20270601,20270801",
    ]);
  });

  it("on both sides of a split", async () => {
    const s = await createEvent({
      start_date: "2027-03-02 19:00:00",
      end_date: "2027-03-02 21:00:00",
      timezone: "Europe/Berlin",
      recurrence: [
        "RRULE:FREQ=WEEKLY;COUNT=12",
        "RDATE:20270304T190000,20270506T190000",
        "EXDATE:20270309T190000,20270504T190000",
      ],
    });
    const weeks = await listed(`series=${s.id}`);
    const split = await change(weeks[5].id, { title: "Later" }, "?scope=following");
    expect(split.status, split.text).toBe(200);
    expect(split.body.series.id).toBe(weeks[5].id);
    const before = await takesItsLinesBack(s.id);
    expect(before[0]).toMatch(/^RRULE:FREQ=WEEKLY;UNTIL=2027\d{4}T\d{6}Z$/);
    const after = await takesItsLinesBack(weeks[5].id);
    expect(after).toEqual([
      expect.stringMatching(/^RRULE:FREQ=WEEKLY;COUNT=\d+;BYDAY=TU$/),
      "RDATE;TZID=Europe/Berlin:20270506T190000",
      "EXDATE;TZID=Europe/Berlin:20270504T190000",
    ]);
  });
});
