/**
 * `json_ld` of single event, venue and organizer GETs (tec-reference §4.9, contract §7). The generator
 * is typed with Google's schema.org typings (schema-dts), so unknown properties do not compile; these
 * tests check what types cannot: the values a schema.org consumer (a search engine) reads.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { seedEvent, seedMedia, seedOrganizer, seedVenue } from "../support/factories";

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Every object of a JSON-LD tree has a schema.org `@type`, and no value is empty. */
function expectWellFormed(node: unknown, path = "$"): void {
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) expectWellFormed(n, `${path}[${i}]`);
    return;
  }
  if (!node || typeof node !== "object") {
    expect(node, path).not.toBe("");
    expect(node, path).not.toBeNull();
    return;
  }
  expect((node as Record<string, unknown>)["@type"], `${path} @type`).toMatch(/^[A-Z][A-Za-z]+$/);
  for (const [k, v] of Object.entries(node))
    if (k !== "@context") expectWellFormed(v, `${path}.${k}`);
}

async function venueAndOrganizer() {
  const image = await seedMedia("https://img.example.com/hall.jpg");
  const venue = await seedVenue({
    title: "Blue Room",
    address: "100 Main St",
    city: "Springfield",
    state: "IL",
    stateprovince: "IL",
    zip: "62701",
    country: "United States",
    phone: "+1 555 0100",
    website: "https://blueroom.example.com",
    geoLat: 39.78,
    geoLng: -89.65,
    imageId: image,
    content: "<p>Main <em>hall</em></p>",
  });
  const organizer = await seedOrganizer({
    title: "Springfield Arts",
    email: "arts@example.com",
    phone: "+1 555 0199",
    website: "https://arts.example.com",
  });
  return { venue, organizer };
}

describe("json_ld of a single event: a schema.org Event", () => {
  it("has ISO 8601 dates with the event's offset, a Place, an organizer and an Offer", async () => {
    const { venue, organizer } = await venueAndOrganizer();
    const id = await seedEvent({
      title: "Jazz Night",
      content: "<p>Live <strong>jazz</strong> &amp; more</p>",
      start: "2030-12-05 19:00:00",
      end: "2030-12-05 22:30:00",
      timezone: "America/New_York",
      venueId: venue,
      organizerIds: [organizer],
      cost: ["$10 – $20"],
    });
    const ld = (await api(`${NS}/events/${id}`)).body.json_ld;
    expectWellFormed(ld);
    expect(ld).toMatchObject({
      "@context": "http://schema.org",
      "@type": "Event",
      name: "Jazz Night",
      description: "Live jazz & more",
      url: "http://calendar.test/event/jazz-night/",
      startDate: "2030-12-05T19:00:00-05:00",
      endDate: "2030-12-05T22:30:00-05:00",
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      location: {
        "@type": "Place",
        name: "Blue Room",
        image: "https://img.example.com/hall.jpg",
        address: {
          "@type": "PostalAddress",
          streetAddress: "100 Main St",
          addressLocality: "Springfield",
          addressRegion: "IL",
          postalCode: "62701",
          addressCountry: "United States",
        },
        geo: { "@type": "GeoCoordinates", latitude: 39.78, longitude: -89.65 },
        telephone: "+1 555 0100",
      },
      organizer: {
        "@type": "Person",
        name: "Springfield Arts",
        email: "arts@example.com",
        url: "https://arts.example.com",
      },
      offers: {
        "@type": "Offer",
        price: "10",
        priceCurrency: "USD",
        availability: "https://schema.org/InStock",
        url: "http://calendar.test/event/jazz-night/",
      },
    });
    expect(ld.startDate).toMatch(ISO_WITH_OFFSET);
    expect(ld.offers.validFrom).toMatch(ISO_WITH_OFFSET);
    expect(ld.offers.priceCurrency).toMatch(/^[A-Z]{3}$/);
    // Nested objects are part of the one document: no @context of their own; no TEC "performer" text.
    expect(ld.location).not.toHaveProperty("@context");
    expect(ld).not.toHaveProperty("performer");
  });

  it("gives all-day events plain dates, summer dates their summer offset, free events price 0, no offers without cost", async () => {
    const allDay = await seedEvent({
      title: "Fair",
      start: "2030-07-01 00:00:00",
      end: "2030-07-03 23:59:59",
      allDay: true,
      cost: ["Free"],
    });
    const summer = await seedEvent({
      title: "Summer",
      start: "2030-07-01 10:00:00",
      end: "2030-07-01 11:00:00",
      timezone: "Europe/Berlin",
    });
    const fair = (await api(`${NS}/events/${allDay}`)).body.json_ld;
    expect([fair.startDate, fair.endDate]).toEqual(["2030-07-01", "2030-07-03"]);
    expect(fair.startDate).toMatch(DATE);
    expect(fair.offers).toMatchObject({ "@type": "Offer", price: "0" });
    const ld = (await api(`${NS}/events/${summer}`)).body.json_ld;
    expect(ld.startDate).toBe("2030-07-01T10:00:00+02:00");
    expect(ld).not.toHaveProperty("offers");
    expect(ld).not.toHaveProperty("location");
    expect(ld).not.toHaveProperty("organizer");
    expectWellFormed(ld);
  });

  it("is only on single GETs, never in lists", async () => {
    await seedEvent({ title: "Listed", start: "2030-01-01 10:00:00" });
    const list = await api(`${NS}/events?start_date=2029-01-01&end_date=2031-01-01`);
    expect(list.body.events[0]).not.toHaveProperty("json_ld");
  });
});

describe("json_ld of single venues and organizers: standalone Place and Person documents", () => {
  it("carries @context, the address, coordinates and contacts", async () => {
    const { venue, organizer } = await venueAndOrganizer();
    const place = (await api(`${NS}/venues/${venue}`)).body.json_ld;
    expectWellFormed(place);
    expect(place).toMatchObject({
      "@context": "http://schema.org",
      "@type": "Place",
      name: "Blue Room",
      description: "Main hall",
      sameAs: "https://blueroom.example.com",
    });
    const person = (await api(`${NS}/organizers/${organizer}`)).body.json_ld;
    expectWellFormed(person);
    expect(person).toEqual({
      "@context": "http://schema.org",
      "@type": "Person",
      name: "Springfield Arts",
      url: "https://arts.example.com",
      telephone: "+1 555 0199",
      email: "arts@example.com",
      sameAs: "https://arts.example.com",
    });
  });
});

describe("json_ld and access (§4.7)", () => {
  it("is not given to callers who may not read the event; the password or an editor opens it", async () => {
    const draft = await seedEvent({
      title: "Draft",
      start: "2030-01-01 10:00:00",
      status: "draft",
    });
    const locked = await seedEvent({
      title: "Locked",
      content: "Secret",
      start: "2030-01-01 10:00:00",
      password: "pw",
    });
    for (const path of [`/events/${draft}`, `/events/${locked}`]) {
      const res = await api(`${NS}${path}`);
      expect(res.status).toBe(403);
      expect(res.text).not.toContain("json_ld");
    }
    expect((await api(`${NS}/events/${locked}?password=pw`)).body.json_ld.description).toBe(
      "Secret",
    );
    expect((await api(`${NS}/events/${draft}`, { headers: ADMIN })).body.json_ld.name).toBe(
      "Draft",
    );
  });
});
