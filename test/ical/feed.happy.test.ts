import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { api, NS, ORIGIN } from "../support/api";
import { day } from "../support/dates";
import { db, seedEvent, seedMedia, seedOrganizer, seedTerm, seedVenue } from "../support/factories";
import { feed, parse, prop } from "./support";

async function jazzNight() {
  const venue = await seedVenue({
    title: "Blue Room",
    address: "100 Main St",
    city: "Springfield",
    state: "IL",
    stateprovince: "IL",
    zip: "62701",
    country: "United States",
    geoLat: 39.8,
    geoLng: -89.6,
  });
  const arts = await seedOrganizer({
    title: "Springfield Arts",
    email: "arts@example.com",
    phone: "+1 555 0199",
  });
  const crew = await seedOrganizer({ title: "Night Crew", website: "https://crew.example.com" });
  const music = await seedTerm("tribe_events_cat", "Music");
  const night = await seedTerm("tribe_events_cat", "Nightlife, late");
  const tag = await seedTerm("post_tag", "jazz");
  const image = await seedMedia("https://img.example.com/jazz.jpg");
  const id = await seedEvent({
    title: "Jazz Night",
    start: day(3, "19:00:00"),
    end: day(3, "22:30:00"),
    timezone: "America/New_York",
    venueId: venue,
    organizerIds: [arts, crew],
    termIds: [night, music, tag],
    content: "<p>An evening of <strong>live jazz</strong>; bring friends, too.</p>",
    website: "https://example.com/jazz",
  });
  await db().update(schema.events).set({ imageId: image }).where(eq(schema.events.id, id));
  return id;
}

describe("GET /events.ics: an RFC 5545 calendar (contract §7)", () => {
  it("answers text/calendar that ical.js reads, lines folded at 75 octets with CRLF", async () => {
    await jazzNight();
    await seedEvent({ title: `Long ${"ü".repeat(60)} title; with, specials\\`, start: day(4) });
    const res = await feed();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.text.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:")).toBe(true);
    expect(res.text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    const physical = res.text.split("\r\n").slice(0, -1);
    for (const line of physical)
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(res.text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    // A multi-octet character is never cut in two (the decoder would show U+FFFD).
    expect(res.text).not.toContain("\uFFFD");
    const { events } = parse(res.text);
    expect(events.map((e) => e.summary)).toEqual([
      "Jazz Night",
      `Long ${"ü".repeat(60)} title; with, specials\\`,
    ]);
  });

  it("names the calendar as the REST index names the site, in the request's language", async () => {
    for (const [prefix, name] of [
      ["", "Events Calendar"],
      ["/en", "Events Calendar"],
      ["/de", "Veranstaltungskalender"],
    ]) {
      const res = await SELF.fetch(`${ORIGIN}${prefix}${NS}/events.ics`);
      const text = await res.text();
      const index = (await (await SELF.fetch(`${ORIGIN}${prefix}/wp-json/`)).json()) as {
        name: string;
      };
      expect(index.name).toBe(name);
      expect(text).toContain(`\r\nX-WR-CALNAME:${name}\r\n`);
      expect(text).toContain(`\r\nNAME:${name}\r\n`);
    }
  });

  it("writes each field as its iCalendar property, times in the event's zone with its VTIMEZONE", async () => {
    const id = await jazzNight();
    const json = (await api(`${NS}/events/${id}`)).body;
    const { calendar, events } = parse((await feed()).text);
    const [e] = events;
    expect(e).toMatchObject({
      uid: `${id}@calendar.test`,
      summary: "Jazz Night",
      tzid: "America/New_York",
      allDay: false,
    });
    // The VTIMEZONE converts the wall clock to the stored UTC instant.
    expect(e.start).toBe(json.utc_start_date);
    expect(e.end).toBe(json.utc_end_date);
    expect(calendar.getAllSubcomponents("vtimezone").map((z) => prop(z, "tzid"))).toEqual([
      "America/New_York",
    ]);
    const c = e.component;
    expect(prop(c, "description")).toBe("An evening of live jazz; bring friends, too.");
    expect(prop(c, "x-alt-desc")).toBe(
      "<p>An evening of <strong>live jazz</strong>; bring friends, too.</p>",
    );
    expect(prop(c, "location")).toBe(
      "Blue Room, 100 Main St, Springfield, IL, 62701, United States",
    );
    expect(c.getFirstPropertyValue("geo")).toEqual([39.8, -89.6]);
    const organizer = c.getFirstProperty("organizer")!;
    expect(organizer.getFirstValue()).toBe("mailto:arts@example.com");
    expect(organizer.getParameter("cn")).toBe("Springfield Arts");
    expect(c.getAllProperties("organizer")).toHaveLength(1);
    // Categories only (tags are not categories), by name; a comma inside a name survives escaping.
    expect(c.getFirstProperty("categories")!.getValues()).toEqual(["Music", "Nightlife, late"]);
    expect(prop(c, "url")).toBe("https://example.com/jazz");
    expect(prop(c, "image")).toBe("https://img.example.com/jazz.jpg");
    expect(prop(c, "status")).toBe("CONFIRMED");
    expect(prop(c, "dtstamp")).toBe("2026-01-01T10:00:00Z");
    expect(prop(c, "last-modified")).toBe("2026-01-01T10:00:00Z");
    // RFC 9073: the venue and every organizer, as schema.org JSON-LD.
    const location = c.getFirstSubcomponent("vlocation")!;
    expect(prop(location, "name")).toBe("Blue Room");
    expect(JSON.parse(prop(location, "structured-data")!)).toMatchObject({
      "@type": "Place",
      address: { streetAddress: "100 Main St", postalCode: "62701" },
      geo: { latitude: 39.8 },
    });
    const people = c.getAllSubcomponents("vparticipant");
    expect(people.map((p) => JSON.parse(prop(p, "structured-data")!).name)).toEqual([
      "Springfield Arts",
      "Night Crew",
    ]);
    expect(people.map((p) => prop(p, "calendar-address"))).toEqual([
      "mailto:arts@example.com",
      undefined,
    ]);
  });

  it("writes all-day events as DATEs with an exclusive DTEND, and keeps a stored UID", async () => {
    const id = await seedEvent({
      title: "Fair",
      start: day(5, "00:00:00"),
      end: day(6, "23:59:59"),
      allDay: true,
    });
    await db()
      .update(schema.events)
      .set({ uid: "fair-2026@import.example" })
      .where(eq(schema.events.id, id));
    const text = (await feed()).text;
    expect(text).toContain(`DTSTART;VALUE=DATE:${day(5).slice(0, 10).replace(/-/g, "")}\r\n`);
    const [e] = parse(text).events;
    expect(e).toMatchObject({
      uid: "fair-2026@import.example",
      allDay: true,
      start: day(5).slice(0, 10),
      end: day(7).slice(0, 10),
    });
    expect(parse(text).calendar.getAllSubcomponents("vtimezone")).toHaveLength(0);
    expect(prop(e.component, "url")).toBe("http://calendar.test/event/fair/");
  });

  it("gives every zone in use a VTIMEZONE whose transitions put each event at its stored instant", async () => {
    const zones = [
      "Europe/Berlin",
      "Australia/Lord_Howe",
      "Asia/Kolkata",
      "America/Sao_Paulo",
      "UTC",
      "UTC+5:30",
    ];
    const ids: number[] = [];
    // One event per zone in winter and one in summer, years apart, so several transitions matter.
    for (const [i, zone] of zones.entries()) {
      ids.push(
        await seedEvent({
          title: `${zone} Jan`,
          start: `2019-01-1${i} 09:30:00`,
          end: `2019-01-1${i} 11:00:00`,
          timezone: zone,
        }),
      );
      ids.push(
        await seedEvent({
          title: `${zone} Jul`,
          start: `2027-07-1${i} 02:30:00`,
          end: `2027-07-1${i} 04:00:00`,
          timezone: zone,
        }),
      );
    }
    const list = (await api(`${NS}/events?start_date=2018-01-01&end_date=2028-12-31&per_page=50`))
      .body.events;
    const { calendar, events } = parse(
      (await feed("?start_date=2018-01-01&end_date=2028-12-31")).text,
    );
    expect(
      calendar
        .getAllSubcomponents("vtimezone")
        .map((z) => prop(z, "tzid"))
        .sort(),
    ).toEqual([...zones].sort());
    expect(events.map((e) => [e.summary, e.tzid, e.start, e.end])).toEqual(
      list.map((e: any) => [e.title, e.timezone, e.utc_start_date, e.utc_end_date]),
    );
  });

  it("lists what /events lists, in its order, with the same filters and without a page cap", async () => {
    const music = await seedTerm("tribe_events_cat", "Music");
    await seedEvent({ title: "Yesterday's past", start: day(-5) });
    await seedEvent({ title: "B", start: day(2), termIds: [music] });
    await seedEvent({ title: "A", start: day(1) });
    await seedEvent({ title: "Hidden", start: day(1), hidden: true });
    await seedEvent({ title: "C", start: day(3), termIds: [music] });
    const titles = async (q: string) => parse((await feed(q)).text).events.map((e) => e.summary);
    const listed = async (q: string) =>
      (await api(`${NS}/events${q}`)).body.events.map((e: any) => e.title);
    expect(await titles("")).toEqual(["A", "B", "C"]);
    expect(await titles("")).toEqual(await listed(""));
    expect(await titles("?categories=music")).toEqual(["B", "C"]);
    expect(await titles("?start_date=2000-01-01")).toEqual(await listed("?start_date=2000-01-01"));
    expect(await titles("?search=B")).toEqual(["B"]);
    // page and per_page are validated, then ignored: the feed always holds everything.
    expect(await titles("?per_page=1&page=3")).toEqual(["A", "B", "C"]);
  });

  it("streams large calendars chunk by chunk: 600 events arrive complete, in order, in several chunks", async () => {
    const stmts = [];
    for (let i = 0; i < 600; i++) {
      // Two events per start minute: ties are broken by post date, then id, as in the archive.
      const j = Math.floor(i / 2);
      const at = `${10 + Math.floor(j / 60)}:${String(j % 60).padStart(2, "0")}:00`;
      const utc = `${9 + Math.floor(j / 60)}:${String(j % 60).padStart(2, "0")}:00`.padStart(
        8,
        "0",
      );
      stmts.push(
        `INSERT INTO posts (id, post_type) VALUES (${1000 + i}, 'tribe_events')`,
        `INSERT INTO events (id, author, status, slug, title, post_date, post_date_gmt, post_modified, post_modified_gmt, start_date, end_date, start_date_utc, end_date_utc, timezone, timezone_abbr) VALUES (${1000 + i}, 1, 'publish', 'e-${i}', 'Event ${i}', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '2030-01-01 ${at}', '2030-01-01 23:00:00', '2030-01-01 ${utc}', '2030-01-01 22:00:00', 'Europe/Berlin', 'CET')`,
      );
    }
    const { env } = await import("cloudflare:workers");
    await env.DB.batch(stmts.map((s) => env.DB.prepare(s)));
    await env.DB.prepare("UPDATE content_version SET version = version + 1").run();
    const res = await feed("?start_date=2029-12-31&end_date=2030-01-02");
    expect(res.chunks).toBeGreaterThanOrEqual(3);
    const { events } = parse(res.text);
    expect(events).toHaveLength(600);
    expect(events.map((e) => e.uid)).toEqual(
      [...Array(600).keys()].map((i) => `${1000 + i}@calendar.test`),
    );
    expect(events[599].start).toBe("2030-01-01 13:59:00");
  });

  it("carries the cache headers of every anonymous GET: ETag and 304, but is not stored whole in the edge cache", async () => {
    await jazzNight();
    const first = await feed();
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(first.headers.get("cache-control")).toBe(
      "public, max-age=60, stale-while-revalidate=300",
    );
    // (api returns once the work the first answer left behind, its waitUntil, is done.)
    // A stored copy would tee the stream and buffer up to the whole feed for a slow client.
    const second = await feed();
    expect(second.headers.get("x-cache")).toBe("MISS");
    expect(second.headers.get("etag")).toBe(etag);
    expect(second.text).toBe(first.text);
    const notModified = await feed("", { "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe("");
    // /events and /events.ics have their own tags.
    expect((await api(`${NS}/events`)).headers.get("etag")).not.toBe(etag);
  });
});
