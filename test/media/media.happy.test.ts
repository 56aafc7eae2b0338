/**
 * `wp/v2/media` (contract §3): registering an image by URL and reading it back.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { api, roundTrips } from "../support/api";
import { db, seedEvent, seedMedia, seedUser } from "../support/factories";

const MEDIA = "/wp-json/wp/v2/media";

describe("POST /media", () => {
  it("answers 201 with the WordPress attachment fields and a Location", async () => {
    const author = await seedUser("author");
    const res = await api(MEDIA, {
      headers: author.headers,
      json: {
        source_url: "https://cdn.example.com/photos/Sunset-Beach.jpg",
        alt_text: "Sun over the sea",
        width: 1200,
        height: 800,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      date_gmt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      slug: "sunset-beach",
      status: "inherit",
      type: "attachment",
      title: { rendered: "Sunset-Beach" },
      author: author.id,
      alt_text: "Sun over the sea",
      media_type: "image",
      mime_type: "image/jpeg",
      source_url: "https://cdn.example.com/photos/Sunset-Beach.jpg",
      media_details: { width: 1200, height: 800 },
    });
    expect(res.headers.get("location")).toBe(`http://calendar.test${MEDIA}/${res.body.id}`);
  });

  it("takes the id from the sequence events, venues and organizers share", async () => {
    const editor = await seedUser("editor");
    const event = await seedEvent({ title: "Gig", start: "2030-01-01 20:00:00" });
    const res = await api(MEDIA, {
      headers: editor.headers,
      json: { source_url: "https://img.test/a.png" },
    });
    expect(res.body.id).toBe(event + 1);
    const [post] = await db().select().from(schema.posts).where(eq(schema.posts.id, res.body.id));
    expect(post.postType).toBe("attachment");
    const next = await api(MEDIA, {
      headers: editor.headers,
      json: { source_url: "https://img.test/b.png" },
    });
    expect(next.body.id).toBe(event + 2);
  });

  it("reads the MIME type from the extension, whatever the case or query string", async () => {
    const editor = await seedUser("editor");
    const cases: Array<[string, string]> = [
      ["https://i.test/a.jpg", "image/jpeg"],
      ["https://i.test/a.JPEG", "image/jpeg"],
      ["http://i.test/a.png?w=300#x", "image/png"],
      ["https://i.test/a.gif", "image/gif"],
      ["https://i.test/a.webp", "image/webp"],
      ["https://i.test/a.avif", "image/avif"],
      ["https://i.test/logo.svg", "image/svg+xml"],
    ];
    for (const [url, mime] of cases) {
      const res = await api(MEDIA, { headers: editor.headers, json: { source_url: url } });
      expect(res.status, url).toBe(201);
      expect(res.body.mime_type, url).toBe(mime);
    }
  });

  it("uses a given title, numbers taken slugs and leaves unknown sizes out", async () => {
    const author = await seedUser("author");
    const first = await api(MEDIA, {
      headers: author.headers,
      json: { source_url: "https://i.test/x.jpg", title: "Stage <b>plan</b>" },
    });
    const second = await api(MEDIA, {
      headers: author.headers,
      json: { source_url: "https://i.test/y.jpg", title: "Stage plan" },
    });
    expect(first.body).toMatchObject({
      title: { rendered: "Stage plan" },
      slug: "stage-plan",
      alt_text: "",
      media_details: {},
    });
    expect(second.body.slug).toBe("stage-plan-2");
  });

  it("accepts form bodies, as WordPress clients send them", async () => {
    const author = await seedUser("author");
    const res = await api(MEDIA, {
      headers: author.headers,
      form: { source_url: "https://i.test/f%C3%BCr%20dich.webp", width: "640" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: { rendered: "für dich" },
      media_details: { width: 640 },
    });
  });
});

describe("GET /media/{id}", () => {
  it("shows media to anyone, cacheably, exactly as created", async () => {
    const author = await seedUser("author");
    const created = await api(MEDIA, {
      headers: author.headers,
      json: { source_url: "https://i.test/a.gif", width: 10, height: 20 },
    });
    const res = await api(`${MEDIA}/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    expect(res.headers.get("cache-control")).toMatch(/^public/);
    expect(roundTrips(res)).toBeLessThanOrEqual(2);
  });

  it("shows media that was seeded or imported", async () => {
    const id = await seedMedia("https://i.test/old.jpg", { width: 300, height: 200 });
    const res = await api(`${MEDIA}/${id}`);
    expect(res.body).toMatchObject({
      id,
      source_url: "https://i.test/old.jpg",
      mime_type: "image/jpeg",
      media_details: { width: 300, height: 200 },
      author: 1,
    });
  });

  it("serves the same media under every language prefix", async () => {
    const id = await seedMedia("https://i.test/old.jpg");
    expect((await api(`/de${MEDIA}/${id}`)).body.id).toBe(id);
  });
});
