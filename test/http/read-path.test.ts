/**
 * Issue 16, the edge-native read path: an anonymous miss costs one D1 round trip on every list and
 * single route, in both languages; with the content version in memory a hit and a 304 touch no
 * database; a reader sees a write elsewhere at most `CONTENT_VERSION_TTL_MS` late, and its own
 * isolate's writes at once.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { ADMIN, api, NS, ORIGIN, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedMedia, seedOrganizer, seedTerm, seedVenue } from "../support/factories";

/** A request through the worker with other settings (the version memory is the isolate's). */
async function withSettings(path: string, vars: Record<string, string>, headers = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${ORIGIN}${path}`, { headers }),
    { ...env, ...vars } as never,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

/** Changes content the way another isolate's write would: the version moves, this isolate is not told. */
const writeElsewhere = (sql: string) =>
  env.DB.batch([
    env.DB.prepare(sql),
    env.DB.prepare("UPDATE content_version SET version = version + 1 WHERE id = 1"),
  ]);

async function calendar() {
  const venue = await seedVenue({ title: "Hall" });
  const organizer = await seedOrganizer({ title: "Org" });
  const category = await seedTerm("tribe_events_cat", "Music");
  const tag = await seedTerm("post_tag", "jazz");
  const image = await seedMedia("https://img.example/a.jpg");
  const event = await seedEvent({
    title: "Concert",
    start: day(2),
    venueId: venue,
    organizerIds: [organizer],
    termIds: [category, tag],
  });
  return { venue, organizer, category, tag, image, event };
}

describe("anonymous misses cost one D1 round trip (issue 16)", () => {
  it("every list and single route, by id and by slug, in both languages", async () => {
    const c = await calendar();
    const routes = [
      "/events?per_page=50",
      `/events/${c.event}`,
      "/events/by-slug/concert",
      "/venues",
      `/venues/${c.venue}`,
      "/venues/by-slug/hall",
      "/organizers",
      `/organizers/${c.organizer}`,
      "/organizers/by-slug/org",
      "/categories",
      `/categories/${c.category}`,
      "/tags",
      `/tags/${c.tag}`,
      "/deleted?modified_after=2000-01-01",
    ];
    for (const prefix of ["", "/de"]) {
      for (const route of routes) {
        const res = await api(`${prefix}${NS}${route}`);
        expect(res.status, `${prefix}${route}`).toBe(200);
        expect(res.headers.get("x-cache"), `${prefix}${route}`).toBe("MISS");
        expect(roundTrips(res), `${prefix}${route}`).toBe(1);
      }
    }
    const media = await api(`/wp-json/wp/v2/media/${c.image}`);
    expect(roundTrips(media)).toBe(1);
  });

  it("hits and 304s touch no database while the version is remembered", async () => {
    const c = await calendar();
    for (const route of ["/events", `/events/${c.event}`, "/venues", "/categories"]) {
      const miss = await api(`${NS}${route}`);
      const hit = await api(`${NS}${route}`);
      expect(hit.headers.get("x-cache"), route).toBe("HIT");
      expect(hit.text).toBe(miss.text);
      expect(roundTrips(hit), route).toBe(0);
      const notModified = await api(`${NS}${route}`, {
        headers: { "if-none-match": miss.headers.get("etag")! },
      });
      expect(notModified.status, route).toBe(304);
      expect(roundTrips(notModified), route).toBe(0);
    }
  });
});

describe("staleness is bounded by CONTENT_VERSION_TTL_MS (issue 16)", () => {
  it("a write elsewhere shows once the remembered version is older than the TTL", async () => {
    const id = await seedEvent({ title: "Old title", start: day(2) });
    const first = await api(`${NS}/events/${id}`);
    expect(first.body.title).toBe("Old title");
    await writeElsewhere(`UPDATE events SET title = 'New title' WHERE id = ${id}`);
    // Within the TTL (60 s in the tests' settings) this isolate still answers from what it stored.
    const cached = await api(`${NS}/events/${id}`);
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(cached.body.title).toBe("Old title");
    // A TTL that has run out: the version is read again with the page, and the answer is new.
    const fresh = await withSettings(`${NS}/events/${id}`, { CONTENT_VERSION_TTL_MS: "0" });
    expect(fresh.body.title).toBe("New title");
    expect(fresh.headers.get("etag")).not.toBe(first.headers.get("etag"));
    expect(roundTrips(fresh as never)).toBe(1);
    // …and from then on the isolate remembers the new version.
    const after = await api(`${NS}/events/${id}`);
    expect(after.body.title).toBe("New title");
  });

  it("a write through this isolate shows in its very next anonymous answer", async () => {
    const id = await seedEvent({ title: "Before", start: day(2) });
    expect((await api(`${NS}/events/${id}`)).body.title).toBe("Before");
    await api(`${NS}/events/${id}`, { method: "PATCH", json: { title: "After" }, headers: ADMIN });
    const next = await api(`${NS}/events/${id}`);
    expect(next.body.title).toBe("After");
    expect(roundTrips(next)).toBe(1);
  });

  it("a request with an x-d1-bookmark never answers from the remembered version", async () => {
    const id = await seedEvent({ title: "Before", start: day(2) });
    await api(`${NS}/events/${id}`);
    await writeElsewhere(`UPDATE events SET title = 'After' WHERE id = ${id}`);
    const write = await api(`${NS}/venues`, { json: { venue: "Any" }, headers: ADMIN });
    const bookmark = write.headers.get("x-d1-bookmark")!;
    await api(`${NS}/events/${id}`); // remembers the version again
    await writeElsewhere(`UPDATE events SET title = 'Latest' WHERE id = ${id}`);
    const read = await api(`${NS}/events/${id}`, { headers: { "x-d1-bookmark": bookmark } });
    expect(read.body.title).toBe("Latest");
    expect(read.headers.get("x-cache")).toBe("MISS");
  });
});
