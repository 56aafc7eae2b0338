/**
 * Hits of the read cache (src/read-cache/serve.ts) look exactly like the app's own answers — same
 * body, same headers but the per-request ones — and the cache never answers what it must not: other
 * methods, credentials, bookmarks, errors. An answer goes to the Workers Cache API only once it is
 * asked for again. (Staleness: round-trips.test.ts; equivalence with the full path: differential.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { KEY_HOST } from "../../src/read-cache/store";
import { ADMIN, type ApiResponse, api, NS, ORIGIN, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { seedEvent } from "../support/factories";
import { settleEdgeCache } from "../support/isolation";

/** Headers that differ between a miss and a hit by design. */
const PER_ANSWER = new Set(["x-cache", "server-timing", "x-d1-bookmark"]);
const headersOf = (res: ApiResponse) =>
  Object.fromEntries([...res.headers].filter(([name]) => !PER_ANSWER.has(name)));

describe("read cache hits", () => {
  it("a hit is the miss again: body, status and every header but X-Cache and the round trips", async () => {
    await seedEvent({ title: "Concert", start: day(2) });
    for (const origin of [undefined, "https://widget.example"]) {
      const headers: Record<string, string> = origin ? { origin } : {};
      const path = `${NS}/events?per_page=1&o=${origin ? 1 : 0}`;
      const miss = await api(path, { headers });
      const hit = await api(path, { headers });
      expect(miss.headers.get("x-cache")).toBe("MISS");
      expect(hit.headers.get("x-cache")).toBe("HIT");
      expect(roundTrips(hit)).toBe(0);
      expect(hit.headers.get("x-d1-bookmark")).toBeNull();
      expect(hit.status).toBe(200);
      expect(hit.text).toBe(miss.text);
      expect(headersOf(hit)).toEqual(headersOf(miss));
    }
  });

  it("a 304 carries the tag, the caching headers and every REST and discovery header (§12.2, contract §6), for every spelling of the query", async () => {
    await seedEvent({ title: "Concert", start: day(2) });
    const miss = await api(`${NS}/events?per_page=5&page=1`);
    const etag = miss.headers.get("etag")!;
    const origin = "https://widget.example";
    const conditional = { "if-none-match": etag, origin };
    // The URL that was answered, and the same query in another order (the same tag).
    const fromMemory = await api(`${NS}/events?per_page=5&page=1`, { headers: conditional });
    const fromApp = await api(`${NS}/events?page=1&per_page=5`, { headers: conditional });
    for (const res of [fromMemory, fromApp]) {
      expect(res.status).toBe(304);
      expect(res.text).toBe("");
      expect(roundTrips(res)).toBe(0);
      for (const name of [
        "etag",
        "cache-control",
        "vary",
        "x-robots-tag",
        "x-content-type-options",
        "x-tec-api-version",
        "x-tec-api-root",
        "x-tec-api-origin",
        "access-control-expose-headers",
        "access-control-allow-headers",
      ])
        expect(res.headers.get(name), name).toBe(miss.headers.get(name));
      expect(res.headers.get("link")).toBe(`<${ORIGIN}/wp-json/>; rel="https://api.w.org/"`);
      expect(res.headers.get("access-control-allow-origin")).toBe(origin);
      // No representation: the 200 the client holds keeps its own.
      expect(res.headers.get("content-type")).toBeNull();
      expect(res.headers.get("x-wp-total")).toBeNull();
    }
    expect(headersOf(fromMemory)).toEqual(headersOf(fromApp));
  });

  it("HEAD gets the hit's headers and no body", async () => {
    await seedEvent({ title: "Concert", start: day(2) });
    const miss = await api(`${NS}/events`);
    const head = await api(`${NS}/events`, { method: "HEAD" });
    expect(head.headers.get("x-cache")).toBe("HIT");
    expect(head.text).toBe("");
    expect(head.headers.get("etag")).toBe(miss.headers.get("etag"));
  });

  it("never answers with credentials, a bookmark or for a URL that did not answer 200", async () => {
    await seedEvent({ title: "Concert", start: day(2) });
    await api(`${NS}/events`);
    const admin = await api(`${NS}/events`, { headers: ADMIN });
    expect(admin.headers.get("cache-control")).toContain("private");
    expect(admin.headers.get("x-cache")).toBeNull();
    const bookmarked = await api(`${NS}/events`, { headers: { "x-d1-bookmark": "00000000" } });
    expect(bookmarked.headers.get("x-cache")).toBe("MISS");
    // An error is never remembered, so a repeat is the app's error again (with its round trip).
    for (let i = 0; i < 2; i++) {
      const bad = await api(`${NS}/events?per_page=oops`);
      expect(bad.status).toBe(400);
      expect(bad.headers.get("x-cache")).toBeNull();
    }
  });

  it("an answer reaches the Workers Cache API when it is asked for again, not when it is made", async () => {
    await seedEvent({ title: "Concert", start: day(2) });
    const miss = await api(`${NS}/events?per_page=3`);
    const key = new Request(KEY_HOST + miss.headers.get("etag")!.slice(1, -1));
    const cache = (caches as unknown as { default: Cache }).default;
    await settleEdgeCache();
    expect(await cache.match(key)).toBeUndefined();
    await api(`${NS}/events?per_page=3`);
    await settleEdgeCache();
    const shared = await cache.match(key);
    expect(shared).toBeDefined();
    expect(await shared!.text()).toBe(miss.text);
  });
});
