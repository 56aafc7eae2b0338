/**
 * `wp/v2/types` and `wp/v2/taxonomies` (contract §3, src/root/wp-types.ts): what the `about`
 * links of terms and posts name, WordPress's shapes, in the request's language.
 */
import { describe, expect, it } from "vitest";
import { api, ORIGIN, roundTrips } from "../support/api";

const WP = "/wp-json/wp/v2";
const CURIES = [{ name: "wp", href: "https://api.w.org/{rel}", templated: true }];

describe("GET /wp/v2/types", () => {
  it("describes the events post type as WordPress does", async () => {
    const res = await api(`${WP}/types/tribe_events`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      description: "",
      hierarchical: false,
      name: "Events",
      slug: "tribe_events",
      taxonomies: ["tribe_events_cat", "post_tag"],
      rest_base: "tribe_events",
      rest_namespace: "wp/v2",
      _links: {
        collection: [{ href: `${ORIGIN}${WP}/types` }],
        "wp:items": [{ href: `${ORIGIN}${WP}/tribe_events` }],
        curies: CURIES,
      },
    });
    // No data read: the one round trip is the content version the read cache keys the answer by.
    expect(roundTrips(res)).toBe(1);
    const all = await api(`/de${WP}/types?context=embed`);
    expect(all.body).toEqual({
      tribe_events: {
        name: "Veranstaltungen",
        slug: "tribe_events",
        rest_base: "tribe_events",
        rest_namespace: "wp/v2",
        _links: expect.objectContaining({
          "wp:items": [{ href: `${ORIGIN}/de${WP}/tribe_events` }],
        }),
      },
    });
  });

  it("answers 404 rest_type_invalid for other types", async () => {
    for (const type of ["post", "tribe_venue", "nope"]) {
      const res = await api(`${WP}/types/${type}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "rest_type_invalid", message: "Invalid post type." });
    }
    expect((await api(`/de${WP}/types/post`)).body.message).toBe("Ungültiger Inhaltstyp.");
  });
});

describe("GET /wp/v2/taxonomies", () => {
  it("describes event categories and tags as WordPress does", async () => {
    const res = await api(`${WP}/taxonomies/tribe_events_cat`);
    expect(res.body).toEqual({
      name: "Event Categories",
      slug: "tribe_events_cat",
      description: "",
      types: ["tribe_events"],
      hierarchical: true,
      rest_base: "tribe_events_cat",
      rest_namespace: "wp/v2",
      _links: {
        collection: [{ href: `${ORIGIN}${WP}/taxonomies` }],
        "wp:items": [{ href: `${ORIGIN}${WP}/tribe_events_cat` }],
        curies: CURIES,
      },
    });
    const all = await api(`/de${WP}/taxonomies`);
    expect(Object.keys(all.body)).toEqual(["post_tag", "tribe_events_cat"]);
    expect(all.body.post_tag).toMatchObject({
      name: "Schlagwörter",
      rest_base: "tags",
      hierarchical: false,
    });
    expect(Object.keys((await api(`${WP}/taxonomies?type=tribe_events`)).body)).toEqual([
      "post_tag",
      "tribe_events_cat",
    ]);
    const none = await api(`${WP}/taxonomies?type=post`);
    expect(none.status).toBe(200);
    expect(none.text).toBe("{}");
  });

  it("answers 404 rest_taxonomy_invalid for other taxonomies", async () => {
    const res = await api(`${WP}/taxonomies/category`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "rest_taxonomy_invalid", message: "Invalid taxonomy." });
    expect((await api(`${WP}/taxonomies/post_tag?context=edit`)).status).toBe(400);
  });

  it("is listed in the REST index and the wp/v2 index", async () => {
    for (const path of ["/wp-json/", `/de${WP}`]) {
      const routes = Object.keys((await api(path)).body.routes);
      expect(routes).toEqual(
        expect.arrayContaining([
          "/wp/v2/tribe_events",
          "/wp/v2/tribe_events/(?P<id>\\d+)",
          "/wp/v2/types",
          "/wp/v2/types/(?P<type>[\\w-]+)",
          "/wp/v2/taxonomies",
          "/wp/v2/taxonomies/(?P<taxonomy>[\\w-]+)",
          "/wp/v2/tags",
          "/wp/v2/tags/(?P<id>\\d+)",
          "/wp/v2/tribe_events_cat",
          "/wp/v2/tribe_events_cat/(?P<id>\\d+)",
        ]),
      );
    }
    const index = (await api("/wp-json/")).body;
    expect(index.routes["/wp/v2/tribe_events"].endpoints[0].args).toMatchObject({
      context: { default: "view", type: "string" },
      per_page: { default: 10, type: "integer" },
      tribe_events_cat: { type: "array", items: { type: "integer" } },
      tags_exclude: { type: "array", items: { type: "integer" } },
    });
  });
});
