import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { IcsError, parseIcs } from "../../tools/import/ics";
import { type FetchLike, type ImportOptions, importEvents } from "../../tools/import/importer";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { db } from "../support/factories";
import { FIXTURE, variant } from "./fixture";

const workerFetch: FetchLike = (url, init) => SELF.fetch(url, init);

/** What `npm run import` does: parse everything, then import through the API as the administrator. */
async function importText(
  text: string,
  options: ImportOptions = {},
  fetch: FetchLike = workerFetch,
) {
  return importEvents(
    { base: `${ORIGIN}${NS}`, authorization: ADMIN.authorization, fetch },
    parseIcs(text).events,
    { retryDelayMs: 1, ...options },
  );
}

/** The stored events of the fixture's dates, by title. */
async function stored(): Promise<Record<string, any>> {
  const res = await api(`${NS}/events?start_date=2025-05-01&end_date=2025-12-31&per_page=50`, {
    headers: ADMIN,
  });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.events.map((e: any) => [e.title, e]));
}

const KEYNOTE = "Opening keynote with a long title that an exporter folded across two lines";

describe("importEvents", () => {
  it("creates events with the file's local and UTC times, one venue per LOCATION, organizers and categories", async () => {
    const progress: number[] = [];
    const report = await importText(FIXTURE, { onProgress: (p) => progress.push(p.done) });
    expect(report).toMatchObject({ total: 4, created: 4, updated: 0, unchanged: 0, skipped: 0 });
    expect(progress.at(-1)).toBe(4);

    const e = await stored();
    expect(Object.keys(e).sort()).toEqual([
      "Looking At Audio",
      KEYNOTE,
      "Sprints",
      "Winter social",
    ]);
    // UTC in the file, no --timezone: the site's zone (UTC), same instant.
    expect(e["Looking At Audio"]).toMatchObject({
      start_date: "2025-05-17 17:30:00",
      utc_start_date: "2025-05-17 17:30:00",
      utc_end_date: "2025-05-17 18:15:00",
      timezone: "UTC",
      all_day: false,
      description: "<p>Sound, <strong>seen</strong> &amp; heard.</p>\n<p>Second paragraph.</p>",
      website: "https://example.com/talks/1",
    });
    // TZID=America/New_York: the wall clock and zone kept, UTC computed (EDT in May, EST in December).
    expect(e[KEYNOTE]).toMatchObject({
      start_date: "2025-05-16 09:30:00",
      end_date: "2025-05-16 11:00:00",
      utc_start_date: "2025-05-16 13:30:00",
      utc_end_date: "2025-05-16 15:00:00",
      timezone: "America/New_York",
      timezone_abbr: "EDT",
      description: "<p>Welcome to Fixture Conf.</p>",
    });
    expect(e["Winter social"]).toMatchObject({
      start_date: "2025-12-05 19:00:00",
      utc_start_date: "2025-12-06 00:00:00",
      timezone_abbr: "EST",
      venue: [],
    });
    // VALUE=DATE, DTEND exclusive: the 19th and the 20th.
    expect(e.Sprints).toMatchObject({
      all_day: true,
      start_date: "2025-05-19 00:00:00",
      end_date: "2025-05-20 23:59:59",
    });

    // Two events in "Ballroom A" share one venue; one organizer for both; "talks" is the "Talks" category.
    expect(e["Looking At Audio"].venue.venue).toBe("Ballroom A");
    expect(e[KEYNOTE].venue.id).toBe(e["Looking At Audio"].venue.id);
    expect((await db().select().from(schema.venues)).map((v) => v.title).sort()).toEqual([
      "Ballroom A",
      "Room 301-305",
    ]);
    expect(e[KEYNOTE].organizer.map((o: any) => [o.id, o.organizer])).toEqual(
      e["Looking At Audio"].organizer.map((o: any) => [o.id, o.organizer]),
    );
    expect(e["Looking At Audio"].organizer[0]).toMatchObject({
      organizer: "Jane Doe",
      email: "jane@example.com",
    });
    expect((await db().select().from(schema.organizers)).length).toBe(1);
    expect(e["Looking At Audio"].categories.map((c: any) => c.name)).toEqual(["Audio", "Talks"]);
    expect(e[KEYNOTE].categories.map((c: any) => c.name)).toEqual(["Keynotes", "Talks"]);
    expect(e.Sprints.categories.map((c: any) => c.name)).toEqual(["Sprints"]);
  });

  it("creates nothing on a second import, and updates exactly the event whose SUMMARY changed", async () => {
    await importText(FIXTURE);
    const before = await stored();

    const again = await importText(FIXTURE);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 4, skipped: 0 });

    const renamed = variant((l) =>
      l.map((x) => (x === "SUMMARY:Looking At Audio" ? "SUMMARY:Listening To Audio" : x)),
    );
    const third = await importText(renamed.text);
    expect(third).toMatchObject({ created: 0, updated: 1, unchanged: 3 });
    const after = await stored();
    expect(Object.keys(after)).not.toContain("Looking At Audio");
    expect(after["Listening To Audio"]).toMatchObject({
      id: before["Looking At Audio"].id,
      utc_start_date: "2025-05-17 17:30:00",
    });
    expect(after["Listening To Audio"].venue.id).toBe(before["Looking At Audio"].venue.id);
    expect((await db().select().from(schema.events)).length).toBe(4);
    expect(await importText(renamed.text)).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
  });

  it("imports an event whose IMAGE the instance refuses without it, with a note, and does not retry it as a change", async () => {
    const pictured = variant((l) =>
      l.flatMap((x) =>
        x === "SUMMARY:Looking At Audio"
          ? [x, "IMAGE;VALUE=URI:https://img.example.com/missing.jpg"]
          : x === "SUMMARY:Sprints"
            ? [x, "IMAGE;VALUE=URI:https://img.example.com/sprints.png"]
            : [x],
      ),
    );
    const first = await importText(pictured.text);
    expect(first).toMatchObject({ created: 4, updated: 0, unchanged: 0 });
    expect(first.notes).toEqual([
      expect.objectContaining({
        uid: "talk-1@fixture.test",
        message: expect.stringContaining("https://img.example.com/missing.jpg"),
      }),
    ]);
    const e = await stored();
    expect(e["Looking At Audio"].image).toBe(false);
    expect(e.Sprints.image.url).toBe("https://img.example.com/sprints.png");
    // The next run finds the image still refused: nothing to write, the same note.
    const again = await importText(pictured.text);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    expect(again.notes).toHaveLength(1);
  });

  it("leaves an imported event that was trashed in the trash", async () => {
    await importText(FIXTURE);
    const talk = (await stored())["Looking At Audio"];
    expect(
      (await api(`${NS}/events/${talk.id}`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(200);
    const again = await importText(FIXTURE);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3, skipped: 1 });
    expect(again.notes).toEqual([
      {
        uid: "talk-1@fixture.test",
        line: 22,
        message: `event ${talk.id} is in the trash: left there`,
      },
    ]);
  });

  it("gives zone-less events the --timezone zone, and moves them when it changes", async () => {
    await importText(FIXTURE, { timezone: "America/New_York" });
    let e = await stored();
    expect(e["Looking At Audio"]).toMatchObject({
      timezone: "America/New_York",
      start_date: "2025-05-17 13:30:00",
      utc_start_date: "2025-05-17 17:30:00",
    });
    expect(e.Sprints).toMatchObject({
      timezone: "America/New_York",
      start_date: "2025-05-19 00:00:00",
    });
    // Without the option, zones are not compared: nothing to do.
    expect(await importText(FIXTURE)).toMatchObject({ unchanged: 4 });
    // Another zone: the two events without a zone of their own move; the instant of the UTC one stays.
    expect(await importText(FIXTURE, { timezone: "Europe/Berlin" })).toMatchObject({
      updated: 2,
      unchanged: 2,
    });
    e = await stored();
    expect(e["Looking At Audio"]).toMatchObject({
      timezone: "Europe/Berlin",
      start_date: "2025-05-17 19:30:00",
      utc_start_date: "2025-05-17 17:30:00",
    });
    await expect(importText(FIXTURE, { timezone: "Mars/Base" })).rejects.toThrow(
      /unknown time zone "Mars\/Base"/,
    );
  });

  it("imports events that share a long title (slugs kept under D1's 50-byte GLOB limit)", async () => {
    const title = "Registration and Information Desks Open in the Main Concourse";
    const events = ["15", "16", "17"].map((day) =>
      [
        "BEGIN:VEVENT",
        `UID:desk-${day}@fixture.test`,
        `DTSTART:202505${day}T110000Z`,
        `SUMMARY:${title}`,
        "END:VEVENT",
      ].join("\r\n"),
    );
    const report = await importText(
      ["BEGIN:VCALENDAR", "VERSION:2.0", ...events, "END:VCALENDAR"].join("\r\n"),
    );
    expect(report.created).toBe(3);
    const list = await api(`${NS}/events?start_date=2025-05-01&end_date=2025-05-31`, {
      headers: ADMIN,
    });
    const slugs = list.body.events.map((e: any) => e.slug).sort();
    expect(slugs).toEqual([
      "registration-and-information-desks-open-in",
      "registration-and-information-desks-open-in-2",
      "registration-and-information-desks-open-in-3",
    ]);
  });

  it("imports nothing from a malformed file", async () => {
    const bad = [
      variant((l) => l.filter((x, i) => !(x === "END:VEVENT" && i > 40))).text,
      variant((l) =>
        l.map((x) => (x === "DTSTART:20250517T173000Z" ? "DTSTART:20250517T176000Z" : x)),
      ).text,
      variant((l) => l.filter((x) => x !== "UID:winter@fixture.test")).text,
    ];
    for (const text of bad) await expect(importText(text)).rejects.toBeInstanceOf(IcsError);
    expect((await db().select().from(schema.events)).length).toBe(0);
  });

  it("retries network errors and 5xx, without creating an event twice", async () => {
    let posts = 0;
    const flaky: FetchLike = async (url, init) => {
      if (init.method === "POST" && ++posts === 1) {
        // The first create is stored, but its answer is lost on the way back.
        await SELF.fetch(url, init);
        throw new TypeError("network connection lost");
      }
      if (init.method === "POST" && posts === 2)
        return new Response("upstream busy", { status: 503 });
      return SELF.fetch(url, init);
    };
    const report = await importText(FIXTURE, { concurrency: 1 }, flaky);
    expect(report).toMatchObject({ created: 4, updated: 0 });
    expect((await db().select().from(schema.events)).length).toBe(4);
  });

  it("stops at the first refused request with the server's error", async () => {
    const refusing: FetchLike = (url, init) =>
      init.method === "POST"
        ? Promise.resolve(
            Response.json(
              {
                code: "rest_forbidden",
                message: "Sorry, you are not allowed to do that.",
                data: { status: 403 },
              },
              { status: 403 },
            ),
          )
        : SELF.fetch(url, init);
    const failed = importText(FIXTURE, { concurrency: 1 }, refusing);
    await expect(failed).rejects.toThrow(
      /creating "Looking At Audio" \(UID talk-1@fixture\.test, line \d+\) failed: HTTP 403 rest_forbidden/,
    );
    const wrong = importEvents(
      { base: `${ORIGIN}${NS}`, authorization: `Basic ${btoa("admin:wrong")}`, fetch: workerFetch },
      parseIcs(FIXTURE).events,
    );
    await expect(wrong).rejects.toThrow(/looking up 4 UIDs failed: HTTP 401 incorrect_password/);
  });
});
