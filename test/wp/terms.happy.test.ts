/**
 * The read-only `wp/v2` term routes (contract §3, src/terms/wp.ts): WordPress's term object and
 * collection, as the terms' `_links` and `_embed` reach them, in every language and URL form.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, ORIGIN, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm, seedUser } from "../support/factories";

const WP = "/wp-json/wp/v2";

async function terms() {
  const music = await seedTerm("tribe_events_cat", "Music");
  const jazz = await seedTerm("tribe_events_cat", "Jazz", { parent: music });
  const art = await seedTerm("tribe_events_cat", "Art");
  const outdoors = await seedTerm("post_tag", "Outdoors");
  const free = await seedTerm("post_tag", "Free");
  const concert = await seedEvent({ title: "Concert", start: day(2), termIds: [jazz, free] });
  return { music, jazz, art, outdoors, free, concert };
}

describe("GET /wp/v2/tribe_events_cat, /wp/v2/tags", () => {
  it("lists WordPress's term objects by name, 10 a page, with WordPress's paging headers", async () => {
    const t = await terms();
    const res = await api(`${WP}/tribe_events_cat`);
    expect(res.status).toBe(200);
    expect(res.body.map((x: { name: string }) => x.name)).toEqual(["Art", "Jazz", "Music"]);
    expect(res.body[1]).toEqual({
      id: t.jazz,
      count: 1,
      description: "",
      link: `${ORIGIN}/events/category/music/jazz/`,
      name: "Jazz",
      slug: "jazz",
      taxonomy: "tribe_events_cat",
      parent: t.music,
      meta: [],
      _links: {
        self: [
          { href: `${ORIGIN}${WP}/tribe_events_cat/${t.jazz}`, targetHints: { allow: ["GET"] } },
        ],
        collection: [{ href: `${ORIGIN}${WP}/tribe_events_cat` }],
        about: [{ href: `${ORIGIN}${WP}/taxonomies/tribe_events_cat` }],
        up: [{ href: `${ORIGIN}${WP}/tribe_events_cat/${t.music}`, embeddable: true }],
        "wp:post_type": [{ href: `${ORIGIN}${WP}/tribe_events?tribe_events_cat=${t.jazz}` }],
        curies: [{ name: "wp", href: "https://api.w.org/{rel}", templated: true }],
      },
    });
    expect(res.headers.get("x-wp-total")).toBe("3");
    expect(res.headers.get("x-wp-totalpages")).toBe("1");
    expect(roundTrips(res)).toBe(1);
    const tags = await api(`/de${WP}/tags`);
    expect(tags.body.map((x: { slug: string }) => x.slug)).toEqual(["free", "outdoors"]);
    // Tags have no parent.
    expect(Object.keys(tags.body[0])).toEqual([
      "id",
      "count",
      "description",
      "link",
      "name",
      "slug",
      "taxonomy",
      "meta",
      "_links",
    ]);
    expect(tags.body[0]._links.self[0].href).toBe(`${ORIGIN}/de${WP}/tags/${t.free}`);
  });

  it("pages with Link rel next and prev repeating the request's arguments", async () => {
    await terms();
    const first = await api(`${WP}/tribe_events_cat?per_page=2&orderby=id&order=desc`);
    expect(first.headers.get("x-wp-totalpages")).toBe("2");
    const next = `${ORIGIN}${WP}/tribe_events_cat?per_page=2&order=desc&orderby=id&page=2`;
    expect(first.headers.get("link")).toContain(`<${next}>; rel="next"`);
    const second = await api(next.slice(ORIGIN.length));
    expect(second.body).toHaveLength(1);
    expect(second.headers.get("link")).toContain(
      `<${ORIGIN}${WP}/tribe_events_cat?per_page=2&order=desc&orderby=id&page=1>; rel="prev"`,
    );
    expect(second.headers.get("link")).not.toContain('rel="next"');
    const past = await api(`${WP}/tags?page=5`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
  });

  it("filters as WordPress's get_terms: search, include, exclude, parent, hide_empty, slug, post, offset, orderby", async () => {
    const t = await terms();
    const ids = async (query: string, base = "tribe_events_cat") =>
      (await api(`${WP}/${base}?${query}`)).body.map((x: { id: number }) => x.id);
    expect(await ids("search=JA")).toEqual([t.jazz]);
    expect(await ids(`include=${t.art},${t.jazz}&orderby=include`)).toEqual([t.art, t.jazz]);
    expect(await ids(`include[]=${t.jazz}&include[]=${t.art}&orderby=include`)).toEqual([
      t.jazz,
      t.art,
    ]);
    expect(await ids(`exclude=${t.art}`)).toEqual([t.jazz, t.music]);
    expect(await ids(`parent=${t.music}`)).toEqual([t.jazz]);
    expect(await ids("parent=0")).toEqual([t.art, t.music]);
    expect(await ids("hide_empty=true")).toEqual([t.jazz]);
    expect(await ids("slug=music,art")).toEqual([t.art, t.music]);
    expect(await ids(`post=${t.concert}`)).toEqual([t.jazz]);
    expect(await ids(`post=${t.concert}`, "tags")).toEqual([t.free]);
    expect(await ids("offset=1", "tags")).toEqual([t.outdoors]);
    expect(await ids("orderby=count&order=desc")).toEqual([t.jazz, t.art, t.music]);
  });

  it("answers a single term in the view and embed contexts", async () => {
    const t = await terms();
    const view = await api(`${WP}/tags/${t.outdoors}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ id: t.outdoors, name: "Outdoors", taxonomy: "post_tag" });
    expect(roundTrips(view)).toBe(1);
    const embed = await api(`${WP}/tribe_events_cat/${t.jazz}?context=embed`);
    expect(Object.keys(embed.body)).toEqual(["id", "link", "name", "slug", "taxonomy", "_links"]);
  });

  it("is what a tribe term embeds as its parent (`_embed`), in the embed context", async () => {
    const t = await terms();
    const res = await api(`/de${NS}/categories/${t.jazz}?_embed`);
    expect(res.body._embedded.up).toEqual([
      expect.objectContaining({
        id: t.music,
        name: "Music",
        link: `${ORIGIN}/de/events/category/music/`,
      }),
    ]);
    expect(res.body._embedded.up[0].count).toBeUndefined();
  });

  it("answers the plain-permalink form and keeps anonymous answers cached per query", async () => {
    const t = await terms();
    const pretty = await api(`${WP}/tribe_events_cat?search=jazz`);
    const plain = await api(`/?rest_route=/wp/v2/tribe_events_cat&search=jazz`);
    expect(plain.text).toBe(pretty.text);
    expect(plain.headers.get("etag")).toBe(pretty.headers.get("etag"));
    const again = await api(`${WP}/tribe_events_cat?search=jazz`);
    expect(again.headers.get("x-cache")).toBe("HIT");
    const other = await api(`${WP}/tribe_events_cat?search=art`);
    expect(other.headers.get("etag")).not.toBe(pretty.headers.get("etag"));
    expect(other.body.map((x: { id: number }) => x.id)).toEqual([t.art]);
    // A write shows at once (the content version moves).
    await api(`${NS}/categories/${t.art}`, {
      method: "PUT",
      json: { name: "Fine Art" },
      headers: ADMIN,
    });
    expect((await api(`${WP}/tribe_events_cat?search=art`)).body[0].name).toBe("Fine Art");
  });
});

describe("wp/v2 terms: errors and what they do not show", () => {
  it("answers WordPress's errors", async () => {
    const t = await terms();
    const missing = await api(`${WP}/tribe_events_cat/${t.outdoors}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      code: "rest_term_invalid",
      message: "Term does not exist.",
      data: { status: 404 },
    });
    const german = await api(`/de${WP}/tags/999`);
    expect(german.body.message).toBe("Der Begriff existiert nicht.");
    const badOrder = await api(`${WP}/tags?orderby=nope&context=edit`);
    expect(badOrder.status).toBe(400);
    expect(badOrder.body.code).toBe("rest_invalid_param");
    expect(Object.keys(badOrder.body.data.params)).toEqual(["context", "orderby"]);
    expect(badOrder.body.data.params.context).toBe("context is not one of view, embed.");
    expect((await api(`${WP}/tags?per_page=101`)).status).toBe(400);
    const noPost = await api(`${WP}/tags?post=999999`);
    expect(noPost.status).toBe(400);
    expect(noPost.body.code).toBe("rest_post_invalid_id");
    expect(
      (await api(`${WP}/tags`, { method: "POST", json: { name: "x" }, headers: ADMIN })).status,
    ).toBe(404);
  });

  it("shows an event's terms only to those who may read it, and none of a protected one", async () => {
    const tag = await seedTerm("post_tag", "Secret");
    const draft = await seedEvent({
      title: "Draft",
      start: day(2),
      status: "draft",
      termIds: [tag],
    });
    const locked = await seedEvent({
      title: "Locked",
      start: day(2),
      password: "pw",
      termIds: [tag],
    });
    const anonymous = await api(`${WP}/tags?post=${draft}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("rest_forbidden_context");
    const subscriber = await seedUser("subscriber");
    expect((await api(`${WP}/tags?post=${draft}`, { headers: subscriber.headers })).status).toBe(
      403,
    );
    expect((await api(`${WP}/tags?post=${draft}`, { headers: ADMIN })).body).toHaveLength(1);
    const hidden = await api(`${WP}/tags?post=${locked}`);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual([]);
    expect(hidden.headers.get("x-wp-total")).toBe("0");
    // As `wp/v2/tribe_events` shows it: a protected post's terms need its password, whoever asks.
    expect((await api(`${WP}/tags?post=${locked}`, { headers: ADMIN })).body).toEqual([]);
  });
});
