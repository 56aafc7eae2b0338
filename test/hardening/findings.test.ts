/**
 * Regression tests for what the hardening suites found, one per finding,
 * each failing before its fix.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedUser, seedVenue } from "../support/factories";
import { contentDigest } from "./support/digest";

const multipart = (boundary: string, fields: Record<string, string>) =>
  `${Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join("")}--${boundary}--\r\n`;

describe("request bodies", () => {
  it("F1: reads multipart bodies whose boundary has capital letters, as browsers send them", async () => {
    const boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
    const body = multipart(boundary, {
      title: "Upper",
      start_date: "2027-01-01 10:00:00",
      end_date: "2027-01-01 11:00:00",
      "tags[]": "x",
    });
    const res = await api(`${NS}/events`, {
      method: "POST",
      body,
      headers: { ...ADMIN, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: "Upper", tags: [{ name: "x" }] });
  });

  it("F2: refuses a multipart body that cannot be parsed instead of treating it as empty, and changes nothing", async () => {
    const id = await seedEvent({ title: "E", start: day(1) });
    const before = await contentDigest();
    for (const [type, body] of [
      [
        "multipart/form-data; boundary=AbC",
        '--AbC\r\nContent-Disposition: form-data; name="title"\r\n\r\nno end',
      ],
      ["multipart/form-data", "title=x"],
      ["multipart/form-data; boundary=other", multipart("AbC", { title: "x" })],
    ]) {
      const res = await api(`${NS}/events/${id}`, {
        method: "PUT",
        body,
        headers: { ...ADMIN, "content-type": type },
      });
      expect(res.status, type).toBe(400);
      expect(res.body).toMatchObject({
        code: "rest_invalid_param",
        data: { status: 400, params: { body: "Invalid parameter." } },
      });
    }
    expect(await contentDigest()).toBe(before);
    // An empty multipart body is no parameters at all, as before.
    expect(
      (
        await api(`${NS}/events/${id}`, {
          method: "PUT",
          body: "",
          headers: { ...ADMIN, "content-type": "multipart/form-data; boundary=x" },
        })
      ).status,
    ).toBe(200);
  });
});

describe("conditional requests", () => {
  it("F3: If-None-Match: * never turns a refused request into 304; a valid one still gets its 304", async () => {
    await seedEvent({ title: "E", start: day(1) });
    for (const path of [
      `${NS}/events?per_page=-1`,
      `${NS}/events/999999`,
      `${NS}/venues/by-slug/nope`,
      `${NS}/nowhere`,
    ]) {
      const res = await api(path, { headers: { "if-none-match": "*" } });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.body.data.status).toBe(res.status);
    }
    const ok = await api(`${NS}/events`, { headers: { "if-none-match": '"x", *' } });
    expect(ok.status).toBe(304);
    expect(ok.headers.get("etag")).toMatch(/^"[0-9a-f]{40}"$/);
    const first = await api(`${NS}/events`);
    expect(
      (await api(`${NS}/events`, { headers: { "if-none-match": first.headers.get("etag")! } }))
        .status,
    ).toBe(304);
  });
});

describe("search strings", () => {
  it("F4: GET /users?search= with a long phrase answers 200 (no LIKE pattern limit)", async () => {
    await seedUser("editor", "someone.with.a.really.long.user.name.for.searching");
    const long = "someone.with.a.really.long.user.name.for.searching";
    const res = await api(`/wp-json/wp/v2/users?search=${long}`, { headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body.map((u: { username: string }) => u.username)).toEqual([long]);
    expect(
      (await api(`/wp-json/wp/v2/users?search=${"x".repeat(3000)}`, { headers: ADMIN })).body,
    ).toEqual([]);
    // `%` and `_` are letters like any other.
    expect((await api(`/wp-json/wp/v2/users?search=%25`, { headers: ADMIN })).body).toEqual([]);
  });

  it("F5: control characters in search (NUL, line breaks) never reach FTS5; they separate words", async () => {
    await seedEvent({ title: "Jazz night", start: day(1) });
    await seedVenue({ title: "Jazz hall" });
    for (const q of ["jazz%00night", "%00%00%00", "jazz%0Anight", "%00"]) {
      const events = await api(`${NS}/events?search=${q}`);
      expect(events.status, q).toBe(200);
      expect((await api(`${NS}/venues?search=${q}`)).status, q).toBe(200);
      expect((await api(`${NS}/events.ics?search=${q}`)).status, q).toBeLessThan(500);
    }
    expect((await api(`${NS}/events?search=jazz%00night`)).body.total).toBe(1);
  });

  it("F6: venue and organizer searches of many short words stay within D1's 100 bound parameters", async () => {
    await seedVenue({ title: "Ab Cd Ef", city: "Xy" });
    const many = Array.from({ length: 20 }, (_, i) => `a${i % 10}`).join(" ");
    for (const plural of ["venues", "organizers"])
      expect((await api(`${NS}/${plural}?search=${encodeURIComponent(many)}`)).status).toBe(200);
    // Every word must occur in one field (§7.1): short words too.
    expect((await api(`${NS}/venues?search=ab%20cd`)).body.total).toBe(1);
    expect((await api(`${NS}/venues?search=ab%20xy`)).body.total).toBe(0);
    expect((await api(`${NS}/venues?search=xy`)).body.total).toBe(1);
  });

  it("F7: event searches of many words (found fixed in src/events/filters.ts during this work) answer 200", async () => {
    await seedEvent({ title: "w0 w1", start: day(1) });
    for (const n of [10, 20, 40]) {
      for (const length of [2, 4]) {
        const q = Array.from({ length: n }, (_, i) => `${"w".repeat(length - 1)}${i % 10}`).join(
          " -",
        );
        expect((await api(`${NS}/events?search=${encodeURIComponent(q)}`)).status).toBe(200);
      }
    }
  });
});

describe("costs per request", () => {
  it("F8: the D1 handle is built without the relational schema (not used; it cost ~0.1 ms a request)", async () => {
    const { openDb } = await import("../../src/db/client");
    const { db } = openDb(env.DB, { write: false });
    expect((db as unknown as { query?: Record<string, unknown> }).query ?? {}).toEqual({});
  });
});
