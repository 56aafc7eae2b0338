/**
 * Query strings the hardening suites found to break routes: search phrases of any length and
 * content, parameter values that name `Object.prototype` members, and query strings over the length
 * bound. Each answers as documented, never 500.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm, seedUser, seedVenue } from "../support/factories";

describe("search phrases of any length and content answer 200", () => {
  // `search` must not become `LIKE '%…%'`: D1 refuses LIKE patterns over 50 bytes, which is a 500
  // as soon as one row is compared (instr() has no such limit).
  it("a long phrase in a term search", async () => {
    await seedTerm("tribe_events_cat", "Music");
    const res = await api(`${NS}/categories?search=${"a".repeat(60)}&hide_empty=false`);
    expect(res.status).toBe(200);
  });

  it("a long phrase in a user search, which finds the user; % and _ are letters like any other", async () => {
    await seedUser("editor", "someone.with.a.really.long.user.name.for.searching");
    const long = "someone.with.a.really.long.user.name.for.searching";
    const res = await api(`/wp-json/wp/v2/users?search=${long}`, { headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body.map((u: { username: string }) => u.username)).toEqual([long]);
    expect(
      (await api(`/wp-json/wp/v2/users?search=${"x".repeat(3000)}`, { headers: ADMIN })).body,
    ).toEqual([]);
    expect((await api(`/wp-json/wp/v2/users?search=%25`, { headers: ADMIN })).body).toEqual([]);
  });

  it("control characters (NUL, line breaks) never reach FTS5: they separate words", async () => {
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

  it("venue and organizer searches of many short words stay within D1's 100 bound parameters", async () => {
    await seedVenue({ title: "Ab Cd Ef", city: "Xy" });
    const many = Array.from({ length: 20 }, (_, i) => `a${i % 10}`).join(" ");
    for (const plural of ["venues", "organizers"])
      expect((await api(`${NS}/${plural}?search=${encodeURIComponent(many)}`)).status).toBe(200);
    // Every word must occur in one field (§7.1): short words too.
    expect((await api(`${NS}/venues?search=ab%20cd`)).body.total).toBe(1);
    expect((await api(`${NS}/venues?search=ab%20xy`)).body.total).toBe(0);
    expect((await api(`${NS}/venues?search=xy`)).body.total).toBe(1);
  });

  it("event searches of many words, excluded words included", async () => {
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

describe("other parameters", () => {
  // A lookup `columns[key] ?? byName` would pick an Object.prototype member for these: own keys only.
  it("orderby naming an Object.prototype member (__proto__, constructor, toString) orders by name", async () => {
    await seedTerm("post_tag", "b");
    await seedTerm("post_tag", "a");
    for (const orderby of ["__proto__", "constructor", "toString"]) {
      const res = await api(`${NS}/tags?orderby=${orderby}&hide_empty=false`);
      expect(res.status, orderby).toBe(200);
      expect(res.body.tags.map((t: { name: string }) => t.name)).toEqual(["a", "b"]);
    }
  });

  // Enforced by the app for every route, not only by the handlers that parse their parameters.
  it("every route refuses a query string over 8192 characters with 414", async () => {
    const long = `x=${"q".repeat(9000)}`;
    expect((await api(`${NS}/doc?${long}`)).status).toBe(414);
    expect((await api(`/wp-json/wp/v2/users/me?${long}`, { headers: ADMIN })).status).toBe(414);
  });
});
