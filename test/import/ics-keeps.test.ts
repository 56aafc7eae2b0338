/**
 * The iCalendar import keeps what it can: GEO becomes the venue's coordinates, a
 * LOCATION of the form `Name, street, city…` fills the venue's address, line breaks in
 * DESCRIPTION come back from the feed as they went in, and recurring series (RRULE, RDATE, EXDATE,
 * RECURRENCE-ID) arrive as all their occurrences up to the window's end, found again by a re-run,
 * with occurrences removed at the source reported. The calendars are written here.
 */
import { SELF } from "cloudflare:test";
import type ICAL from "ical.js";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { FetchLike } from "../../tools/import/client";
import { type IcsEvent, type IcsSeries, parseIcs } from "../../tools/import/ics";
import { importEvents } from "../../tools/import/importer";
import { expand, keyOf, occurrenceStart, type SeriesFrame } from "../../tools/import/recurrence";
import { scanCalendar } from "../../tools/import/scan";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { FIXTURE_LINES } from "./fixture";

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
/** The 1-based line of the BEGIN:VEVENT of a UID in SERIES(). */
const lineOfUid = (uid: string) => {
  const lines = SERIES().split("\r\n");
  return lines.indexOf(`UID:${uid}`);
};
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

/** The stored event of a UID (the series itself for a series' UID), or undefined. */
async function byUid(uid: string): Promise<any> {
  const res = await api(`${NS}/events?uid=${encodeURIComponent(uid)}&status=publish,draft`, {
    headers: ADMIN,
  });
  expect(res.status).toBe(200);
  return res.body.events[0];
}

/** The occurrences of a series as the archive lists them in the tests' window. */
async function occurrences(id: number): Promise<any[]> {
  const res = await api(
    `${NS}/events?series=${id}&start_date=2026-01-01&end_date=2026-12-31&per_page=50`,
    { headers: ADMIN },
  );
  expect(res.status).toBe(200);
  return res.body.events;
}

/** The VEVENT that defines series `s` in `text`, and its frame (as parseIcs builds it). */
function frameOf(text: string, s: IcsSeries) {
  const vevent = scanCalendar(text)
    .root.getAllSubcomponents("vevent")
    .find((v) => v.getFirstPropertyValue("uid") === s.uid && !v.getFirstProperty("recurrence-id"))!;
  const dtstart = vevent.getFirstProperty("dtstart")!;
  const tzid = dtstart.getParameter("tzid");
  const frame: SeriesFrame = {
    first: s.event.dates,
    tzid: typeof tzid === "string" ? tzid : undefined,
    zone: (dtstart.getFirstValue() as ICAL.Time).zone ?? undefined,
  };
  return { vevent, frame };
}

/** The old importer's occurrences of series `s` of `text` up to UNTIL (tools/import/recurrence.ts). */
const expandOf = (text: string, s: IcsSeries) => {
  const { vevent, frame } = frameOf(text, s);
  return expand(vevent, frame, UNTIL).occurrences;
};

/** The key of a RECURRENCE-ID of series `s` (of SERIES()). */
const keyOfValue = (prop: ICAL.Property, s: IcsSeries) => {
  const tzid = prop.getParameter("tzid");
  return keyOf(
    prop.getFirstValue() as ICAL.Time,
    typeof tzid === "string" ? tzid : undefined,
    frameOf(SERIES(), s).frame,
  );
};

/** An occurrence's dates as `expand` (the old importer) gave them, and as the API lists them. */
const expanded = (e: IcsEvent) =>
  e.dates.kind === "all-day"
    ? [e.title, e.dates.start, e.dates.end]
    : e.dates.kind === "floating"
      ? [e.title, e.dates.start, e.dates.end]
      : [e.title, e.dates.startUtc, e.dates.endUtc];
const listedDates = (e: any) =>
  e.all_day
    ? [e.title, e.start_date.slice(0, 10), e.end_date.slice(0, 10)]
    : e.timezone === "UTC" || !e.utc_start_date
      ? [e.title, e.start_date, e.end_date]
      : [e.title, e.utc_start_date, e.utc_end_date];

describe("recurring series", () => {
  it("become one series each, with their overrides: the occurrences the old expansion gave", async () => {
    const { parsed, report } = await run(SERIES());
    expect(parsed.series.map((s) => [s.uid, s.keys.length, s.overrides.length])).toEqual([
      ["choir@community.test", 16, 1],
      ["board@community.test", 7, 0],
      ["walk@community.test", 5, 0],
    ]);
    // Three series created, one occurrence changed; nothing made per occurrence.
    expect(report).toMatchObject({ total: 4, created: 3, updated: 1, merged: [], removed: [] });
    expect(await byUid("choir@community.test#20260302T170000Z")).toBeUndefined();
    const choir = await byUid("choir@community.test");
    expect(choir.series.recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260429T160000Z",
      // The EXDATE, and the cancelled RECURRENCE-ID.
      "EXDATE;TZID=Europe/Berlin:20260311T180000,20260325T180000",
    ]);
    for (const s of parsed.series) {
      const series = await byUid(s.uid);
      const listed = await occurrences(series.id);
      // Same starts and ends (DST in Berlin, COUNT with an RDATE, all-day without end) and the
      // moved occurrence at its new time, as the old importer's `expand` gave them.
      expect(listed.map(listedDates)).toEqual(
        s.copies.map(expanded).sort((a, b) => (a[1] < b[1] ? -1 : 1)),
      );
      // And `expand` itself, for every occurrence no RECURRENCE-ID changes or cancels.
      const changed = new Set(
        scanCalendar(SERIES())
          .root.getAllSubcomponents("vevent")
          .filter((v) => v.getFirstPropertyValue("uid") === s.uid)
          .flatMap((v) => v.getAllProperties("recurrence-id"))
          .map((p) => occurrenceStart(keyOfValue(p, s), series.timezone)),
      );
      expect(
        listed
          .filter((e) => !changed.has(e.series.occurrence_start))
          .map((e) => listedDates(e).slice(1)),
      ).toEqual(
        expandOf(SERIES(), s)
          .filter((o) => !changed.has(occurrenceStart(o.key, series.timezone)))
          .map((o) => expanded({ ...s.event, dates: o.dates }).slice(1)),
      );
    }
    const choirs = await occurrences(choir.id);
    expect(choirs.find((e) => e.title === "Choir (moved)")).toMatchObject({
      start_date: "2026-03-18 19:00:00",
      series: { id: choir.id, occurrence_start: "2026-03-18 18:00:00" },
    });
    expect(choirs[0]).toMatchObject({
      id: choir.id,
      start_date: "2026-03-02 18:00:00",
      utc_start_date: "2026-03-02 17:00:00",
      timezone: "Europe/Berlin",
    });
    // The feed emits the rule, not copies.
    const feed = await (await SELF.fetch(`${ORIGIN}${NS}/events.ics?start_date=2026-01-01`)).text();
    expect(feed).toContain("RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260429T160000Z");
    expect(feed).not.toContain("UID:choir@community.test#");
  });

  it("floating series: the wall clock of the site's zone, as the old expansion", async () => {
    const text = calendar(
      vevent(
        "UID:yoga@community.test",
        "DTSTART:20260105T090000",
        "DTEND:20260105T100000",
        "SUMMARY:Yoga",
        "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4",
        "EXDATE:20260119T090000",
      ),
    );
    const { parsed, report } = await run(text);
    expect(report).toMatchObject({ created: 1, updated: 0 });
    const yoga = await byUid("yoga@community.test");
    expect((await occurrences(yoga.id)).map(listedDates)).toEqual(
      parsed.series[0].copies.map(expanded),
    );
    expect(parsed.series[0].copies).toHaveLength(3);
    expect((await run(text)).report).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  });

  it("re-run unchanged; a change at the source is one update of the series' lines", async () => {
    await run(SERIES());
    const again = await run(SERIES());
    expect(again.report).toMatchObject({ created: 0, updated: 0, unchanged: 4, merged: [] });

    const removedAtSource = await run(SERIES(["EXDATE;TZID=Europe/Berlin:20260401T180000"]));
    expect(removedAtSource.report).toMatchObject({
      created: 0,
      updated: 1,
      unchanged: 3,
      removed: [],
    });
    const choir = await byUid("choir@community.test");
    const days = (await occurrences(choir.id)).map((e) => [e.start_date.slice(5, 10), e.title]);
    expect(days).not.toContainEqual(["04-01", "Choir"]);
    // The override stays.
    expect(days).toContainEqual(["03-18", "Choir (moved)"]);
    expect(days).toHaveLength(15);
    expect((await run(SERIES(["EXDATE;TZID=Europe/Berlin:20260401T180000"]))).report).toMatchObject(
      { created: 0, updated: 0, unchanged: 4 },
    );
  });

  it("a change of an occurrence at the source is one PATCH; a RECURRENCE-ID of no occurrence is noted", async () => {
    await run(SERIES());
    const changed = SERIES()
      .replace("SUMMARY:Choir (moved)", "SUMMARY:Choir (moved again)")
      .replace(
        "BEGIN:VEVENT\r\nUID:board@community.test",
        [
          ...vevent(
            "UID:choir@community.test",
            "RECURRENCE-ID;TZID=Europe/Berlin:20260304T190000",
            "DTSTART;TZID=Europe/Berlin:20260304T200000",
            "DURATION:PT1H",
            "SUMMARY:Choir at the wrong hour",
          ),
          "BEGIN:VEVENT",
          "UID:board@community.test",
        ].join("\r\n"),
      );
    const { report } = await run(changed);
    expect(report).toMatchObject({ created: 0, updated: 1, unchanged: 3, skipped: 1 });
    expect(report.notes).toEqual([
      {
        uid: "choir@community.test#20260304T180000Z",
        // Its BEGIN:VEVENT, two lines above (1-based).
        line: changed.split("\r\n").indexOf("RECURRENCE-ID;TZID=Europe/Berlin:20260304T190000") - 1,
        message: expect.stringMatching(
          /names no occurrence of the series \d+ \(none starts at 2026-03-04 19:00:00\): left out/,
        ),
      },
    ]);
    const choir = await byUid("choir@community.test");
    const titles = (await occurrences(choir.id)).map((e) => e.title);
    expect(titles.filter((t) => t !== "Choir")).toEqual(["Choir (moved again)"]);
    expect(titles).toHaveLength(16);
  });

  it("merge the occurrences an earlier importer made as events ({UID}#{start}) into the series", async () => {
    // What the previous importer did: every occurrence an event of its own, through the API.
    const old = parseIcs(SERIES(), { until: UNTIL });
    const copies = old.series
      .filter((s) => s.uid !== "walk@community.test")
      .flatMap((s) => s.copies);
    const made = await importEvents(client, copies, { retryDelayMs: 1 });
    expect(made).toMatchObject({ created: 23 });
    const first = await byUid("choir@community.test#20260302T170000Z");
    const boardFirst = await byUid("board@community.test#20260102T100000Z");
    const second = await byUid("choir@community.test#20260304T170000Z");
    expect(first.title).toBe("Choir");

    // A dry run says what it would merge, and writes nothing.
    const dry = await importEvents(client, old.events, {
      retryDelayMs: 1,
      series: old.series,
      dryRun: true,
    });
    expect(dry.merged.map((m) => [m.uid, m.series, m.copies])).toEqual([
      ["choir@community.test", first.id, 16],
      ["board@community.test", boardFirst.id, 7],
    ]);
    expect(await byUid("choir@community.test")).toBeUndefined();
    expect(await byUid("choir@community.test#20260304T170000Z")).toMatchObject({ id: second.id });

    const { report } = await run(SERIES());
    expect(report.merged).toEqual([
      { uid: "choir@community.test", line: 4, series: first.id, copies: 16 },
      {
        uid: "board@community.test",
        line: lineOfUid("board@community.test"),
        series: boardFirst.id,
        copies: 7,
      },
    ]);
    // The copies of the first occurrences became the series; the walk is new; the change applied.
    expect(report).toMatchObject({ created: 1, updated: 3, removed: [] });
    const choir = await byUid("choir@community.test");
    expect(choir.id).toBe(first.id);
    expect(choir.series.id).toBe(first.id);
    // No copy left: each occurrence is listed once, by the series.
    for (const s of old.series)
      for (const key of s.keys) expect(await byUid(`${s.uid}#${key}`)).toBeUndefined();
    const all = (await stored()).filter((e) => e.title.startsWith("Choir"));
    expect(all).toHaveLength(16);
    expect(all.every((e) => e.series?.id === first.id)).toBe(true);
    expect(all.map(listedDates)).toEqual(
      old.series[0].copies.map(expanded).sort((a, b) => (a[1] < b[1] ? -1 : 1)),
    );
    // The other copies are deleted for good (sync clients learn it from /deleted).
    const deleted = (await api(`${NS}/deleted?type=event&per_page=100`)).body.deleted;
    expect(deleted).toContainEqual(expect.objectContaining({ id: second.id, status: "deleted" }));
    expect((await api(`${NS}/events/${second.id}`, { headers: ADMIN })).status).toBe(404);

    const again = await run(SERIES());
    expect(again.report).toMatchObject({ created: 0, updated: 0, unchanged: 4, merged: [] });
  });

  it("a rule the instance refuses is imported as before, one event per occurrence", async () => {
    const text = calendar(
      vevent(
        "UID:twice@community.test",
        "DTSTART:20260601T090000Z",
        "DURATION:PT1H",
        "SUMMARY:Twice a day",
        "RRULE:FREQ=DAILY;COUNT=3;BYHOUR=9,17",
      ),
    );
    const { report } = await run(text);
    expect(report).toMatchObject({ total: 3, created: 3, updated: 0 });
    expect(report.notes).toEqual([
      {
        uid: "twice@community.test",
        line: 4,
        message: expect.stringMatching(
          /refuses the series' recurrence .*: imported as 3 separate occurrences/,
        ),
      },
    ]);
    expect(await byUid("twice@community.test")).toBeUndefined();
    expect(await byUid("twice@community.test#20260601T170000Z")).toMatchObject({
      title: "Twice a day",
      start_date: "2026-06-01 17:00:00",
    });
    expect((await run(text)).report).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it("a series in a zone only the file's VTIMEZONE defines is imported as copies, with a note", async () => {
    const zone = FIXTURE_LINES.slice(
      FIXTURE_LINES.indexOf("BEGIN:VTIMEZONE"),
      FIXTURE_LINES.indexOf("END:VTIMEZONE") + 1,
    ).map((l) => l.replace("TZID:America/New_York", "TZID:Eastern Standard Time"));
    const text = calendar(
      zone,
      vevent(
        "UID:standup@community.test",
        'DTSTART;TZID="Eastern Standard Time":20261028T090000',
        "DURATION:PT15M",
        "SUMMARY:Standup",
        "RRULE:FREQ=WEEKLY;COUNT=3",
      ),
    );
    const { report } = await run(text);
    expect(report).toMatchObject({ total: 3, created: 3 });
    expect(report.notes).toEqual([
      {
        uid: "standup@community.test",
        line: zone.length + 4,
        message:
          "imported as 3 separate occurrences ({UID}#{start}): its DTSTART's TZID Eastern Standard Time is not an IANA time zone",
      },
    ]);
    // The file's zone's wall clock: 09:00 EDT, then 09:00 EST after 1 November.
    expect(
      (await stored())
        .filter((e) => e.title === "Standup")
        .map((e) => [e.utc_start_date, e.series]),
    ).toEqual([
      ["2026-10-28 13:00:00", undefined],
      ["2026-11-04 14:00:00", undefined],
      ["2026-11-11 14:00:00", undefined],
    ]);
    expect((await run(text)).report).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it("a stored series whose new rule the instance refuses stays as it was, without copies", async () => {
    await run(SERIES());
    const refused = SERIES().replace(
      "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260429T160000Z",
      "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=18,20;UNTIL=20260429T160000Z",
    );
    const { report } = await run(refused);
    expect(report).toMatchObject({ created: 0, updated: 0, unchanged: 3, skipped: 1 });
    expect(report.notes).toEqual([
      {
        uid: "choir@community.test",
        line: 4,
        message: expect.stringMatching(
          /refuses the series' new recurrence .*: the series \d+ is left as it was/,
        ),
      },
    ]);
    const choir = await byUid("choir@community.test");
    expect(choir.series.recurrence[0]).toBe("RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260429T160000Z");
    expect(await byUid("choir@community.test#20260302T170000Z")).toBeUndefined();
    expect((await occurrences(choir.id)).map((e) => e.title)).toContain("Choir (moved)");
  });

  it("a change of the first occurrence, which is the series itself, is noted and left out", async () => {
    const text = calendar(
      vevent(
        "UID:club@community.test",
        "DTSTART:20260601T180000Z",
        "DURATION:PT1H",
        "SUMMARY:Club",
        "RRULE:FREQ=WEEKLY;COUNT=3",
      ),
      vevent(
        "UID:club@community.test",
        "RECURRENCE-ID:20260601T180000Z",
        "DTSTART:20260601T170000Z",
        "DURATION:PT2H",
        "SUMMARY:Club kick-off",
      ),
    );
    const { report } = await run(text);
    expect(report).toMatchObject({ total: 2, created: 1, skipped: 1 });
    expect(report.notes[0].message).toMatch(/names the series' first occurrence/);
    const club = await byUid("club@community.test");
    expect((await occurrences(club.id)).map((e) => [e.title, e.start_date])).toEqual([
      ["Club", "2026-06-01 18:00:00"],
      ["Club", "2026-06-08 18:00:00"],
      ["Club", "2026-06-15 18:00:00"],
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
