/**
 * The client and its sync against a small fake of the service (fetch in memory): paging along
 * `next_rest_url`, the sync cursor (`X-TEC-Sync-Cursor`, `sync_cursor`: positions in the order of
 * the changes), `/deleted`, ETags and 304s, the error envelope. The client reads no clock.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, test, vi } from "vitest";
import { syncCursorOf, TecClient } from "./client.js";
import { TecApiError } from "./errors.js";
import { FileStore } from "./node.js";
import { MemoryStore, sync } from "./sync.js";
import { verifyWebhook } from "./webhooks.js";

const BASE = "https://cal.example/en/wp-json/tribe/events/v1";
type Row = { id: number; changed: number; [k: string]: unknown };
type Entry = { id: number; type: string; status: string; changed: number };

/**
 * The fake service: rows per list with the position of their change, the log of what readers can
 * no longer see, a version for ETags. `onServe` runs after an answer is made (a write committed
 * while a client walks).
 */
function fakeService() {
  let seq = 0;
  let version = 1;
  const lists: Record<string, Row[]> = {
    events: [],
    venues: [],
    organizers: [],
    categories: [],
    tags: [],
  };
  let deleted: Entry[] = [];
  const requests: { url: string; status: number; headers: Headers }[] = [];
  const service = {
    requests,
    onServe: undefined as undefined | ((url: URL) => void),
    put(list: string, row: Record<string, unknown> & { id: number }) {
      seq++;
      // In place: the service's orders are stable (events by start, …).
      const kept = { ...row, changed: seq, utc_start_date: "2026-01-01 10:00:00" };
      const at = lists[list].findIndex((r) => r.id === row.id);
      if (at < 0) lists[list].push(kept);
      else lists[list][at] = kept;
      // Back in view: out of the log (as the service's log drops it).
      if (!row.protected) deleted = deleted.filter((d) => d.id !== row.id);
      version++;
    },
    remove(list: string, id: number, type: string, status = "deleted") {
      seq++;
      lists[list] = lists[list].filter((r) => r.id !== id);
      deleted = deleted.filter((d) => d.id !== id);
      deleted.push({ id, type, status, changed: seq });
      version++;
    },
    /** Password-protected: still listed, blanked, and in the log (both at one position). */
    protect(list: string, id: number, type: string) {
      service.put(list, { id, title: "", protected: true });
      deleted.push({ id, type, status: "protected", changed: seq });
    },
    fetch: async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      const headers = new Headers(init?.headers);
      const route = url.pathname.slice(new URL(BASE).pathname.length + 1).replace(/\/$/, "");
      const cursor = url.searchParams.get("sync_cursor");
      const after = cursor === null ? -1 : Number(cursor);
      const etag = `"v${version}:${url.search}"`;
      const answer = (status: number, body?: unknown) => {
        requests.push({ url: url.href, status, headers });
        const res = new Response(body === undefined ? null : JSON.stringify(body), {
          status,
          headers: status === 200 ? { etag, "x-tec-sync-cursor": String(seq) } : { etag },
        });
        service.onServe?.(url);
        return res;
      };
      if (headers.get("if-none-match") === etag) return answer(304);
      if (route === "events/404")
        return answer(404, {
          code: "rest-event-not-found",
          message: "nope",
          data: { status: 404 },
        });
      const rows =
        route === "deleted"
          ? deleted
              .filter((d) => d.changed > after)
              .map(({ changed, ...d }) => ({ ...d, deleted_utc: "x", sync_cursor: changed }))
          : (lists[route] ?? []).filter((r) => r.changed > after).map(({ changed, ...r }) => r);
      const perPage = Number(url.searchParams.get("per_page") ?? 10);
      const page = Number(url.searchParams.get("page") ?? 1);
      const totalPages = Math.max(1, Math.ceil(rows.length / perPage));
      const next = new URL(url);
      next.searchParams.set("page", String(page + 1));
      return answer(200, {
        [route]: rows.slice((page - 1) * perPage, page * perPage),
        total: rows.length,
        total_pages: totalPages,
        ...(page < totalPages ? { next_rest_url: next.href } : {}),
      });
    },
  };
  return service;
}

function setup() {
  const service = fakeService();
  for (let id = 1; id <= 7; id++) service.put("events", { id, title: `Event ${id}` });
  service.put("venues", { id: 20, venue: "Hall" });
  service.put("tags", { id: 30, name: "Jazz" });
  const client = new TecClient({ baseUrl: BASE, fetch: service.fetch });
  const options = { perPage: 3 };
  return { service, client, options };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("sync", () => {
  test("the first run walks every list along next_rest_url; a later run asks only what changed after the cursors", async () => {
    const { service, client, options } = setup();
    const store = new MemoryStore();
    const first = await sync(client, store, options);
    expect(first.first).toBe(true);
    expect(first.events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(first.stats.requests).toBe(3 + 4); // events in 3 pages, 4 other lists
    expect(service.requests[0].url).toContain("start_date=1970-01-01");

    service.put("events", { id: 3, title: "Changed" });
    service.remove("events", 5, "event");
    const second = await sync(client, store, options);
    expect(second.first).toBe(false);
    expect(second.stats.requests).toBe(6); // five lists and /deleted, once each
    expect(second.changed.events).toEqual({ upserted: [3], removed: [5] });
    expect(second.events.find((e) => e.id === 3)?.title).toBe("Changed");
    expect(second.events.map((e) => e.id)).not.toContain(5);
    expect(service.requests.slice(-6).every((r) => r.url.includes("sync_cursor="))).toBe(true);
    expect(service.requests.some((r) => r.url.includes("modified_after"))).toBe(false);
  });

  test("no client clock: a clock far off changes nothing", async () => {
    const { service, client, options } = setup();
    const store = new MemoryStore();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2099-01-01T00:00:00Z"));
    await sync(client, store, options);
    vi.setSystemTime(new Date("2001-01-01T00:00:00Z"));
    service.put("events", { id: 2, title: "Changed while the clock went back" });
    const second = await sync(client, store, options);
    expect(second.changed.events.upserted).toEqual([2]);
  });

  test("a write committed while a run walks the lists is found by the next run", async () => {
    const { service, client, options } = setup();
    const store = new MemoryStore();
    // Right after the first page of /events is read, an event on it changes.
    service.onServe = (url) => {
      if (url.pathname.endsWith("/events") && !url.searchParams.has("page")) {
        service.onServe = undefined;
        service.put("events", { id: 1, title: "Changed during the walk" });
      }
    };
    const first = await sync(client, store, options);
    expect(first.events.find((e) => e.id === 1)?.title).toBe("Event 1");
    const second = await sync(client, store, options);
    expect(second.changed.events.upserted).toEqual([1]);
    expect(second.events.find((e) => e.id === 1)?.title).toBe("Changed during the walk");
  });

  test("a log entry older than the list's page keeps the item the list shows (protected: listed blanked)", async () => {
    const { service, client, options } = setup();
    const store = new MemoryStore();
    await sync(client, store, options);
    service.protect("events", 4, "event");
    const second = await sync(client, store, options);
    expect(second.changed.events).toEqual({ upserted: [4], removed: [] });
    expect(second.events.find((e) => e.id === 4)?.title).toBe("");
    // A removal after the list was read wins over what the list showed.
    service.onServe = (url) => {
      if (url.pathname.endsWith("/events")) {
        service.onServe = undefined;
        service.remove("events", 6, "event", "trash");
      }
    };
    service.put("events", { id: 6, title: "Edited, then trashed" });
    const third = await sync(client, store, options);
    expect(third.changed.events.removed).toEqual([6]);
    expect(third.events.map((e) => e.id)).not.toContain(6);
  });

  test("a run that finds nothing asks the same URLs next time, answered 304", async () => {
    const { client, options } = setup();
    const store = new MemoryStore();
    await sync(client, store, options);
    await sync(client, store, options);
    const third = await sync(client, store, options);
    expect(third.stats).toMatchObject({ requests: 6, notModified: 6, bytes: 0 });
    expect(third.events).toHaveLength(7);
  });

  test("a full run revalidates the pages it walked and drops what is no longer listed", async () => {
    const { service, client, options } = setup();
    const store = new MemoryStore();
    await sync(client, store, options);
    const again = await sync(client, store, { ...options, full: true });
    expect(again.stats.notModified).toBe(again.stats.requests);
    expect(again.events).toHaveLength(7);
    // Gone without a trace in /deleted (an event out of its window): only a full run sees it.
    service.remove("events", 7, "x");
    const full = await sync(client, store, { ...options, full: true });
    expect(full.events.map((e) => e.id)).not.toContain(7);
  });

  test("a service that sends no cursor gets a full run every time", async () => {
    const { service, client, options } = setup();
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const res = await service.fetch(input, init);
      const headers = new Headers(res.headers);
      headers.delete("x-tec-sync-cursor");
      return new Response(res.body, { status: res.status, headers });
    };
    const bare = new TecClient({ baseUrl: BASE, fetch });
    const store = new MemoryStore();
    await sync(bare, store, options);
    service.remove("events", 2, "event");
    const second = await sync(bare, store, options);
    expect(second.events.map((e) => e.id)).not.toContain(2);
    expect(service.requests.some((r) => r.url.includes("sync_cursor"))).toBe(false);
    expect(client.baseUrl).toBe(BASE);
  });

  test("other options (another window) start over", async () => {
    const { client, options } = setup();
    const store = new MemoryStore();
    await sync(client, store, options);
    const other = await sync(client, store, { ...options, window: { start: "2026-01-01" } });
    expect(other.first).toBe(true);
  });

  test("FileStore keeps the snapshot in the directory it is given", async () => {
    const { client, options } = setup();
    const dir = mkdtempSync(path.join(tmpdir(), "tec-client-"));
    try {
      await sync(client, new FileStore(dir), options);
      const second = await sync(client, new FileStore(dir), options);
      expect(second.first).toBe(false);
      expect(second.events).toHaveLength(7);
      expect(second.stats.requests).toBe(6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("TecClient", () => {
  test("reads every sync cursor the service sends, up to the largest safe integer", () => {
    const of = (value: string) => syncCursorOf(new Headers({ "x-tec-sync-cursor": value }));
    expect(of("42")).toBe(42);
    // A restored calendar's clock passes the time floor: 16 digits.
    expect(of("1800000000000041")).toBe(1800000000000041);
    expect(of("9007199254740993")).toBeUndefined();
    expect(of("-1")).toBeUndefined();
    expect(syncCursorOf(new Headers())).toBeUndefined();
  });

  test("error answers throw TecApiError with the envelope's code", async () => {
    const { client } = setup();
    const error = await client.get("events", 404).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TecApiError);
    expect(error).toMatchObject({ code: "rest-event-not-found", status: 404 });
  });

  test("get() revalidates with If-None-Match and reuses its copy on a 304", async () => {
    const { service, client } = setup();
    const a = await client.get("events", 1);
    const b = await client.get("events", 1);
    expect(b).toEqual(a);
    expect(service.requests.at(-1)?.status).toBe(304);
  });

  test("application passwords are sent as Basic auth; _fields keeps id and the paging fields", async () => {
    const service = fakeService();
    const client = new TecClient({
      baseUrl: BASE,
      fetch: service.fetch,
      auth: { username: "ed", password: "abcd efgh" },
    });
    await client.all("venues", { fields: ["venue"] });
    const [req] = service.requests;
    expect(req.headers.get("authorization")).toBe(`Basic ${btoa("ed:abcd efgh")}`);
    expect(new URL(req.url).searchParams.get("_fields")).toBe(
      "venues.id,venues.venue,rest_url,next_rest_url,total,total_pages",
    );
  });

  test("links to another host are refused; the same path on another origin is moved to the base", () => {
    const client = new TecClient({ baseUrl: BASE });
    expect(() => client.url("https://evil.example/x")).toThrow(/outside the API/);
    expect(client.url("https://site.example/en/wp-json/tribe/events/v1/events?page=2")).toBe(
      `${BASE}/events?page=2`,
    );
  });
});

test("verifyWebhook accepts a signed delivery and refuses a tampered one", () => {
  const secret = `whsec_${btoa("a secret of thirty-two bytes!!!!")}`;
  const body = JSON.stringify({
    type: "calendar.changed",
    timestamp: "2026-11-22T11:02:00Z",
    data: {},
  });
  const id = "msg_1";
  const now = new Date();
  const signature = new Webhook(secret).sign(id, now, body);
  const headers = {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signature,
  };
  expect(verifyWebhook(secret, body, headers).type).toBe("calendar.changed");
  expect(() => verifyWebhook(secret, `${body} `, new Headers(headers))).toThrow();
});
