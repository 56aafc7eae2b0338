import { describe, expect, it } from "vitest";
import { api, NS, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { SINGLE_EVENT_KEYS } from "../support/event-keys";
import { seedEvent, seedMedia, seedOrganizer, seedTerm, seedVenue } from "../support/factories";

describe("GET /events/{id} and /events/by-slug/{slug} (§4.1)", () => {
  it("returns every key of §4.1 with linked venue, organizers, terms, image and JSON-LD, in one round trip", async () => {
    const image = await seedMedia("https://cdn.example.com/2026/fair.jpg", {
      width: 1200,
      height: 800,
    });
    const venue = await seedVenue({
      title: "Town Hall",
      address: "1 Main St",
      city: "Springfield",
      country: "United States",
      state: "IL",
      zip: "62701",
      stateprovince: "IL",
      geoLat: 39.8,
      geoLng: -89.6,
    });
    const o1 = await seedOrganizer({ title: "B Org", email: "b@example.com" });
    const o2 = await seedOrganizer({ title: "A Org", phone: "+1 555" });
    const cat = await seedTerm("tribe_events_cat", "Fairs");
    const id = await seedEvent({
      title: "Spring Fair",
      content: "All day fun.",
      start: "2027-06-01 09:00:00",
      end: "2027-06-01 17:00:00",
      timezone: "America/New_York",
      cost: ["10", "20"],
      venueId: venue,
      organizerIds: [o1, o2],
      termIds: [cat],
    });
    const { db } = await import("../support/factories");
    const { events } = await import("../../src/db/schema");
    const { eq } = await import("drizzle-orm");
    await db().update(events).set({ imageId: image }).where(eq(events.id, id));

    const res = await api(`${NS}/events/${id}`);
    expect(res.status).toBe(200);
    expect(roundTrips(res)).toBe(1);
    const e = res.body;
    expect(Object.keys(e)).toEqual(SINGLE_EVENT_KEYS);
    expect(e).toMatchObject({
      id,
      global_id: `calendar.test?id=${id}`,
      global_id_lineage: [`calendar.test?id=${id}`],
      author: "1",
      description: "<p>All day fun.</p>",
      start_date_details: {
        year: "2027",
        month: "06",
        day: "01",
        hour: "09",
        minutes: "00",
        seconds: "00",
      },
      utc_start_date: "2027-06-01 13:00:00",
      timezone_abbr: "EDT",
      cost: "$10 – $20",
      cost_details: { values: ["10", "20"] },
      image: {
        url: "https://cdn.example.com/2026/fair.jpg",
        id: image,
        extension: "jpg",
        width: 1200,
        height: 800,
      },
      website: `http://calendar.test/event/spring-fair/`,
      custom_fields: [],
    });
    expect(e.organizer.map((o: any) => o.organizer)).toEqual(["B Org", "A Org"]);
    expect(Object.keys(e.organizer[0])).toEqual([
      "id",
      "author",
      "status",
      "date",
      "date_utc",
      "modified",
      "modified_utc",
      "url",
      "organizer",
      "slug",
      "email",
      "json_ld",
      "global_id",
      "global_id_lineage",
    ]);
    expect(e.venue).toMatchObject({
      id: venue,
      venue: "Town Hall",
      geo_lat: 39.8,
      geo_lng: -89.6,
      show_map: true,
      global_id: `calendar.test?id=${venue}`,
    });
    expect(e.venue.description).toBeUndefined();
    expect(e.categories[0]).toEqual({
      name: "Fairs",
      slug: "fairs",
      term_group: 0,
      term_taxonomy_id: cat,
      taxonomy: "tribe_events_cat",
      description: "",
      parent: 0,
      count: 1,
      filter: "raw",
      id: cat,
      urls: {
        self: `http://calendar.test${NS}/categories/${cat}`,
        collection: `http://calendar.test${NS}/categories`,
      },
    });
    expect(e.json_ld).toMatchObject({
      "@context": "http://schema.org",
      "@type": "Event",
      name: "Spring Fair",
      startDate: "2027-06-01T09:00:00-04:00",
      location: { "@type": "Place", name: "Town Hall" },
      organizer: { "@type": "Person", name: "B Org" },
      offers: { "@type": "Offer", price: "10", priceCurrency: "USD" },
    });

    const bySlug = await api(`${NS}/events/by-slug/spring-fair`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual(e);
  });

  it("shows an event without links with venue [] and organizer []", async () => {
    const id = await seedEvent({ title: "Alone", start: day(1) });
    const res = await api(`${NS}/events/${id}`);
    expect(res.body).toMatchObject({
      venue: [],
      organizer: [],
      categories: [],
      tags: [],
      image: false,
      cost: "",
      cost_details: { values: [] },
    });
  });

  it("opens a password-protected event with ?password=", async () => {
    const id = await seedEvent({
      title: "Secret",
      content: "Hidden text",
      start: day(1),
      password: "open sesame",
    });
    const res = await api(`${NS}/events/${id}?password=open%20sesame`);
    expect(res.status).toBe(200);
    expect(res.body.description).toBe("<p>Hidden text</p>");
  });
});
