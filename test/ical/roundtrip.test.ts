/**
 * The feed's round trip (contract §7): export a calendar, empty the instance, import the feed with
 * the iCalendar importer (tools/import, what `npm run import` runs) and compare the events the API
 * shows before and after. What iCalendar carries must come back unchanged: titles, descriptions
 * (HTML), dates with their zones, all-day events, venues with address, phone, website and
 * coordinates, organizers with e-mail, phone and website in order, categories, websites and images.
 */
import { applyD1Migrations, reset, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clearStringsCache, stringsKey } from "../../src/i18n";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";
import { forgetVersion } from "../../src/read-cache/version";
import { parseIcs } from "../../tools/import/ics";
import { importEvents } from "../../tools/import/importer";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { feed } from "./support";

const WINDOW = "start_date=2020-01-01&end_date=2035-12-31";

/** A fresh, empty instance (what test/setup.ts does before every test). */
async function freshInstance() {
  await reset();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await env.STRINGS.put(stringsKey("en"), JSON.stringify(en));
  await env.STRINGS.put(stringsKey("de"), JSON.stringify(de));
  clearStringsCache();
  // A new database: what this isolate remembers of the old one is gone too.
  forgetVersion();
}

async function create(body: Record<string, unknown>) {
  const res = await api(`${NS}/events`, { json: body, headers: ADMIN });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The events as the API shows them, without what a new instance numbers or stamps anew. */
async function shown(): Promise<unknown[]> {
  const res = await api(`${NS}/events?${WINDOW}&per_page=50`);
  expect(res.status).toBe(200);
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!value || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (
        [
          "id",
          "global_id",
          "global_id_lineage",
          "rest_url",
          "date",
          "date_utc",
          "modified",
          "modified_utc",
          "urls",
          "term_taxonomy_id",
        ].includes(k)
      )
        continue;
      out[k] = strip(v);
    }
    return out;
  };
  return strip(res.body.events) as unknown[];
}

describe("GET /events.ics → import into an empty instance", () => {
  it("reproduces the same events", async () => {
    const hall = {
      venue: "Blue Room",
      address: "100 Main St",
      city: "Springfield",
      state: "IL",
      zip: "62701",
      country: "United States",
      phone: "+1 555 0100",
      website: "https://blueroom.example.com",
      geo_lat: 39.78,
      geo_lng: -89.65,
    };
    const berlin = {
      venue: "Kulturhaus",
      address: "Hauptstraße 1",
      city: "Berlin",
      province: "Berlin",
      zip: "10115",
      country: "Germany",
    };
    await create({
      title: "Jazz Night",
      description:
        "<p>An evening of <strong>live jazz</strong>; bring friends, too.</p>\n<p>Second paragraph.</p>",
      start_date: "2030-12-05 19:00:00",
      end_date: "2030-12-05 22:30:00",
      timezone: "America/New_York",
      website: "https://example.com/jazz",
      image: "https://img.example.com/jazz.jpg",
      venue: hall,
      organizer: [
        {
          organizer: "Springfield Arts",
          email: "arts@example.com",
          phone: "+1 555 0199",
          website: "https://arts.example.com",
        },
        { organizer: "Night Crew" },
      ],
      categories: ["Music", "Nightlife"],
    });
    await create({
      title: "Summer fair",
      description: "Plain text\nwith a line break",
      start_date: "2030-07-01",
      end_date: "2030-07-03",
      all_day: true,
      venue: hall,
      categories: ["Music"],
    });
    await create({
      title: "Lesung",
      start_date: "2030-03-29 01:30:00",
      end_date: "2030-03-29 04:00:00",
      timezone: "Europe/Berlin",
      venue: berlin,
      organizer: [{ organizer: "Night Crew" }],
    });
    await create({
      title: "Offset talk",
      start_date: "2031-01-10 09:00:00",
      end_date: "2031-01-10 10:00:00",
      timezone: "UTC+5:30",
    });
    await create({
      title: "Morning Yoga",
      start_date: "2030-12-06 08:00:00",
      end_date: "2030-12-06 09:00:00",
      timezone: "UTC",
    });

    const before = await shown();
    expect(before).toHaveLength(5);
    // As the administrator: an anonymous answer would be stored in the edge cache after the reset below.
    const exported = await feed(`?${WINDOW}`, ADMIN);
    expect(exported.status).toBe(200);

    await freshInstance();
    expect(await shown()).toEqual([]);
    const calendar = parseIcs(exported.text);
    expect(calendar.warnings).toEqual([]);
    const report = await importEvents(
      {
        base: `${ORIGIN}${NS}`,
        authorization: ADMIN.authorization,
        fetch: (url, init) => SELF.fetch(url, init),
      },
      calendar.events,
      { retryDelayMs: 1 },
    );
    expect(report).toMatchObject({ total: 5, created: 5, updated: 0 });
    expect(await shown()).toEqual(before);

    // The second generation's feed imports onto itself as unchanged: the round trip is a fixed point.
    const again = await feed(`?${WINDOW}`, ADMIN);
    const second = await importEvents(
      {
        base: `${ORIGIN}${NS}`,
        authorization: ADMIN.authorization,
        fetch: (url, init) => SELF.fetch(url, init),
      },
      parseIcs(again.text).events,
      { retryDelayMs: 1 },
    );
    expect(second).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
  });
});
