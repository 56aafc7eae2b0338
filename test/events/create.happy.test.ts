import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { EVENT_KEYS } from "../support/event-keys";

// The request bodies recorded against the original (../shared/data/tec-samples/03-05).
const JAZZ = {
  title: "Jazz Night",
  description: "<p>An evening of <strong>live jazz</strong>.</p>",
  excerpt: "Live jazz",
  start_date: "2026-12-05 19:00:00",
  end_date: "2026-12-05 22:30:00",
  timezone: "America/New_York",
  cost: "15",
  website: "https://example.com/jazz",
  featured: true,
  venue: {
    venue: "Blue Room",
    address: "100 Main St",
    city: "Springfield",
    country: "United States",
    state: "IL",
    zip: "62701",
    phone: "+1 555 0100",
    website: "https://blueroom.example.com",
  },
  organizer: [
    {
      organizer: "Springfield Arts",
      email: "arts@example.com",
      phone: "+1 555 0199",
      website: "https://arts.example.com",
    },
  ],
  categories: ["Music", "Nightlife"],
  tags: ["jazz", "live"],
};

describe("POST /events", () => {
  it("creates an event with a new venue, organizer, categories and tags, as the original does", async () => {
    const res = await api(`${NS}/events`, { json: JAZZ, headers: ADMIN });
    expect(res.status).toBe(201);
    const e = res.body;
    expect(Object.keys(e)).toEqual(EVENT_KEYS);
    expect(e).toMatchObject({
      author: "1",
      status: "publish",
      title: "Jazz Night",
      description: "<p>An evening of <strong>live jazz</strong>.</p>",
      excerpt: "<p>Live jazz</p>",
      slug: "jazz-night",
      image: false,
      all_day: false,
      start_date: "2026-12-05 19:00:00",
      end_date: "2026-12-05 22:30:00",
      utc_start_date: "2026-12-06 00:00:00",
      utc_end_date: "2026-12-06 03:30:00",
      utc_start_date_details: {
        year: "2026",
        month: "12",
        day: "06",
        hour: "00",
        minutes: "00",
        seconds: "00",
      },
      timezone: "America/New_York",
      timezone_abbr: "EST",
      cost: "$15",
      cost_details: {
        currency_symbol: "",
        currency_code: "",
        currency_position: "",
        values: ["15"],
      },
      website: "https://example.com/jazz",
      featured: true,
      custom_fields: [],
    });
    expect(e.categories.map((t: any) => t.name)).toEqual(["Music", "Nightlife"]);
    expect(e.tags.map((t: any) => [t.name, t.taxonomy, t.count])).toEqual([
      ["jazz", "post_tag", 1],
      ["live", "post_tag", 1],
    ]);
    expect(e.venue).toMatchObject({
      venue: "Blue Room",
      stateprovince: "IL",
      city: "Springfield",
      show_map: true,
    });
    expect(e.organizer.map((o: any) => o.organizer)).toEqual(["Springfield Arts"]);
    // Venue and organizer are created first, then the event: ids share one sequence (contract §2).
    expect([e.venue.id, e.organizer[0].id, e.id]).toEqual([1, 2, 3]);
    expect(e.rest_url).toBe(`http://calendar.test${NS}/events/3`);
    expect(e.url).toBe("http://calendar.test/event/jazz-night/");
  });

  it("links existing ids, reuses a venue by name unchanged, and snaps all-day events", async () => {
    const first = (await api(`${NS}/events`, { json: JAZZ, headers: ADMIN })).body;
    const yoga = await api(`${NS}/events`, {
      json: {
        title: "Morning Yoga",
        description: "Bring a mat.",
        start_date: "2026-12-06 08:00:00",
        end_date: "2026-12-06 09:00:00",
        cost: "Free",
        venue: first.venue.id,
        organizer: [first.organizer[0].id],
        categories: [first.categories[0].id],
        tags: ["outdoor"],
      },
      headers: ADMIN,
    });
    expect(yoga.status).toBe(201);
    expect(yoga.body).toMatchObject({
      cost: "Free",
      cost_details: { values: ["free"] },
      description: "<p>Bring a mat.</p>",
      timezone: "UTC",
      timezone_abbr: "UTC",
    });
    expect(yoga.body.venue.id).toBe(first.venue.id);
    expect(yoga.body.categories.map((t: any) => [t.name, t.count])).toEqual([["Music", 2]]);

    const again = await api(`${NS}/events`, {
      json: {
        title: "Other",
        start_date: "2026-12-07 10:00",
        end_date: "2026-12-07 11:00",
        venue: { venue: "blue room", city: "Elsewhere" },
      },
      headers: ADMIN,
    });
    expect(again.body.venue).toMatchObject({ id: first.venue.id, city: "Springfield" });

    const market = await api(`${NS}/events`, {
      json: {
        title: "Winter Market",
        all_day: true,
        start_date: "2026-12-12",
        end_date: "2026-12-13",
      },
      headers: ADMIN,
    });
    expect(market.body).toMatchObject({
      all_day: true,
      start_date: "2026-12-12 00:00:00",
      end_date: "2026-12-13 23:59:59",
      venue: [],
      organizer: [],
      cost: "",
    });
  });
});
