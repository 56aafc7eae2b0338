/**
 * The iCalendar import keeps what it can: GEO becomes the venue's coordinates, a
 * LOCATION of the form `Name, street, city…` fills the venue's address, line breaks in
 * DESCRIPTION come back from the feed as they went in, and recurring series (RRULE, RDATE, EXDATE,
 * RECURRENCE-ID) arrive as all their occurrences up to the window's end, found again by a re-run,
 * with occurrences removed at the source reported. The calendars are written here.
 */
import { SELF } from "cloudflare:test";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { FetchLike } from "../../tools/import/client";
import { parseIcs } from "../../tools/import/ics";
import { importEvents } from "../../tools/import/importer";
import { scanCalendar } from "../../tools/import/scan";
import { ADMIN, api, NS, ORIGIN } from "../support/api";

const client = {
  base: `${ORIGIN}${NS}`,
  authorization: ADMIN.authorization,
  fetch: ((url, init) => SELF.fetch(url, init)) as FetchLike,
};
const UNTIL = DateTime.fromISO("2026-12-31T23:59:59Z", { zone: "utc" });
const calendar = (...events: string[][]) =>
  `${["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", ...events.flat(), "END:VCALENDAR"].join("\r\n")}\r\n`;
const vevent = (...lines: string[]) => ["BEGIN:VEVENT", ...lines, "END:VEVENT"];

async function run(text: string) {
  const parsed = parseIcs(text, { until: UNTIL });
  const report = await importEvents(client, parsed.events, {
    retryDelayMs: 1,
    series: parsed.series,
  });
  return { parsed, report };
}

/** Every stored event (drafts too), by title and start. */
async function stored(): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const res = await api(
      `${NS}/events?start_date=2000-01-01&end_date=2999-12-31&per_page=50&page=${page}`,
      { headers: ADMIN },
    );
    out.push(...res.body.events);
    if (page >= res.body.total_pages) return out;
  }
}

const COMMUNITY = calendar(
  vevent(
    "UID:fair@community.test",
    "DTSTART:20261003T160000Z",
    "DTEND:20261003T200000Z",
    "SUMMARY:Harvest fair",
    "DESCRIPTION:Bring water.\\nDoors at 6.\\n\\nAll ages\\, free.",
    "LOCATION:Blue Hall\\, 100 Main St\\, Springfield\\, IL 62701\\, USA",
    "GEO:39.8017;-89.6436",
  ),
  vevent(
    "UID:reading@community.test",
    "DTSTART;TZID=Europe/Berlin:20261010T190000",
    "DTEND;TZID=Europe/Berlin:20261010T210000",
    "SUMMARY:Reading",
    "LOCATION:Café Lotte\\, Hauptstraße 5\\, 10115 Berlin\\, Germany",
    "GEO:52.52;13.405",
  ),
  vevent(
    "UID:meeting@community.test",
    "DTSTART:20261012T170000Z",
    "SUMMARY:Neighbours' meeting",
    "LOCATION:Room 4\\, Building B",
  ),
  vevent(
    "UID:market@community.test",
    "DTSTART;VALUE=DATE:20261017",
    "SUMMARY:Market",
    "LOCATION:Town Square",
    "GEO:48.137;11.575",
  ),
);

describe("a community calendar export", () => {
  it("imports whole, with addresses and coordinates, and re-runs as unchanged", async () => {
    const first = await run(COMMUNITY);
    expect(first.parsed.warnings).toEqual([]);
    expect(first.report).toMatchObject({ created: 4, updated: 0, skipped: 0 });
    const events = Object.fromEntries((await stored()).map((e) => [e.title, e]));
    expect(events["Harvest fair"].venue).toMatchObject({
      venue: "Blue Hall",
      address: "100 Main St",
      city: "Springfield",
      state: "IL",
      stateprovince: "IL",
      zip: "62701",
      country: "USA",
      geo_lat: 39.8017,
      geo_lng: -89.6436,
    });
    expect(events.Reading.venue).toMatchObject({
      venue: "Café Lotte",
      address: "Hauptstraße 5",
      city: "Berlin",
      zip: "10115",
      country: "Germany",
      geo_lat: 52.52,
      geo_lng: 13.405,
    });
    // Not of the form Name, street, city: the whole text stays the name.
    expect(events["Neighbours' meeting"].venue).toMatchObject({ venue: "Room 4, Building B" });
    expect(events.Market.venue).toMatchObject({ venue: "Town Square", geo_lat: 48.137 });

    const again = await run(COMMUNITY);
    expect(again.report).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
  });

  it("gives line breaks back from the feed as they were imported", async () => {
    await run(COMMUNITY);
    const feed = await SELF.fetch(`${ORIGIN}${NS}/events.ics?start_date=2026-01-01`);
    const fair = scanCalendar(await feed.text())
      .root.getAllSubcomponents("vevent")
      .find((v) => v.getFirstPropertyValue("uid") === "fair@community.test")!;
    expect(fair.getFirstPropertyValue("description")).toBe(
      "Bring water.\nDoors at 6.\n\nAll ages, free.",
    );
    expect(String(fair.getFirstPropertyValue("geo"))).toBe("39.8017,-89.6436");
  });
});

const CHOIR = [
  "UID:choir@community.test",
  "DTSTART;TZID=Europe/Berlin:20260302T180000",
  "DTEND;TZID=Europe/Berlin:20260302T193000",
  "SUMMARY:Choir",
  "LOCATION:Parish hall",
  // The last one, 29 April 18:00 CEST, is exactly UNTIL.
  "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260429T160000Z",
  "EXDATE;TZID=Europe/Berlin:20260311T180000",
];
const SERIES = (extraChoirLines: string[] = []) =>
  calendar(
    vevent(...CHOIR, ...extraChoirLines),
    vevent(
      "UID:choir@community.test",
      "RECURRENCE-ID;TZID=Europe/Berlin:20260318T180000",
      "DTSTART;TZID=Europe/Berlin:20260318T190000",
      "DTEND;TZID=Europe/Berlin:20260318T203000",
      "SUMMARY:Choir (moved)",
      "LOCATION:Parish hall",
    ),
    vevent(
      "UID:choir@community.test",
      "RECURRENCE-ID;TZID=Europe/Berlin:20260325T180000",
      "DTSTART;TZID=Europe/Berlin:20260325T180000",
      "SUMMARY:Choir",
      "STATUS:CANCELLED",
    ),
    vevent(
      "UID:board@community.test",
      "DTSTART:20260102T100000Z",
      "DURATION:PT2H",
      "SUMMARY:Board meeting",
      "RRULE:FREQ=MONTHLY;BYDAY=1FR;COUNT=6",
      "RDATE:20260715T100000Z",
    ),
    vevent(
      "UID:walk@community.test",
      "DTSTART;VALUE=DATE:20261201",
      "SUMMARY:Winter walk",
      "RRULE:FREQ=WEEKLY",
    ),
  );

describe("recurring series", () => {
  it("import every occurrence in the window, each an event keyed by UID and start", async () => {
    const { parsed, report } = await run(SERIES());
    expect(parsed.series.map((s) => [s.uid, s.keys.length])).toEqual([
      ["choir@community.test", 16],
      ["board@community.test", 7],
      ["walk@community.test", 5],
    ]);
    expect(report).toMatchObject({ created: 28, updated: 0, removed: [] });
    const all = await stored();
    const choir = all.filter((e) => e.title.startsWith("Choir"));
    expect(choir).toHaveLength(16);
    // Wall clock kept across the change to summer time; the moved one at its new time.
    expect(choir[0]).toMatchObject({
      start_date: "2026-03-02 18:00:00",
      utc_start_date: "2026-03-02 17:00:00",
      end_date: "2026-03-02 19:30:00",
      timezone: "Europe/Berlin",
    });
    expect(choir.find((e) => e.start_date.startsWith("2026-03-30"))).toMatchObject({
      utc_start_date: "2026-03-30 16:00:00",
    });
    expect(choir.find((e) => e.title === "Choir (moved)")).toMatchObject({
      start_date: "2026-03-18 19:00:00",
    });
    const days = choir.map((e) => e.start_date.slice(5, 10));
    expect(days).not.toContain("03-11"); // EXDATE
    expect(days).not.toContain("03-25"); // cancelled
    expect(days.at(-1)).toBe("04-29"); // UNTIL, compared as an instant
    const board = all.filter((e) => e.title === "Board meeting").map((e) => e.start_date);
    expect(board).toEqual([
      "2026-01-02 10:00:00",
      "2026-02-06 10:00:00",
      "2026-03-06 10:00:00",
      "2026-04-03 10:00:00",
      "2026-05-01 10:00:00",
      "2026-06-05 10:00:00",
      "2026-07-15 10:00:00",
    ]);
    const walks = all.filter((e) => e.title === "Winter walk");
    expect(walks.map((e) => e.start_date.slice(0, 10))).toEqual([
      "2026-12-01",
      "2026-12-08",
      "2026-12-15",
      "2026-12-22",
      "2026-12-29",
    ]);
    expect(walks.every((e) => e.all_day)).toBe(true);
    // The feed gives the occurrences back one by one, with their UIDs.
    const feed = await SELF.fetch(`${ORIGIN}${NS}/events.ics?start_date=2026-01-01`);
    expect(await feed.text()).toContain("UID:choir@community.test#20260318T170000Z");
  });

  it("re-run unchanged, and report an occurrence removed at the source", async () => {
    await run(SERIES());
    const again = await run(SERIES());
    expect(again.report).toMatchObject({ created: 0, updated: 0, unchanged: 28, removed: [] });

    const removedAtSource = await run(SERIES(["EXDATE;TZID=Europe/Berlin:20260401T180000"]));
    expect(removedAtSource.report).toMatchObject({ created: 0, updated: 0, unchanged: 27 });
    expect(removedAtSource.report.removed).toEqual([
      { uid: "choir@community.test#20260401T160000Z", line: 4, title: "Choir" },
    ]);
  });

  it("end at the window: occurrences after `until` are left for a later run", () => {
    const early = parseIcs(SERIES(), {
      until: DateTime.fromISO("2026-03-31T00:00:00Z", { zone: "utc" }),
    });
    expect(early.series.map((s) => s.keys.length)).toEqual([7, 3, 0]);
    expect(early.warnings.map((w) => w.message)).toContain(
      'the series "Winter walk" has no occurrence up to 2026-03-31',
    );
  });
});
