/**
 * Sync without clocks (contract §7.3): every list answer carries a server cursor
 * (`X-TEC-Sync-Cursor`), a client passes it back as `sync_cursor`, and nothing committed after the
 * read is missed — not even a write that started before it — while cached anonymous answers carry
 * the cursor of the data they hold.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { forgetVersion } from "../../src/read-cache/version";
import { ADMIN, type ApiResponse, api, apiRequest, apiResponse, NS } from "../support/api";
import { day } from "../support/dates";
import { cursorOf } from "./mirror";

const EVERY = "start_date=1970-01-01&end_date=2999-12-31";
const LISTS = [
  `events?${EVERY}`,
  "venues?per_page=50",
  "organizers",
  "categories?hide_empty=false",
  "tags?hide_empty=false",
  "deleted",
  `events.ics?${EVERY}`,
];
const ids = (list: Array<{ id: number }>) => list.map((x) => x.id);

/** A write as the administrator. */
async function write(method: string, path: string, json?: unknown) {
  const res = await api(`${NS}${path}`, { method, json, headers: ADMIN });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** UTC `Y-m-d H:i:s` of an HTTP date, moved by `seconds`. */
const utc = (httpDate: string, seconds = 0) =>
  new Date(Date.parse(httpDate) + seconds * 1000).toISOString().slice(0, 19).replace("T", " ");

async function calendar() {
  const venue = await write("POST", "/venues", { venue: "Blue Hall" });
  const tag = await write("POST", "/tags", { name: "Jazz" });
  const event = await write("POST", "/events", {
    title: "Concert",
    start_date: day(5),
    end_date: day(5, "12:00:00"),
    venue: venue.id,
    tags: [tag.id],
  });
  const other = await write("POST", "/events", {
    title: "Market",
    start_date: day(6),
    end_date: day(6, "12:00:00"),
  });
  return { venue: venue.id, tag: tag.id, event: event.id, other: other.id };
}

describe("every list answer carries a server cursor", () => {
  it("the lists, /deleted and the feed send X-TEC-Sync-Cursor and Date; passed back, only what changed after it", async () => {
    const cal = await calendar();
    const first = await Promise.all(LISTS.map((path) => api(`${NS}/${path}`)));
    for (const [i, res] of first.entries()) {
      expect(res.status, LISTS[i]).toBe(200);
      expect(res.headers.get("x-tec-sync-cursor"), LISTS[i]).toMatch(/^\d+$/);
      expect(Date.parse(res.headers.get("date") ?? ""), LISTS[i]).not.toBeNaN();
      expect(res.headers.get("access-control-expose-headers")).toContain("X-TEC-Sync-Cursor");
    }
    // No write in between: one position for all of them.
    const cursor = cursorOf(first[0]);
    expect(new Set(first.map(cursorOf))).toEqual(new Set([cursor]));
    expect(first[5].body.sync_cursor).toBe(cursor);

    await write("PATCH", `/events/${cal.event}`, { title: "Concert, later" });
    await write("PATCH", `/tags/${cal.tag}`, { description: "Swing too" });
    const venue = await write("POST", "/venues", { venue: "Red Barn" });
    const since = (path: string) =>
      api(`${NS}/${path}${path.includes("?") ? "&" : "?"}sync_cursor=${cursor}`);
    expect(ids((await since(`events?${EVERY}`)).body.events)).toEqual([cal.event]);
    expect(ids((await since("venues")).body.venues)).toEqual([venue.id]);
    expect(ids((await since("tags?hide_empty=false")).body.tags)).toEqual([cal.tag]);
    expect((await since("organizers")).body.organizers).toEqual([]);
    expect((await since("categories?hide_empty=false")).body.categories).toEqual([]);
    const feed = await since(`events.ics?${EVERY}`);
    expect(feed.text.match(/^SUMMARY:.*$/gm)).toEqual(["SUMMARY:Concert\\, later"]);

    // The next cursor is further on, and nothing changed after it.
    const now = await since(`events?${EVERY}`);
    expect(cursorOf(now)).toBeGreaterThan(cursor);
    expect(now.body.rest_url).toContain(`sync_cursor=${cursor}`);
    const again = await api(`${NS}/events?${EVERY}&sync_cursor=${cursorOf(now)}`);
    expect(again.body).toMatchObject({ events: [], total: 0 });
    expect(cursorOf(again)).toBe(cursorOf(now));
  });

  it("a write that began before a list was read and committed after it is found by the cursor, not by the clock", async () => {
    const cal = await calendar();
    const read = await api(`${NS}/events?${EVERY}`);
    const cursor = cursorOf(read);
    const date = read.headers.get("date")!;
    // A write stamped before the read (its worker took the time, then waited: an image check, a
    // retry) commits after it — as straight into D1, from another isolate.
    const stamp = utc(date, -30);
    await env.DB.batch([
      env.DB.prepare(
        "UPDATE events SET title = 'Concert, moved', post_modified_gmt = ?1, changed_gmt = ?1 WHERE id = ?2",
      ).bind(stamp, cal.event),
      env.DB.prepare(
        "UPDATE events SET status = 'trash', trash_meta_status = 'publish', changed_gmt = ?1 WHERE id = ?2",
      ).bind(stamp, cal.other),
    ]);
    forgetVersion();
    // The clock the old way would have used misses both: their change times lie before the read.
    const since = encodeURIComponent(`${utc(date).replace(" ", "T")}Z`);
    expect((await api(`${NS}/events?${EVERY}&modified_after=${since}`)).body.events).toEqual([]);
    expect((await api(`${NS}/deleted?modified_after=${since}`)).body.deleted).toEqual([]);
    // The cursor does not.
    const changed = await api(`${NS}/events?${EVERY}&sync_cursor=${cursor}`);
    expect(changed.body.events.map((e: any) => [e.id, e.title])).toEqual([
      [cal.event, "Concert, moved"],
    ]);
    const gone = await api(`${NS}/deleted?sync_cursor=${cursor}`);
    expect(gone.body.deleted.map((d: any) => [d.id, d.status])).toEqual([[cal.other, "trash"]]);
    expect(gone.body.deleted[0].sync_cursor).toBeGreaterThan(cursor);
    expect(gone.body.deleted[0].sync_cursor).toBeLessThanOrEqual(cursorOf(gone));
  });

  it("a venue or organizer edit counts as a change of the events that show it, by cursor and by time", async () => {
    const cal = await calendar();
    const organizer = await write("POST", "/organizers", { organizer: "Jazz Club" });
    await write("PATCH", `/events/${cal.event}`, { organizer: [organizer.id] });
    for (const [path, json, shown] of [
      [`/venues/${cal.venue}`, { city: "Springfield" }, (e: any) => e.venue.city],
      [`/organizers/${organizer.id}`, { phone: "555-0100" }, (e: any) => e.organizer[0].phone],
    ] as const) {
      // Everything so far changed long ago (for `modified_after`, whose change times are seconds).
      await env.DB.batch(
        ["events", "venues", "organizers"].map((t) =>
          env.DB.prepare(`UPDATE ${t} SET changed_gmt = '2026-01-01 00:00:00'`),
        ),
      );
      forgetVersion();
      const read = await api(`${NS}/events?${EVERY}`);
      await write("PATCH", path, json);
      for (const filter of [`sync_cursor=${cursorOf(read)}`, "modified_after=2026-06-01"]) {
        const changed = await api(`${NS}/events?${EVERY}&${filter}`);
        expect(ids(changed.body.events), `${path} ${filter}`).toEqual([cal.event]);
        expect(shown(changed.body.events[0])).toBe(Object.values(json)[0]);
      }
    }
  });
});

/** One request through the worker with `READ_CACHE=off`: the full path. */
async function fullPath(path: string): Promise<ApiResponse> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(apiRequest(path), { ...env, READ_CACHE: "off" } as never, ctx);
  await waitOnExecutionContext(ctx);
  return apiResponse(res);
}

describe("cached answers carry the cursor of the data they hold", () => {
  it("a change anonymous readers cannot see moves signed-in cursors only; cache, full path and 304 agree", async () => {
    await calendar();
    const path = `${NS}/venues`;
    const miss = await api(path);
    const cursor = cursorOf(miss);
    // A draft: the sync clock moves, the content version (and every cached answer) does not.
    await write("POST", "/events", {
      title: "Plans",
      status: "draft",
      start_date: day(3),
      end_date: day(3, "12:00:00"),
    });
    expect(cursorOf(await api(path, { headers: ADMIN }))).toBeGreaterThan(cursor);
    const hit = await api(path);
    expect(hit.headers.get("etag")).toBe(miss.headers.get("etag"));
    expect(cursorOf(hit)).toBe(cursor);
    const full = await fullPath(path);
    expect(full.headers.get("etag")).toBe(miss.headers.get("etag"));
    expect(cursorOf(full)).toBe(cursor);
    const deleted = [await api(`${NS}/deleted`), await fullPath(`${NS}/deleted`)];
    expect(deleted.map((r) => r.body.sync_cursor)).toEqual([cursor, cursor]);

    // A change they can see: a new tag and a new cursor, the change at or below it.
    const venue = await write("POST", "/venues", { venue: "Red Barn" });
    const fresh = await api(path);
    expect(fresh.headers.get("etag")).not.toBe(miss.headers.get("etag"));
    expect(cursorOf(fresh)).toBeGreaterThan(cursor);
    expect(ids((await api(`${path}?sync_cursor=${cursor}`)).body.venues)).toEqual([venue.id]);
    expect((await api(`${path}?sync_cursor=${cursorOf(fresh)}`)).body.venues).toEqual([]);
  });
});

describe("sync_cursor", () => {
  it("takes a whole number from 0 up; anything else is 400 rest_invalid_param naming it", async () => {
    for (const list of ["events", "venues", "organizers", "categories", "tags", "deleted"]) {
      expect((await api(`${NS}/${list}?sync_cursor=0`)).status, list).toBe(200);
      // Every position the clock reaches, up to the largest safe integer: after a restore it
      // passes the time floor, 16 digits (scripts/lib/restore-sql.ts).
      expect((await api(`${NS}/${list}?sync_cursor=1800000000000000`)).status, list).toBe(200);
      expect((await api(`${NS}/${list}?sync_cursor=9007199254740991`)).status, list).toBe(200);
      for (const bad of ["abc", "-1", "1.5", "", "1e3", "9007199254740993"]) {
        const res = await api(`${NS}/${list}?sync_cursor=${bad}`);
        expect(res.status, `${list} ${bad}`).toBe(400);
        expect(res.body.code).toBe("rest_invalid_param");
        expect(Object.keys(res.body.data.params)).toEqual(["sync_cursor"]);
      }
    }
  });
});
