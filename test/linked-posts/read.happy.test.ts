import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, roundTrips } from "../support/api";
import { seedMedia, seedUser } from "../support/factories";
import { KINDS, seedLinked, touch } from "./kinds";

// Key order of the recorded originals (tec-samples 10-venue-by-id.json, 12-organizer-by-id.json).
const SAMPLE_KEYS = {
  venue: [
    "id",
    "author",
    "status",
    "date",
    "date_utc",
    "modified",
    "modified_utc",
    "url",
    "venue",
    "slug",
    "address",
    "city",
    "country",
    "state",
    "zip",
    "phone",
    "website",
    "stateprovince",
    "json_ld",
    "show_map",
    "show_map_link",
    "global_id",
    "global_id_lineage",
  ],
  organizer: [
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
    "phone",
    "website",
    "email",
    "json_ld",
    "global_id",
    "global_id_lineage",
  ],
};

describe("GET /venues/{id}, /organizers/{id}: the recorded shapes (§4.2, §4.3)", () => {
  it("answers a venue exactly like the original (sample 10), json_ld included", async () => {
    const id = await seedLinked("venue", {
      title: "Blue Room",
      address: "100 Main St",
      city: "Springfield",
      country: "United States",
      state: "IL",
      zip: "62701",
      phone: "+1 555 0100",
      website: "https://blueroom.example.com",
      stateprovince: "IL",
    });
    const res = await api(`${NS}/venues/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(SAMPLE_KEYS.venue);
    expect(res.body).toMatchObject({
      id,
      author: "1",
      status: "publish",
      date: "2026-01-01 10:00:00",
      date_utc: "2026-01-01 10:00:00",
      url: "http://calendar.test/venue/blue-room/",
      venue: "Blue Room",
      slug: "blue-room",
      stateprovince: "IL",
      show_map: true,
      show_map_link: true,
      global_id: `calendar.test?id=${id}`,
      global_id_lineage: [`calendar.test?id=${id}`],
    });
    expect(res.body.json_ld).toMatchObject({
      "@type": "Place",
      name: "Blue Room",
      address: {
        "@type": "PostalAddress",
        streetAddress: "100 Main St",
        addressLocality: "Springfield",
        addressRegion: "IL",
        postalCode: "62701",
        addressCountry: "United States",
      },
      telephone: "+1 555 0100",
      sameAs: "https://blueroom.example.com",
    });
    expect(res.headers.get("allow")).toBe("GET");
  });

  it("answers an organizer exactly like the original (sample 12)", async () => {
    const id = await seedLinked("organizer", {
      title: "Springfield Arts",
      phone: "+1 555 0199",
      website: "https://arts.example.com",
      email: "arts@example.com",
    });
    const res = await api(`${NS}/organizers/${id}`);
    expect(Object.keys(res.body)).toEqual(SAMPLE_KEYS.organizer);
    expect(res.body).toMatchObject({
      organizer: "Springfield Arts",
      url: "http://calendar.test/organizer/springfield-arts/",
      email: "arts@example.com",
    });
    expect(res.body.json_ld).toMatchObject({
      "@type": "Person",
      name: "Springfield Arts",
      url: "https://arts.example.com",
      telephone: "+1 555 0199",
      email: "arts@example.com",
    });
  });

  it("drops empty fields but always sends show_map, show_map_link and the global ids (quirk 17)", async () => {
    const venue = await seedLinked("venue", { title: "Bare Hall", author: null, showMap: false });
    const v = (await api(`${NS}/venues/${venue}`)).body;
    expect(Object.keys(v)).toEqual([
      "id",
      "status",
      "date",
      "date_utc",
      "modified",
      "modified_utc",
      "url",
      "venue",
      "slug",
      "json_ld",
      "show_map",
      "show_map_link",
      "global_id",
      "global_id_lineage",
    ]);
    expect(v.show_map).toBe(false);
    const organizer = await seedLinked("organizer", { title: "Bare Org" });
    expect(Object.keys((await api(`${NS}/organizers/${organizer}`)).body)).toEqual([
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
      "json_ld",
      "global_id",
      "global_id_lineage",
    ]);
  });

  it("adds description, excerpt, image and coordinates when there are some", async () => {
    const image = await seedMedia("https://img.example.com/hall.jpg", { width: 800, height: 600 });
    const id = await seedLinked("venue", {
      title: "Full Hall",
      content: "Big room",
      excerpt: "Short",
      imageId: image,
      geoLat: 52.5,
      geoLng: 13.4,
    });
    const v = (await api(`${NS}/venues/${id}`)).body;
    expect(v.description).toBe("<p>Big room</p>");
    expect(v.excerpt).toBe("<p>Short</p>");
    expect(v.image).toMatchObject({
      url: "https://img.example.com/hall.jpg",
      id: image,
      extension: "jpg",
      width: 800,
      height: 600,
    });
    expect(v.geo_lat).toBe(52.5);
    expect(v.geo_lng).toBe(13.4);
    expect(Object.keys(v).indexOf("geo_lng")).toBeLessThan(Object.keys(v).indexOf("json_ld"));
    expect(v.json_ld.geo).toEqual({ "@type": "GeoCoordinates", latitude: 52.5, longitude: 13.4 });
  });
});

describe.each(KINDS)("GET /$plural/by-slug/{slug}", ({ kind, plural }) => {
  it("finds the post by slug, case-insensitively, with the same body as by id", async () => {
    const id = await seedLinked(kind, { title: "Corn Exchange" });
    const bySlug = await api(`${NS}/${plural}/by-slug/Corn-Exchange`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual((await api(`${NS}/${plural}/${id}`)).body);
  });
});

describe.each(KINDS)("GET /$plural: list body, order and paging (§5)", ({ kind, plural }) => {
  it("lists newest first, in the recorded list shape, without json_ld", async () => {
    const older = await seedLinked(kind, { title: "Older", postDate: "2025-01-01 00:00:00" });
    const newer = await seedLinked(kind, { title: "Newer", postDate: "2026-06-01 00:00:00" });
    const tieLow = await seedLinked(kind, { title: "Tie A", postDate: "2026-03-01 00:00:00" });
    const tieHigh = await seedLinked(kind, { title: "Tie B", postDate: "2026-03-01 00:00:00" });
    const res = await api(`${NS}/${plural}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([plural, "rest_url", "total", "total_pages"]);
    expect(res.body[plural].map((p: any) => p.id)).toEqual([newer, tieHigh, tieLow, older]);
    expect(res.body[plural][0]).not.toHaveProperty("json_ld");
    expect(res.body.rest_url).toBe(
      `http://calendar.test${NS}/${plural}/?page=1&per_page=12&status=publish`,
    );
    expect(res.body.total).toBe(4);
    expect(res.body.total_pages).toBe(1);
    expect(res.headers.get("x-tec-total")).toBe("4");
    expect(res.headers.get("x-wp-totalpages")).toBe("1");
    expect(res.headers.get("allow")).toBe("GET");
  });

  it("pages with next/previous URLs and a Link header; past the end is 404", async () => {
    for (let i = 0; i < 5; i++)
      await seedLinked(kind, { title: `P${i}`, postDate: `2026-01-0${i + 1} 00:00:00` });
    const first = await api(`${NS}/${plural}?per_page=2`);
    expect(first.body[plural].map((p: any) => p[kind])).toEqual(["P4", "P3"]);
    expect(Object.keys(first.body)).toEqual([
      plural,
      "rest_url",
      "next_rest_url",
      "total",
      "total_pages",
    ]);
    expect(first.body.next_rest_url).toBe(
      `http://calendar.test${NS}/${plural}/?per_page=2&status=publish&page=2`,
    );
    expect(first.headers.get("link")).toContain(`<${first.body.next_rest_url}>; rel="next"`);
    const second = await api(`${NS}/${plural}?per_page=2&page=2`);
    expect(Object.keys(second.body)).toEqual([
      plural,
      "rest_url",
      "next_rest_url",
      "previous_rest_url",
      "total",
      "total_pages",
    ]);
    expect(second.body.previous_rest_url).toBe(
      `http://calendar.test${NS}/${plural}/?per_page=2&status=publish`,
    );
    const third = await api(`${NS}/${plural}?per_page=2&page=3`);
    expect(third.body[plural].map((p: any) => p[kind])).toEqual(["P0"]);
    expect(third.body.next_rest_url).toBeUndefined();
    expect(new URL(third.body.previous_rest_url).searchParams.get("page")).toBe("2");
    const past = await api(`${NS}/${plural}?per_page=2&page=4`);
    expect(past.status).toBe(404);
    expect(past.body).toEqual({
      code: `${kind}-archive-page-not-found`,
      message: `The requested ${kind} archive page does not exist`,
      data: { status: 404 },
    });
  });

  it("answers an empty first page with 200, total 0", async () => {
    const res = await api(`${NS}/${plural}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ [plural]: [], total: 0, total_pages: 0 });
  });

  it("clamps per_page to PER_PAGE_MAX and echoes the filters it applied, form-encoded", async () => {
    const clamped = await api(`${NS}/${plural}?per_page=500`);
    expect(new URL(clamped.body.rest_url).searchParams.get("per_page")).toBe("50");
    const event = (
      await api(`${NS}/events`, {
        json: { title: "E", start_date: "2027-01-01 10:00:00", end_date: "2027-01-01 11:00:00" },
        headers: ADMIN,
      })
    ).body.id;
    const res = await api(
      `${NS}/${plural}?search=a%26b c&event=${event}&has_events=yes&only_with_upcoming=1&modified_after=2026-01-01`,
      { headers: ADMIN },
    );
    expect(res.status).toBe(200);
    expect(res.body.rest_url).toBe(
      `http://calendar.test${NS}/${plural}/?page=1&per_page=12&search=a%26b+c&event=${event}&has_events=1&only_with_upcoming=1&status=publish%2Cfuture%2Cdraft%2Cpending%2Cprivate&modified_after=2026-01-01`,
    );
    const hasNone = await api(`${NS}/${plural}?has_events=false`);
    expect(new URL(hasNone.body.rest_url).searchParams.get("has_events")).toBe("0");
    expect(new URL(hasNone.body.rest_url).searchParams.has("only_with_upcoming")).toBe(false);
  });

  it("costs one D1 round trip anonymously, two with credentials, however large the page and however many filters", async () => {
    const image = await seedMedia("https://img.example.com/a.png");
    for (let i = 0; i < 30; i++) await seedLinked(kind, { title: `Bulk ${i}`, imageId: image });
    const anonymous = await api(`${NS}/${plural}?per_page=50`);
    expect(anonymous.body[plural]).toHaveLength(30);
    expect(anonymous.body[plural][0].image.url).toBe("https://img.example.com/a.png");
    expect(roundTrips(anonymous)).toBe(1);
    const event = (
      await api(`${NS}/events`, {
        json: { title: "E", start_date: "2027-01-01 10:00:00", end_date: "2027-01-01 11:00:00" },
        headers: ADMIN,
      })
    ).body.id;
    const editor = await seedUser("editor");
    const filtered = await api(
      `${NS}/${plural}?per_page=50&search=bulk&event=${event}&has_events=0&only_with_upcoming=1&status=publish,draft`,
      { headers: editor.headers },
    );
    expect(filtered.status).toBe(200);
    // One for the application password, one for the whole list.
    expect(roundTrips(filtered)).toBe(2);
    const single = await api(`${NS}/${plural}/by-slug/bulk-1`, { headers: editor.headers });
    expect(roundTrips(single)).toBe(2);
    await touch();
    expect(roundTrips(await api(`${NS}/${plural}/by-slug/bulk-1`))).toBe(1);
  });
});
