/**
 * Anonymous event lists and single GETs are built from each event's rendering, stored beside it
 * (src/events/rendering/format.ts). What a client sees must not change: the demo calendar (and a few
 * hostile texts) read through the renderings is byte for byte what serializing the events gave, in
 * every language and with `SITE_URL`; an event without a usable rendering answers as the full path
 * does (never an error); a write that changes what an event shows — the event, its venue,
 * organizers, terms (their counts too), image — shows in the next read; and a rendering made from
 * data that changed meanwhile is never stored.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/batch";
import { openDb } from "../../src/db/client";
import { assemble, relatedRows } from "../../src/events/load";
import { renderStale, storeRenderings } from "../../src/events/rendering/store";
import { eventLoadQueries } from "../../src/events/single";
import worker from "../../src/index";
import { parseSettings } from "../../src/settings";
import { buildDemoCalendar, DEMO_PASSWORD } from "../../tools/demo/calendar";
import { demoStatements } from "../../tools/demo/sql";
import { ADMIN, api, NS, ORIGIN, roundTrips } from "../support/api";
import { stopClock } from "../support/clock";
import { day } from "../support/dates";
import { seedEvent, seedMedia, seedOrganizer, seedTerm, seedVenue } from "../support/factories";

const settings = parseSettings(env);
const writer = () => openDb(env.DB, { write: true }).db;

/** Renders everything that is stale (what writes do after their answer). */
async function renderAll(): Promise<void> {
  while ((await renderStale(writer(), settings)) > 0);
}

/** How many published events have no fresh rendering. */
async function unrendered(): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT count(*) AS n FROM events e JOIN event_renderings r ON r.event_id = e.id WHERE e.status = 'publish' AND (r.stale = 1 OR r.list IS NULL)",
  ).first<{ n: number }>();
  return row?.n ?? -1;
}

/** The demo calendar of `npm start`, plus events whose texts look like the renderings' marks. */
async function calendar(): Promise<number[]> {
  const demo = buildDemoCalendar({
    today: DateTime.utc().startOf("day"),
    siteTimezone: "UTC",
    firstPostId: 1000,
    firstTermId: 1000,
  });
  await env.DB.batch(demoStatements(demo).map((s) => env.DB.prepare(s)));
  const image = await seedMedia("https://img.example/a.jpg", { width: 10, height: 20 });
  const hidden = await seedVenue({ title: "Draft hall", status: "draft" });
  const guarded = await seedOrganizer({ title: "Guarded", passwordDigest: "x".repeat(64) });
  const term = await seedTerm("post_tag", 'Tag "count":-1000000000004');
  const tricky = await seedEvent({
    title: "Marks \u0001S \u0001C4; \\udbffS \\\\udbffN",
    content: '<p>"count":-1000000000004 and \\"count\\":-1000000000007</p>',
    start: day(3, "19:00:00"),
    venueId: hidden,
    organizerIds: [guarded],
    termIds: [term],
  });
  await env.DB.prepare("UPDATE events SET image_id = ? WHERE id = ?").bind(image, tricky).run();
  const ids = await env.DB.prepare(
    "SELECT id FROM events WHERE status = 'publish' ORDER BY id",
  ).all<{
    id: number;
  }>();
  return ids.results.map((r) => r.id);
}

/** The worker with `READ_CACHE=off`: every answer serialized from the events (the full path). */
const fullPath = { ...env, READ_CACHE: "off" };

/**
 * Every page of every list this test reads, and every single, as texts by URL. `serialized`: each
 * answer comes from the full path (`READ_CACHE=off`), which serializes the events and never looks
 * at a rendering.
 */
async function readAll(ids: number[], pass: string, serialized = false) {
  const out = new Map<string, { status: number; text: string; trips: number }>();
  const get = async (path: string) => {
    const url = `${path}${path.includes("?") ? "&" : "?"}pass=${pass}`;
    const res = await api(url, {}, serialized ? fullPath : env);
    out.set(path, { status: res.status, text: res.text, trips: roundTrips(res) });
    return res;
  };
  for (const prefix of ["", "/de"]) {
    for (let page = 1; ; page++) {
      const res = await get(
        `${prefix}${NS}/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01&page=${page}`,
      );
      if (!res.body.next_rest_url) break;
    }
    await get(`${prefix}${NS}/events?per_page=12`);
    await get(`${prefix}${NS}/events?per_page=20&featured=1&search=a`);
    await get(`${prefix}${NS}/events?include=${ids.slice(0, 30).join(",")}`);
  }
  for (const id of ids) await get(`${NS}/events/${id}`);
  await get(`/de${NS}/events/${ids[0]}`);
  const slugs = await env.DB.prepare(
    "SELECT slug FROM events WHERE status = 'publish' ORDER BY id LIMIT 10",
  ).all<{ slug: string }>();
  for (const { slug } of slugs.results) await get(`${NS}/events/by-slug/${slug}`);
  return out;
}

describe("rendered events", () => {
  it("answer byte for byte what serializing the events answers, in one round trip", async () => {
    const ids = await calendar();
    const serialized = await readAll(ids, "1", true);
    await renderAll();
    expect(await unrendered()).toBe(0);
    for (const pass of ["2", "3"]) {
      const rendered = await readAll(ids, pass);
      expect([...rendered.keys()]).toEqual([...serialized.keys()]);
      for (const [path, answer] of rendered) {
        const before = serialized.get(path)!;
        expect(answer.status, `${pass} ${path}`).toBe(before.status);
        expect(answer.text, `${pass} ${path}`).toBe(before.text);
        expect(answer.trips, `${pass} ${path}`).toBe(1);
      }
    }
    // Protected events: 403 on their own, blanked in lists, whole with their password (not rendered).
    const locked = await env.DB.prepare(
      "SELECT id FROM events WHERE status = 'publish' AND password_digest <> '' LIMIT 1",
    ).first<{ id: number }>();
    expect((await api(`${NS}/events/${locked!.id}`)).status).toBe(403);
    const open = await api(`${NS}/events/${locked!.id}?password=${DEMO_PASSWORD}`);
    expect(open.status).toBe(200);
    expect(open.body.description).not.toBe("");
  });

  it("fill in each request's URLs: SITE_URL, language prefixes", async () => {
    const ids = await calendar();
    await renderAll();
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${ORIGIN}/de${NS}/events/${ids[0]}`),
      { ...env, SITE_URL: "https://www.example.org/site" } as never,
      ctx,
    );
    const body = (await res.json()) as Record<string, unknown>;
    await waitOnExecutionContext(ctx);
    expect(body.url).toMatch(/^https:\/\/www\.example\.org\/site\/event\//);
    expect(body.rest_url).toBe(
      `https://www.example.org/site/de/wp-json/tribe/events/v1/events/${ids[0]}`,
    );
    expect(body.global_id).toBe(`www.example.org/site?id=${ids[0]}`);
  });

  it("are what answers are built from", async () => {
    const ids = await calendar();
    await renderAll();
    // A stored text changed behind the triggers' back is what the next answer says.
    await env.DB.prepare(
      "UPDATE event_renderings SET single = '{\"forged\":\u0001S}' WHERE event_id = ?",
    )
      .bind(ids[0])
      .run();
    const res = await api(`${NS}/events/${ids[0]}?pass=forged`);
    expect(res.text).toBe(`{"forged":${ORIGIN}}`);
  });

  it("held by the isolate are not read from D1 again, until they change", async () => {
    await calendar();
    await renderAll();
    const first = await api(`${NS}/events?per_page=5&v=1`);
    // Changed behind the triggers' back (same generation): this isolate keeps what it read.
    await env.DB.exec("UPDATE event_renderings SET list = '{}'");
    const again = await api(`${NS}/events?per_page=5&v=2`);
    expect(again.text).toBe(first.text);
    // A change the triggers see draws a new generation: read from D1 again.
    await api(`${NS}/events/${first.body.events[0].id}`, {
      method: "PATCH",
      json: { title: "Renamed" },
      headers: ADMIN,
    });
    await renderAll();
    const after = await api(`${NS}/events?per_page=5&v=3`);
    expect(after.body.events[0].title).toBe("Renamed");
  });

  it("read lean when nothing changed since the query's last answer, and in full again when a text is missing", async () => {
    stopClock();
    await calendar();
    await renderAll();
    const path = `${NS}/events?per_page=10&start_date=2000-01-01`;
    const first = await api(`${path}&n=1`);
    expect(roundTrips(first)).toBe(1);
    const lean = await api(`${path}&n=2`);
    expect(lean.text).toBe(first.text);
    expect(roundTrips(lean)).toBe(1);
    // A rendering gone stale without the content version moving (nothing a write would do): the
    // lean read finds it out and reads the whole page again, in one snapshot.
    await env.DB.prepare(
      "UPDATE event_renderings SET stale = 1, gen = abs(random()) % 9007199254740991 WHERE event_id = ?",
    )
      .bind(first.body.events[3].id)
      .run();
    const second = await api(`${path}&n=3`);
    expect(second.text).toBe(first.text);
    expect(roundTrips(second)).toBe(2);
    // That answer had an event without a text: the next read is not lean (one round trip).
    expect(roundTrips(await api(`${path}&n=4`))).toBe(1);
    // A single GET, the same way.
    const id = first.body.events[5].id;
    await api(`${NS}/events/${id}?n=1`);
    expect(roundTrips(await api(`${NS}/events/${id}?n=2`))).toBe(1);
    await env.DB.prepare("UPDATE event_renderings SET stale = 1 WHERE event_id = ?").bind(id).run();
    const single = await api(`${NS}/events/${id}?n=3`);
    expect(single.status).toBe(200);
    expect(roundTrips(single)).toBe(2);
  });

  it("missing, unusable or not made: every read answers as the full path", async () => {
    const draft = await seedEvent({ title: "Draft", start: day(2), status: "draft" });
    const pending = await seedEvent({ title: "Pending", start: day(2), status: "pending" });
    const privy = await seedEvent({ title: "Private", start: day(2), status: "private" });
    const trashed = await seedEvent({ title: "Trashed", start: day(2), status: "trash" });
    const open = await seedEvent({ title: "Open", start: day(2) });
    const expected = [
      [draft, 403, "event-not-accessible"],
      [pending, 403, "event-not-accessible"],
      [privy, 403, "event-not-accessible"],
      [trashed, 403, "event-no-longer-available"],
    ] as const;
    const check = async (pass: string) => {
      for (const [id, status, code] of expected) {
        const slug = (await env.DB.prepare("SELECT slug FROM events WHERE id = ?")
          .bind(id)
          .first<{ slug: string }>())!.slug;
        for (const path of [`${NS}/events/${id}`, `${NS}/events/by-slug/${slug}`]) {
          const res = await api(`${path}?pass=${pass}`);
          expect(res.status, `${pass} ${path}`).toBe(status);
          expect(res.body.code, `${pass} ${path}`).toBe(code);
        }
      }
      expect((await api(`${NS}/events/${open}?pass=${pass}`)).body.title).toBe("Open");
    };
    // Not rendered yet, rendered (unpublished events are stored without a text), rendering rows
    // gone, and rendered for other code (another render key).
    await check("stale");
    await renderAll();
    await check("rendered");
    await env.DB.exec("UPDATE event_renderings SET render_key = 'other'");
    await check("other-key");
    await env.DB.exec("DELETE FROM event_renderings");
    await check("missing");
    // A write's after-answer rendering, as `npm start` runs it, then the reads again.
    const ctx = createExecutionContext();
    await worker.fetch(
      new Request(`${ORIGIN}${NS}/events/${open}`, {
        method: "PATCH",
        headers: { ...ADMIN, "content-type": "application/json" },
        body: JSON.stringify({ title: "Open", excerpt: "changed" }),
      }),
      env as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    await check("after-write");
  });

  it("follow every change an event shows, the next read on", async () => {
    const venue = await seedVenue({ title: "Hall", city: "Old Town" });
    const organizer = await seedOrganizer({ title: "Org", phone: "1" });
    const music = await seedTerm("tribe_events_cat", "Music");
    const image = await seedMedia("https://img.example/a.jpg");
    const id = await seedEvent({
      title: "Concert",
      start: day(2, "19:00:00"),
      venueId: venue,
      organizerIds: [organizer],
      termIds: [music],
    });
    await env.DB.prepare("UPDATE events SET image_id = ? WHERE id = ?").bind(image, id).run();
    await renderAll();
    expect(await unrendered()).toBe(0);
    let n = 0;
    const read = async () => (await api(`${NS}/events/${id}?n=${n++}`)).body;
    const list = async () => (await api(`${NS}/events?n=${n++}`)).body.events[0];

    await api(`${NS}/venues/${venue}`, {
      method: "PATCH",
      json: { city: "New Town" },
      headers: ADMIN,
    });
    expect((await read()).venue.city).toBe("New Town");
    await api(`${NS}/organizers/${organizer}`, {
      method: "PATCH",
      json: { phone: "2" },
      headers: ADMIN,
    });
    expect((await list()).organizer[0].phone).toBe("2");
    await api(`${NS}/categories/${music}`, {
      method: "PATCH",
      json: { name: "Jazz" },
      headers: ADMIN,
    });
    expect((await read()).categories[0].name).toBe("Jazz");
    // A term's count follows other events without touching this one.
    await renderAll();
    expect((await list()).categories[0].count).toBe(1);
    await api(`${NS}/events`, {
      json: {
        title: "Second",
        start_date: day(3),
        end_date: day(3, "11:00:00"),
        categories: [music],
      },
      headers: ADMIN,
    });
    await renderAll();
    expect((await read()).categories[0].count).toBe(2);
    await env.DB.prepare("UPDATE media SET source_url = 'https://img.example/b.jpg' WHERE id = ?")
      .bind(image)
      .run();
    expect((await read()).image.url).toBe("https://img.example/b.jpg");
    await api(`${NS}/venues/${venue}`, { method: "DELETE", headers: ADMIN });
    expect((await read()).venue).toEqual([]);
    await api(`${NS}/events/${id}`, { method: "DELETE", headers: ADMIN });
    expect((await api(`${NS}/events/${id}?n=${n++}`)).status).toBe(403);
  });

  it("are never stored from data that changed after it was read", async () => {
    const id = await seedEvent({ title: "Before", start: day(2) });
    const db = writer();
    const loaded = (await runBatch(db, { e: eventLoadQueries(db, { id }) })).e;
    const [record] = assemble(loaded.rows, relatedRows(loaded.related), null);
    const { gen } = (await env.DB.prepare("SELECT gen FROM event_renderings WHERE event_id = ?")
      .bind(id)
      .first<{ gen: number }>())!;
    // A write lands between the read and the store.
    await env.DB.prepare("UPDATE events SET title = 'After' WHERE id = ?").bind(id).run();
    await storeRenderings(db, settings, [{ record, gen }]);
    const row = await env.DB.prepare("SELECT stale, list FROM event_renderings WHERE event_id = ?")
      .bind(id)
      .first<{ stale: number; list: string | null }>();
    expect(row).toEqual({ stale: 1, list: null });
    expect((await api(`${NS}/events/${id}?late=1`)).body.title).toBe("After");
  });
});
