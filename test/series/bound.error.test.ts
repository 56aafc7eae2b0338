/**
 * The stored `recurrence` obeys the limits of the input (contract §7.8): at most 1,000 `RDATE` and
 * `EXDATE` values together, every line at most 4,000 characters — as sent, and after a write that
 * adds a date (deleting an occurrence is an `EXDATE`). Past the bound a write is a 400
 * `rest_invalid_param` naming `recurrence`, with the limits in its message, and nothing changes.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { change, createEvent, listed } from "./support";

/** A weekly meetup, Tuesdays 19:00–21:00 in Berlin, from 2 March 2027. */
const MEETUP = {
  title: "Meetup",
  start_date: "2027-03-02 19:00:00",
  end_date: "2027-03-02 21:00:00",
  timezone: "Europe/Berlin",
};

/**
 * `n` dates at 08:00 every day from 3 March 2027 (none an occurrence of the meetup), as `name`
 * lines of at most `perLine` values (16 characters each with its comma).
 */
function dateLines(name: string, n: number, perLine = 200, from = Date.UTC(2027, 2, 3)): string[] {
  const values = Array.from({ length: n }, (_, i) =>
    new Date(from + i * 86_400_000).toISOString().replace(/[-:]/g, "").replace(/T.*/, "T080000"),
  );
  const lines: string[] = [];
  for (let i = 0; i < n; i += perLine)
    lines.push(`${name}:${values.slice(i, i + perLine).join(",")}`);
  return lines;
}

/** How many values the lines hold, in `RDATE` and `EXDATE` lines together. */
const dateCount = (lines: string[]) =>
  lines
    .filter((l) => /^(RDATE|EXDATE)[;:]/.test(l))
    .reduce((n, l) => n + l.slice(l.indexOf(":") + 1).split(",").length, 0);

/** Rows of the tables a write could touch. */
const counts = () =>
  env.DB.prepare(
    "SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM event_occurrences) AS occurrences, (SELECT count(*) FROM posts WHERE deleted_gmt IS NULL) AS posts",
  ).first();

/** The 400 naming `recurrence`, its English and German messages with the limits filled in. */
async function refusedBoth(send: (lang: string) => Promise<any>) {
  for (const [lang, words] of [
    ["", "recurrence may hold at most 1000 dates"],
    ["/de", "recurrence darf in RDATE- und EXDATE-Zeilen zusammen höchstens 1000 Daten"],
  ]) {
    const res = await send(lang);
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.body.code).toBe("rest_invalid_param");
    expect(Object.keys(res.body.data.params)).toEqual(["recurrence"]);
    const message: string = res.body.data.params.recurrence;
    expect(message).toContain(words);
    expect(message).toContain("4000");
    expect(message).not.toMatch(/%[sd]/);
  }
}

describe("the stored recurrence stays within the input's limits", () => {
  it("refuses the probe's 49 EXDATE lines of 240 dates (each line under 4,000 characters): nothing written", async () => {
    const lines = dateLines("EXDATE", 49 * 240, 240);
    expect(lines).toHaveLength(49);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(4000);
    const before = await counts();
    await refusedBoth((lang) =>
      api(`${lang}${NS}/events`, {
        headers: ADMIN,
        json: { ...MEETUP, recurrence: ["RRULE:FREQ=WEEKLY;COUNT=30", ...lines] },
      }),
    );
    expect(await counts()).toEqual(before);
  });

  it("stores 1,000 dates as lines of at most 4,000 characters; 1,001 are refused", async () => {
    const lines = [
      "RRULE:FREQ=WEEKLY;COUNT=30",
      ...dateLines("RDATE", 1, 1, Date.UTC(2027, 2, 4)).map((l) => l.replace("T080000", "T190000")),
      ...dateLines("EXDATE", 999, 200, Date.UTC(2027, 2, 5)),
    ];
    const s = await createEvent({ ...MEETUP, recurrence: lines });
    const stored: string[] = s.series.recurrence;
    expect(dateCount(stored)).toBe(1000);
    expect(Math.max(...stored.map((l) => l.length))).toBeLessThanOrEqual(4000);
    expect(stored.length).toBeLessThanOrEqual(7);
    expect(stored.slice(0, 2)).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=30",
      "RDATE;TZID=Europe/Berlin:20270304T190000",
    ]);
    expect(stored.slice(2).every((l) => l.startsWith("EXDATE;TZID=Europe/Berlin:"))).toBe(true);
    // Every occurrence lists these lines, as the series does.
    const events = await listed(`series=${s.id}`);
    expect(events).toHaveLength(31);
    expect(
      events.every((e) => JSON.stringify(e.series.recurrence) === JSON.stringify(stored)),
    ).toBe(true);

    const before = await counts();
    await refusedBoth((lang) =>
      api(`${lang}${NS}/events`, {
        headers: ADMIN,
        json: { ...MEETUP, title: "More", recurrence: [...lines, "EXDATE:20300101T080000"] },
      }),
    );
    expect(await counts()).toEqual(before);
  });

  it("lines past the bound are refused before their dates are read (a bad date after the 1,000th is not reached)", async () => {
    const before = await counts();
    await refusedBoth((lang) =>
      api(`${lang}${NS}/events`, {
        headers: ADMIN,
        json: {
          ...MEETUP,
          recurrence: [
            "RRULE:FREQ=WEEKLY;COUNT=30",
            ...dateLines("EXDATE", 1000),
            "EXDATE;TZID=America/New_York:20300230T080000",
          ],
        },
      }),
    );
    expect(await counts()).toEqual(before);
  });

  it("deleting an occurrence past the bound (one more EXDATE) is a 400 that changes nothing", async () => {
    const s = await createEvent({
      ...MEETUP,
      // The dates after the series' last occurrence (4 May).
      recurrence: [
        "RRULE:FREQ=WEEKLY;COUNT=10",
        ...dateLines("EXDATE", 1000, 200, Date.UTC(2027, 5, 1)),
      ],
    });
    const before = await listed(`series=${s.id}`);
    expect(before).toHaveLength(10);
    const third = before[2];
    const rows = await counts();
    await refusedBoth((lang) =>
      api(`${lang}${NS}/events/${third.id}`, { method: "DELETE", headers: ADMIN }),
    );
    // The occurrence is still there, the series and its lines as they were.
    expect(await counts()).toEqual(rows);
    expect((await api(`${NS}/events/${third.id}`)).status).toBe(200);
    expect(await listed(`series=${s.id}`)).toEqual(before);
    const log = await api(`${NS}/deleted?modified_after=2020-01-01T00:00:00Z&type=event`);
    expect(log.body.deleted).toEqual([]);

    // Moving an occurrence (an override) adds no date: it still works at the bound.
    const moved = await change(before[3].id, {
      start_date: "2027-03-25 18:00:00",
      end_date: "2027-03-25 20:00:00",
    });
    expect(moved.status, moved.text.slice(0, 300)).toBe(200);
    expect(moved.body.series.recurrence).toEqual(before[0].series.recurrence);
    // Ending the series there drops the dates after it: the occurrence goes, the lines shrink.
    const ended = await change(third.id, undefined, "?scope=following");
    expect(ended.status, ended.text.slice(0, 300)).toBe(200);
    const [first] = await listed(`series=${s.id}`);
    expect(dateCount(first.series.recurrence)).toBe(0);
  });

  it("the other recurrence messages have their values filled in too", async () => {
    const res = await api(`${NS}/events`, {
      headers: ADMIN,
      json: {
        ...MEETUP,
        start_date: "2024-01-01 09:00:00",
        end_date: "2024-01-01 10:00:00",
        recurrence: ["RRULE:FREQ=DAILY"],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.params.recurrence).toBe(
      "recurrence gives more than 1000 occurrences from the event's start to two years ahead: shorten the rule or split the series.",
    );
    const start = await api(`/de${NS}/events`, {
      headers: ADMIN,
      json: { ...MEETUP, recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO"] },
    });
    expect(start.body.data.params.recurrence).toMatch(/^recurrence muss den Beginn/);
    expect(start.body.data.params.recurrence).not.toMatch(/%[sd]/);
  });
});
