/**
 * WordPress REST discovery (contract §7.4): a generic WordPress client starts from the site
 * URL, follows the `Link: <…/wp-json/>; rel="https://api.w.org/"` header to the REST index
 * (WordPress `get_index`), builds its route table from `routes`, and falls back to the
 * plain-permalink form `/?rest_route=/…` where pretty URLs fail.
 */
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { siteZone } from "../../src/root/rest-index";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { withoutClock } from "../support/clock";
import { day } from "../support/dates";
import { seedEvent, seedOrganizer, seedTerm, seedVenue } from "../support/factories";

/** The `rel="https://api.w.org/"` target of a `Link` header. */
const apiLink = (header: string | null) =>
  /<([^>]+)>;\s*rel="https:\/\/api\.w\.org\/"/.exec(header ?? "")?.[1];

/** A WordPress route regex made a path: `(?P<id>\d+)` → the value given for `id`. */
const fill = (route: string, values: Record<string, string | number>) =>
  route.replace(/\(\?P<(\w+)>[^)]*\)/g, (_, name: string) => String(values[name]));

describe("GET /wp-json/ — the WordPress REST index", () => {
  it("describes the site and every route of tribe/events/v1 and wp/v2, as WordPress shows them", async () => {
    const res = await api("/wp-json/");
    expect(res.status).toBe(200);
    expect(res.headers.get("allow")).toBe("GET");
    expect(Object.keys(res.body)).toEqual([
      "name",
      "description",
      "url",
      "home",
      "gmt_offset",
      "timezone_string",
      "page_for_posts",
      "page_on_front",
      "show_on_front",
      "namespaces",
      "authentication",
      "routes",
      "site_logo",
      "site_icon",
      "site_icon_url",
      "_links",
    ]);
    expect(res.body).toMatchObject({
      name: "Events Calendar",
      url: ORIGIN,
      home: ORIGIN,
      gmt_offset: 0,
      timezone_string: "UTC",
      namespaces: ["tribe/events/v1", "wp/v2"],
      authentication: {
        "application-passwords": {
          endpoints: { authorization: `${ORIGIN}/wp-admin/authorize-application.php` },
        },
      },
      _links: { help: [{ href: "https://developer.wordpress.org/rest-api/" }] },
    });
    expect(res.body.routes["/"]).toEqual({
      namespace: "",
      methods: ["GET"],
      endpoints: [{ methods: ["GET"], args: { context: { default: "view", required: false } } }],
      _links: { self: [{ href: `${ORIGIN}/wp-json/` }] },
    });
    // One source: the namespace indexes' entries, in their order, after the index's own route.
    const tribe = (await api(`${NS}`)).body.routes;
    const wp = (await api("/wp-json/wp/v2")).body.routes;
    expect(Object.keys(res.body.routes)).toEqual(["/", ...Object.keys(tribe), ...Object.keys(wp)]);
    for (const [route, entry] of Object.entries({ ...tribe, ...wp }))
      expect(withoutClock(res.body.routes[route]), route).toEqual(withoutClock(entry));
    expect(res.body.routes["/tribe/events/v1/events/(?P<id>\\d+)"]).toMatchObject({
      namespace: "tribe/events/v1",
      methods: ["GET", "DELETE", "POST", "PUT", "PATCH"],
    });
    expect(res.body.routes["/tribe/events/v1/events/(?P<id>\\d+)"]._links).toBeUndefined();
    expect(res.body.routes["/tribe/events/v1/events"].endpoints[1].args.title).toEqual({
      type: "string",
      description: "The event title",
      required: true,
    });
  });

  it("answers with and without the trailing slash, per language, worded in it", async () => {
    const plain = await api("/wp-json");
    expect(plain.status).toBe(200);
    expect(plain.body.namespaces).toEqual(["tribe/events/v1", "wp/v2"]);
    const de = await api("/de/wp-json/");
    expect(de.body).toMatchObject({
      name: "Veranstaltungskalender",
      url: `${ORIGIN}/de`,
      home: `${ORIGIN}/de`,
      authentication: {
        "application-passwords": {
          endpoints: { authorization: `${ORIGIN}/de/wp-admin/authorize-application.php` },
        },
      },
    });
    expect(de.body.routes["/tribe/events/v1/events"]._links.self[0].href).toBe(
      `${ORIGIN}/de${NS}/events`,
    );
    expect(de.body.routes["/tribe/events/v1/events"].endpoints[1].args.title.description).toBe(
      "Der Titel der Veranstaltung",
    );
    const en = await api("/en/wp-json");
    expect(Object.keys(en.body.routes)).toEqual(Object.keys(de.body.routes));
  });

  it("gives gmt_offset and timezone_string as WordPress does for each kind of SITE_TIMEZONE", () => {
    const summer = DateTime.fromISO("2026-07-01T12:00:00Z");
    const winter = DateTime.fromISO("2026-01-01T12:00:00Z");
    expect(siteZone("Europe/Berlin", summer)).toEqual({
      gmtOffset: 2,
      timezoneString: "Europe/Berlin",
    });
    expect(siteZone("Europe/Berlin", winter).gmtOffset).toBe(1);
    expect(siteZone("UTC", summer)).toEqual({ gmtOffset: 0, timezoneString: "UTC" });
    expect(siteZone("UTC+5:30", summer)).toEqual({ gmtOffset: 5.5, timezoneString: "" });
    expect(siteZone("UTC-3", summer)).toEqual({ gmtOffset: -3, timezoneString: "" });
  });

  it("OPTIONS describes the index route", async () => {
    const res = await api("/wp-json/", { method: "OPTIONS" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ namespace: "", methods: ["GET"] });
  });
});

describe("GET /wp-json/wp/v2 — the wp/v2 namespace index", () => {
  it("lists the wp/v2 routes as WordPress does, the index first", async () => {
    const res = await api("/wp-json/wp/v2/");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["namespace", "routes", "_links"]);
    expect(res.body.namespace).toBe("wp/v2");
    expect(res.body._links).toEqual({ up: [{ href: `${ORIGIN}/wp-json/` }] });
    expect(res.body.routes["/wp/v2"]).toEqual({
      namespace: "wp/v2",
      methods: ["GET"],
      endpoints: [
        {
          methods: ["GET"],
          args: {
            namespace: { default: "wp/v2", required: false },
            context: { default: "view", required: false },
          },
        },
      ],
      _links: { self: [{ href: `${ORIGIN}/wp-json/wp/v2` }] },
    });
    expect(Object.keys(res.body.routes)).toEqual(
      expect.arrayContaining([
        "/wp/v2/media",
        "/wp/v2/media/(?P<id>\\d+)",
        "/wp/v2/users",
        "/wp/v2/users/me",
        "/wp/v2/users/(?P<id>\\d+)",
      ]),
    );
    expect(res.body.routes["/wp/v2/users"].methods).toEqual(["GET", "POST"]);
  });
});

describe("a generic WordPress client, from the site URL alone", () => {
  it("discovers the API through the site's Link header and uses routes from the index", async () => {
    const venue = await seedVenue({ title: "Hall" });
    const event = await seedEvent({ title: "Found", start: day(2), venueId: venue });
    for (const site of [ORIGIN, `${ORIGIN}/de`]) {
      const home = await api(site.replace(ORIGIN, "") || "/");
      expect(home.status).toBe(200);
      expect(home.headers.get("content-type")).toContain("text/html");
      const root = apiLink(home.headers.get("link"))!;
      expect(root).toBe(`${site}/wp-json/`);
      expect(home.text).toContain(`<link rel="https://api.w.org/" href="${root}">`);

      const index = (await api(root.replace(ORIGIN, ""))).body;
      const routes = index.routes as Record<string, { _links?: { self: Array<{ href: string }> } }>;
      const list = routes["/tribe/events/v1/events"]._links!.self[0].href;
      const listed = await api(`${list.replace(ORIGIN, "")}?per_page=1`);
      expect(listed.body.events.map((e: { id: number }) => e.id)).toEqual([event]);
      const single = `${root}${fill("/tribe/events/v1/events/(?P<id>\\d+)", { id: event }).slice(1)}`;
      expect((await api(single.replace(ORIGIN, ""))).body.title).toBe("Found");
    }
  });
});

describe("/?rest_route= — the plain-permalink form", () => {
  it("answers every route of the index exactly as its pretty URL, ETag included", async () => {
    const venue = await seedVenue({ title: "Hall" });
    const organizer = await seedOrganizer({ title: "Org" });
    const category = await seedTerm("tribe_events_cat", "Music");
    const tag = await seedTerm("post_tag", "jazz");
    const event = await seedEvent({
      title: "Jazz Night",
      start: day(3),
      venueId: venue,
      organizerIds: [organizer],
      termIds: [category, tag],
    });
    const index = (await api("/wp-json/", { headers: ADMIN })).body;
    const values = (route: string) => ({
      id: route.includes("/venues/")
        ? venue
        : route.includes("/organizers/")
          ? organizer
          : route.includes("/categories/")
            ? category
            : route.includes("/tags/")
              ? tag
              : route.includes("/users/")
                ? 1
                : event,
      slug: route.includes("/venues/")
        ? "hall"
        : route.includes("/organizers/")
          ? "org"
          : "jazz-night",
      uuid: "00000000-0000-0000-0000-000000000000",
    });
    let compared = 0;
    for (const [route, entry] of Object.entries(index.routes) as Array<
      [string, { methods: string[] }]
    >) {
      if (!entry.methods.includes("GET")) continue;
      const path = fill(route, values(route));
      for (const headers of [{}, ADMIN]) {
        const pretty = await api(`/wp-json${path}`, { headers });
        const plain = await api(`/?rest_route=${encodeURIComponent(path)}`, { headers });
        expect(plain.status, path).toBe(pretty.status);
        // Argument defaults such as `end_date` are computed per request, to the second.
        const stamps = /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/g;
        expect(plain.text.replace(stamps, "(now)"), path).toBe(
          pretty.text.replace(stamps, "(now)"),
        );
        expect(plain.headers.get("etag"), path).toBe(pretty.headers.get("etag"));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(30);
  });

  it("keeps the other query parameters, the language and index.php, and prints pretty URLs", async () => {
    await seedEvent({ title: "A", start: day(1) });
    await seedEvent({ title: "B", start: day(2) });
    const pretty = await api(`/de${NS}/events?per_page=1&categories[]=x`);
    const plain = await api(
      `/de/index.php?rest_route=/tribe/events/v1/events&per_page=1&categories[]=x`,
    );
    expect(plain.status).toBe(400);
    expect(plain.body).toEqual(pretty.body);
    expect(plain.body.message).toContain("Ungültige");
    const page = await api(`/?per_page=1&rest_route=/tribe/events/v1/events`);
    expect(page.body.events).toHaveLength(1);
    const next = new URL(page.body.next_rest_url);
    expect(next.origin + next.pathname).toBe(`${ORIGIN}${NS}/events/`);
    expect(next.searchParams.get("page")).toBe("2");
    expect(next.searchParams.has("rest_route")).toBe(false);
    expect((await api(`/?rest_route=`)).body.namespaces).toEqual(["tribe/events/v1", "wp/v2"]);
  });

  it("takes every method with its body: create, update (also through _method), delete", async () => {
    const created = await api(`/?rest_route=${encodeURIComponent(`/tribe/events/v1/events`)}`, {
      json: { title: "Plain", start_date: "2030-01-01 10:00", end_date: "2030-01-01 11:00" },
      headers: ADMIN,
    });
    expect(created.status).toBe(201);
    expect(created.body.rest_url).toBe(`${ORIGIN}${NS}/events/${created.body.id}`);
    const id = created.body.id;
    const put = await api(`/?rest_route=/tribe/events/v1/events/${id}`, {
      method: "PUT",
      json: { title: "Plainer" },
      headers: ADMIN,
    });
    expect(put.body.title).toBe("Plainer");
    const overridden = await api(`/?rest_route=/tribe/events/v1/events/${id}&_method=PATCH`, {
      form: { title: "Form" },
      headers: ADMIN,
    });
    expect(overridden.body.title).toBe("Form");
    const deleted = await api(`/?rest_route=/tribe/events/v1/events/${id}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(deleted.body.status).toBe("trash");
    const me = await api(`/?rest_route=/wp/v2/users/me`, { headers: ADMIN });
    expect(me.body.username).toBe("admin");
  });
});
