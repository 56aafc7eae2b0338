/**
 * WordPress's global REST parameters on every route (contract §7.7, src/http/global-params.ts):
 * `_fields`, `_embed`, `_envelope`, in both languages, anonymous answers cached per field set.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm, seedVenue } from "../support/factories";

describe("_fields", () => {
  it("keeps the named top-level fields and dot paths, each event's in a list", async () => {
    await seedEvent({ title: "Concert", start: day(2) });
    await seedEvent({ title: "Talk", start: day(3) });
    for (const prefix of ["", "/de"]) {
      const res = await api(`${prefix}${NS}/events?_fields=events.id,events.title,total,nope`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["events", "total"]);
      expect(res.body.events.map((e: Record<string, unknown>) => Object.keys(e))).toEqual([
        ["id", "title"],
        ["id", "title"],
      ]);
      expect(res.body.events.map((e: { title: string }) => e.title)).toEqual(["Concert", "Talk"]);
      // Paging headers are the route's, unchanged.
      expect(res.headers.get("x-wp-total")).toBe("2");
    }
  });

  it("takes an array, a nested path of a single answer, and leaves errors whole", async () => {
    const venue = await seedVenue({ title: "Hall", city: "Springfield" });
    const id = await seedEvent({ title: "Concert", start: day(2), venueId: venue });
    const single = await api(`${NS}/events/${id}?_fields[]=id&_fields[]=venue.city`);
    expect(single.body).toEqual({ id, venue: { city: "Springfield" } });
    const error = await api(`${NS}/events/999999?_fields=id`);
    expect(error.status).toBe(404);
    expect(error.body.code).toBe("rest-event-not-found");
  });

  it("gives every field set its own entity tag and cached answer", async () => {
    await seedEvent({ title: "Concert", start: day(2) });
    const whole = await api(`${NS}/events`);
    const ids = await api(`${NS}/events?_fields=events.id`);
    expect(ids.headers.get("etag")).not.toBe(whole.headers.get("etag"));
    const again = await api(`${NS}/events?_fields=events.id`);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.text).toBe(ids.text);
    expect(
      (
        await api(`${NS}/events?_fields=events.id`, {
          headers: { "if-none-match": ids.headers.get("etag")! },
        })
      ).status,
    ).toBe(304);
  });
});

describe("_envelope", () => {
  it("puts status, the route's headers and the body in a 200", async () => {
    await seedEvent({ title: "Concert", start: day(2) });
    const res = await api(`${NS}/events?per_page=1&_envelope`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    expect(res.body.headers["X-WP-Total"]).toBe("1");
    expect(res.body.headers.Allow).toBe("GET");
    expect(res.body.body.events[0].title).toBe("Concert");
    const missing = await api(`/de${NS}/events/999999?_envelope=1`);
    expect(missing.status).toBe(200);
    expect(missing.body.status).toBe(404);
    expect(missing.body.body.code).toBe("rest-event-not-found");
  });

  it("names the route's headers as WordPress sends them, on lists, singles and creates", async () => {
    await seedEvent({ title: "Concert", start: day(2) });
    await seedEvent({ title: "Talk", start: day(3) });
    const list = await api(`${NS}/events?per_page=1&_envelope`);
    expect(list.body.headers).toMatchObject({
      "X-TEC-Total": "2",
      "X-TEC-TotalPages": "2",
      "X-WP-Total": "2",
      "X-WP-TotalPages": "2",
      Link: expect.stringContaining('rel="next"'),
      Allow: "GET",
    });
    const single = await api(`/de${NS}/events/${list.body.body.events[0].id}?_envelope`);
    expect(single.body.headers).toEqual({ Allow: "GET" });
    const created = await api(`${NS}/tags?_envelope`, {
      json: { name: "Outdoors" },
      headers: ADMIN,
    });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe(201);
    expect(created.body.headers).toMatchObject({
      Location: `${ORIGIN}${NS}/tags/${created.body.body.id}`,
      Allow: "GET, POST",
    });
    const users = await api("/wp-json/wp/v2/users?_envelope", { headers: ADMIN });
    expect(users.body.headers).toMatchObject({ "X-WP-Total": "1", "X-WP-TotalPages": "1" });
    // No name twice, none in another case.
    for (const answer of [list, single, created, users])
      for (const name of Object.keys(answer.body.headers))
        expect(name).not.toMatch(/^(x-wp|x-tec|link|location|allow)/);
  });

  it("works with _fields and with credentials", async () => {
    await seedEvent({ title: "Concert", start: day(2), status: "draft" });
    const res = await api(`${NS}/events?status=draft&_envelope&_fields=total`, { headers: ADMIN });
    expect(res.body).toMatchObject({ status: 200, body: { total: 1 } });
    expect(res.headers.get("cache-control")).toContain("private");
  });
});

describe("_embed", () => {
  it("takes `true` and `1` for every relation, as WordPress's rest_parse_embed_param (wpapi sends `_embed=true`)", async () => {
    const parent = await seedTerm("tribe_events_cat", "Music");
    const child = await seedTerm("tribe_events_cat", "Jazz", { parent });
    for (const value of ["true", "1", "", "up", "up,nope"]) {
      const res = await api(`${NS}/categories/${child}?_embed=${value}`);
      expect(res.body._embedded?.up?.[0]?.id, value).toBe(parent);
    }
    const other = await api(`${NS}/categories/${child}?_embed=nope`);
    expect(other.body._embedded).toBeUndefined();
  });

  it("embeds what each embeddable link answers, and is harmless where nothing is", async () => {
    const parent = await seedTerm("tribe_events_cat", "Music");
    const child = await api(`${NS}/categories`, {
      json: { name: "Jazz", parent },
      headers: ADMIN,
    });
    const res = await api(`${NS}/categories/${child.body.id}?_embed`);
    expect(res.status).toBe(200);
    // The `up` link names WordPress's own route, answered in the `embed` context.
    expect(res.body._links.up[0].embeddable).toBe(true);
    expect(res.body._embedded.up).toEqual([
      {
        id: parent,
        link: `${ORIGIN}/events/category/music/`,
        name: "Music",
        slug: "music",
        taxonomy: "tribe_events_cat",
        _links: expect.objectContaining({ self: expect.any(Array) }),
      },
    ]);
    const plain = await api(`${NS}/categories/${parent}?_embed`);
    expect(plain.body._embedded).toBeUndefined();
    const list = await api(`${NS}/events?_embed=1`);
    expect(list.status).toBe(200);
    expect(list.body.events).toEqual([]);
  });
});
