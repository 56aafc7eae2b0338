import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { seedEvent } from "../support/factories";

describe("conditional requests and the edge cache (contract §6)", () => {
  it("tags anonymous answers, serves repeats from the edge cache and answers If-None-Match with 304", async () => {
    await seedEvent({ title: "Cached", start: day(1) });
    const first = await api(`${NS}/events`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(first.headers.get("cache-control")).toBe(
      "public, max-age=60, stale-while-revalidate=300",
    );
    expect(first.headers.get("x-cache")).toBe("MISS");
    // A miss is one round trip (the version rides with the page's batch); with the
    // version in memory, a hit and a 304 touch no database.
    expect(roundTrips(first)).toBe(1);

    const second = await api(`${NS}/events`, { headers: { origin: "https://other.example" } });
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.text).toBe(first.text);
    expect(second.headers.get("etag")).toBe(etag);
    expect(second.headers.get("access-control-allow-origin")).toBe("https://other.example");
    expect(roundTrips(second)).toBe(0);
    // A hit says what the route allows anonymous users, like the miss did (§12.2).
    expect(first.headers.get("allow")).toBe("GET");
    expect(second.headers.get("allow")).toBe(first.headers.get("allow"));

    const notModified = await api(`${NS}/events`, { headers: { "if-none-match": etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe("");
    expect(notModified.headers.get("etag")).toBe(etag);
    expect(roundTrips(notModified)).toBe(0);
  });

  it("changes the tag with every write, so no stale answer survives it", async () => {
    await seedEvent({ title: "Before", start: day(1) });
    const before = await api(`${NS}/events`);
    const etag = before.headers.get("etag")!;
    await api(`${NS}/events`, {
      json: { title: "After", start_date: day(2), end_date: day(2, "11:00:00") },
      headers: ADMIN,
    });
    const after = await api(`${NS}/events`, { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.body.events.map((e: any) => e.title)).toEqual(["Before", "After"]);
  });

  it("gives every language and query its own tag; query order does not matter", async () => {
    const a = (await api(`${NS}/events?per_page=5&page=1`)).headers.get("etag");
    const b = (await api(`${NS}/events?page=1&per_page=5`)).headers.get("etag");
    const de = (await api(`/de${NS}/events?per_page=5&page=1`)).headers.get("etag");
    const other = (await api(`${NS}/events?per_page=6`)).headers.get("etag");
    expect(a).toBe(b);
    expect(new Set([a, de, other]).size).toBe(3);
  });

  it("keeps authenticated answers private and untagged", async () => {
    const res = await api(`${NS}/events`, { headers: ADMIN });
    expect(res.headers.get("etag")).toBeNull();
    expect(res.headers.get("cache-control")).toBe(
      "no-cache, must-revalidate, max-age=0, no-store, private",
    );
  });

  it("does not cache errors", async () => {
    const res = await api(`${NS}/events/999999`);
    expect(res.status).toBe(404);
    expect(res.headers.get("etag")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("carries the D1 bookmark in and out", async () => {
    const write = await api(`${NS}/events`, {
      json: { title: "Mine", start_date: day(1), end_date: day(1, "11:00:00") },
      headers: ADMIN,
    });
    const bookmark = write.headers.get("x-d1-bookmark")!;
    expect(bookmark).toBeTruthy();
    const read = await api(`${NS}/events/${write.body.id}`, {
      headers: { "x-d1-bookmark": bookmark },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get("x-d1-bookmark")).toBeTruthy();
    const junk = await api(`${NS}/events`, { headers: { "x-d1-bookmark": "not-a-bookmark" } });
    expect(junk.status).toBe(200);
  });
});
