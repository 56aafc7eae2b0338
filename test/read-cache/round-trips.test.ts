/**
 * The read path's costs and bounds (src/read-cache): an anonymous miss costs one D1 round trip on
 * every list and single route, in both languages; with the content version in memory a hit and a
 * 304 touch no database; a reader sees a write elsewhere at most `CONTENT_VERSION_TTL_MS` late, and
 * its own isolate's writes at once; a total is never older than the page it comes with.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clearStringsCache, stringsKey } from "../../src/i18n";
import worker from "../../src/index";
import { ADMIN, api, NS, ORIGIN, roundTrips } from "../support/api";
import { stopClock } from "../support/clock";
import { day } from "../support/dates";
import { seedEvent, seedMedia, seedOrganizer, seedTerm, seedVenue } from "../support/factories";

/** The isolate's TTL of the content version (wrangler.toml, as `npm start` runs it). */
const TTL = 1000;

/** A request through the worker with other bindings (the version memory is the isolate's). */
async function withEnv(path: string, vars: Record<string, unknown>, headers = {}) {
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

/**
 * Changes content the way another isolate's write would: straight into D1 (the triggers move the
 * content version), and this isolate is not told.
 */
const writeElsewhere = (sql: string) => env.DB.prepare(sql).run();

/** `n` talks on the coming days: the first three published, the others drafts. */
async function talks(n: number) {
  for (let i = 0; i < n; i++)
    await seedEvent({ title: `Talk ${i}`, start: day(2 + i), status: i < 3 ? "publish" : "draft" });
}

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

describe("anonymous misses cost one D1 round trip", () => {
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

describe("staleness is bounded by CONTENT_VERSION_TTL_MS", () => {
  it("a write elsewhere shows once the remembered version is older than the TTL", async () => {
    const clock = stopClock();
    const id = await seedEvent({ title: "Old title", start: day(2) });
    const first = await api(`${NS}/events/${id}`);
    expect(first.body.title).toBe("Old title");
    await writeElsewhere(`UPDATE events SET title = 'New title' WHERE id = ${id}`);
    // Within the TTL this isolate still answers from what it kept.
    clock.advance(TTL - 1);
    const cached = await api(`${NS}/events/${id}`);
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(cached.body.title).toBe("Old title");
    // The TTL has run out: the version is read again with the event, and the answer is new.
    clock.advance(1);
    const fresh = await api(`${NS}/events/${id}`);
    expect(fresh.body.title).toBe("New title");
    expect(fresh.headers.get("etag")).not.toBe(first.headers.get("etag"));
    expect(roundTrips(fresh)).toBe(1);
    // …and from then on the isolate remembers the new version.
    const after = await api(`${NS}/events/${id}`);
    expect(after.headers.get("x-cache")).toBe("HIT");
    expect(after.body.title).toBe("New title");
  });

  it("a write through this isolate shows in its very next anonymous answer", async () => {
    stopClock();
    const id = await seedEvent({ title: "Before", start: day(2) });
    expect((await api(`${NS}/events/${id}`)).body.title).toBe("Before");
    await api(`${NS}/events/${id}`, { method: "PATCH", json: { title: "After" }, headers: ADMIN });
    const next = await api(`${NS}/events/${id}`);
    expect(next.body.title).toBe("After");
    expect(roundTrips(next)).toBe(1);
  });

  it("a request with an x-d1-bookmark never answers from the remembered version", async () => {
    stopClock();
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

  it("page 2's total after a write elsewhere within the TTL is the new total", async () => {
    const clock = stopClock();
    await talks(5);
    const first = await api(`${NS}/events?per_page=2`);
    expect(first.body.total).toBe(3);
    // Another isolate publishes the drafts; this one still trusts the version it read.
    await writeElsewhere("UPDATE events SET status = 'publish' WHERE status = 'draft'");
    clock.advance(TTL - 1);
    // A page not asked for before: its data, version and total come from one snapshot.
    const second = await api(`${NS}/events?per_page=2&page=2`);
    expect(second.body.total).toBe(5);
    expect(second.headers.get("x-wp-totalpages")).toBe("3");
    // Kept under the version it was read at, it stays right once that version is remembered.
    clock.advance(TTL);
    await api(`${NS}/events?per_page=2`);
    const again = await api(`${NS}/events?per_page=2&page=2`);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.body.total).toBe(5);
  });
});

describe("a filter's total is counted once per content version", () => {
  it("every page of a filter reuses the total its statement finds counted at the same version", async () => {
    const clock = stopClock();
    await talks(4);
    const first = await api(`${NS}/events?per_page=2`);
    expect(first.body.total).toBe(3);
    const version = async () =>
      (await env.DB.prepare("SELECT version FROM content_version WHERE id = 1").first<{
        version: number;
      }>())!.version;
    const at = await version();
    // A change that would be counted, with the version put back: the statement of page 2 reads the
    // version page 1 was counted at, so it answers that total without counting (what it saves).
    await writeElsewhere("UPDATE events SET status = 'publish' WHERE status = 'draft'");
    expect(await version()).not.toBe(at);
    await writeElsewhere(`UPDATE content_version SET version = ${at} WHERE id = 1`);
    clock.advance(TTL);
    const kept = await api(`${NS}/events?per_page=2&page=2`);
    expect(kept.body.total).toBe(3);
    // Any other version, and the statement counts.
    await writeElsewhere(`UPDATE content_version SET version = ${at + 7} WHERE id = 1`);
    clock.advance(TTL);
    const counted = await api(`${NS}/events?per_page=2&page=2`);
    expect(counted.body.total).toBe(4);
    expect(counted.headers.get("x-wp-totalpages")).toBe("2");
  });
});

describe("the key covers the code, the settings and the strings", () => {
  it("a deploy never answers an old ETag with 304, nor serves what the old code kept", async () => {
    stopClock();
    const id = await seedEvent({ title: "Concert", start: day(2) });
    const before = await withEnv(`${NS}/events/${id}`, { CF_VERSION_METADATA: { id: "one" } });
    const kept = await withEnv(`${NS}/events/${id}`, { CF_VERSION_METADATA: { id: "one" } });
    expect(kept.headers.get("x-cache")).toBe("HIT");
    const etag = before.headers.get("etag")!;
    const deployed = await withEnv(
      `${NS}/events/${id}`,
      { CF_VERSION_METADATA: { id: "two" } },
      { "if-none-match": etag },
    );
    expect(deployed.status).toBe(200);
    expect(deployed.headers.get("x-cache")).toBe("MISS");
    expect(deployed.headers.get("etag")).not.toBe(etag);
  });

  it("a changed setting changes every tag", async () => {
    stopClock();
    const id = await seedEvent({ title: "Concert", start: day(2) });
    const before = await withEnv(`${NS}/events/${id}`, {});
    const after = await withEnv(
      `${NS}/events/${id}`,
      { CURRENCY_SYMBOL: "€" },
      { "if-none-match": before.headers.get("etag")! },
    );
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
  });

  it("new strings change the tag of what shows them", async () => {
    stopClock();
    const before = await api(`${NS}/doc`);
    const strings = JSON.parse((await env.STRINGS.get(stringsKey("en")))!);
    strings.doc.info.title = "Another title";
    await env.STRINGS.put(stringsKey("en"), JSON.stringify(strings));
    clearStringsCache(); // a new isolate reads the strings anew
    const after = await api(`${NS}/doc`, {
      headers: { "if-none-match": before.headers.get("etag")! },
    });
    expect(after.status).toBe(200);
    expect(after.body.info.title).toBe("Another title");
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
  });
});
