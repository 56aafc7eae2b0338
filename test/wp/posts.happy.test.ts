/**
 * `GET /wp/v2/tribe_events` and `/wp/v2/tribe_events/{id}` (contract §3, src/events/wp.ts): the
 * events as WordPress's own route for the post type answers them — where the terms'
 * `wp:post_type` links lead — with WordPress's arguments, paging and `_embed`.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { api, NS, ORIGIN, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { db, seedEvent, seedMedia, seedTerm } from "../support/factories";

const WP = "/wp-json/wp/v2";

async function calendar() {
  const music = await seedTerm("tribe_events_cat", "Music");
  const free = await seedTerm("post_tag", "Free");
  const poster = await seedMedia("https://images.test/poster.jpg");
  const concert = await seedEvent({
    title: "Concert",
    start: day(5),
    content: "Bring a <b>friend</b>.",
    excerpt: "Loud.",
    termIds: [music, free],
    postDate: "2026-03-01 10:00:00",
  });
  await db().update(schema.events).set({ imageId: poster }).where(eq(schema.events.id, concert));
  const talk = await seedEvent({
    title: "Talk",
    start: day(1),
    content: "A talk about sound.",
    termIds: [free],
    postDate: "2026-02-01 10:00:00",
  });
  const past = await seedEvent({
    title: "Old fair",
    start: day(-400),
    postDate: "2025-01-01 09:00:00",
  });
  return { music, free, poster, concert, talk, past };
}

const ids = (body: Array<{ id: number }>) => body.map((p) => p.id);

describe("GET /wp/v2/tribe_events", () => {
  it("answers WordPress's post object, newest first, past events too", async () => {
    const c = await calendar();
    const res = await api(`${WP}/tribe_events`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([c.concert, c.talk, c.past]);
    expect(res.headers.get("x-wp-total")).toBe("3");
    expect(res.headers.get("x-wp-totalpages")).toBe("1");
    expect(roundTrips(res)).toBe(1);
    const wp = `${ORIGIN}${WP}`;
    expect(res.body[0]).toEqual({
      id: c.concert,
      date: "2026-03-01T10:00:00",
      date_gmt: "2026-03-01T10:00:00",
      guid: { rendered: `${ORIGIN}/?post_type=tribe_events&#038;p=${c.concert}` },
      modified: "2026-01-01T10:00:00",
      modified_gmt: "2026-01-01T10:00:00",
      slug: "concert",
      status: "publish",
      type: "tribe_events",
      link: `${ORIGIN}/event/concert/`,
      title: { rendered: "Concert" },
      content: { rendered: "<p>Bring a <b>friend</b>.</p>", protected: false },
      excerpt: { rendered: "<p>Loud.</p>", protected: false },
      author: 1,
      featured_media: c.poster,
      template: "",
      meta: [],
      tribe_events_cat: [c.music],
      tags: [c.free],
      _links: {
        self: [{ href: `${wp}/tribe_events/${c.concert}`, targetHints: { allow: ["GET"] } }],
        collection: [{ href: `${wp}/tribe_events` }],
        about: [{ href: `${wp}/types/tribe_events` }],
        "wp:featuredmedia": [{ embeddable: true, href: `${wp}/media/${c.poster}` }],
        "wp:term": [
          {
            taxonomy: "tribe_events_cat",
            embeddable: true,
            href: `${wp}/tribe_events_cat?post=${c.concert}`,
          },
          { taxonomy: "post_tag", embeddable: true, href: `${wp}/tags?post=${c.concert}` },
        ],
        curies: [{ name: "wp", href: "https://api.w.org/{rel}", templated: true }],
      },
    });
    // No excerpt of its own: the content's words.
    expect(res.body[1].excerpt.rendered).toBe("<p>A talk about sound.</p>");
  });

  it("filters and orders with WordPress's arguments", async () => {
    const c = await calendar();
    const list = async (query: string) => ids((await api(`${WP}/tribe_events?${query}`)).body);
    expect(await list(`tribe_events_cat=${c.music}`)).toEqual([c.concert]);
    expect(await list(`tags=${c.free}`)).toEqual([c.concert, c.talk]);
    expect(await list(`tags_exclude=${c.free}`)).toEqual([c.past]);
    expect(await list(`tribe_events_cat_exclude=${c.music}&tags=${c.free}`)).toEqual([c.talk]);
    expect(await list(`include=${c.past},${c.talk}&orderby=include`)).toEqual([c.past, c.talk]);
    expect(await list(`exclude=${c.concert}`)).toEqual([c.talk, c.past]);
    expect(await list("slug=talk")).toEqual([c.talk]);
    expect(await list("search=SOUND")).toEqual([c.talk]);
    expect(await list("search=friend -loud")).toEqual([]);
    expect(await list("after=2026-01-15T00:00:00Z")).toEqual([c.concert, c.talk]);
    expect(await list("before=2026-01-15")).toEqual([c.past]);
    expect(await list("orderby=title&order=asc")).toEqual([c.concert, c.past, c.talk]);
    expect(await list("author=1&orderby=id&order=asc")).toEqual([c.concert, c.talk, c.past]);
    expect(await list("author=2")).toEqual([]);
    // Hidden from TEC's listings, not from WordPress's post type route.
    const hidden = await seedEvent({ title: "Hidden", start: day(3), hidden: true });
    expect(await list("slug=hidden")).toEqual([hidden]);
  });

  it("pages with WordPress's headers; a page past the last is 400", async () => {
    const c = await calendar();
    const first = await api(`${WP}/tribe_events?per_page=2&tags=${c.free}`);
    expect(first.headers.get("x-wp-totalpages")).toBe("1");
    const page = await api(`${WP}/tribe_events?per_page=1&page=2`);
    expect(ids(page.body)).toEqual([c.talk]);
    const link = page.headers.get("link") ?? "";
    expect(link).toContain(`<${ORIGIN}${WP}/tribe_events?per_page=1&page=1>; rel="prev"`);
    expect(link).toContain(`<${ORIGIN}${WP}/tribe_events?per_page=1&page=3>; rel="next"`);
    const past = await api(`/de${WP}/tribe_events?page=9`);
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({
      code: "rest_post_invalid_page_number",
      message: "Die angeforderte Seitenzahl ist größer als die Anzahl der verfügbaren Seiten.",
    });
    expect((await api(`${WP}/tribe_events?tags=999999&page=9`)).body).toEqual([]);
    expect((await api(`${WP}/tribe_events?orderby=relevance`)).status).toBe(400);
  });

  it("embeds the image and the terms, each in the embed context", async () => {
    const c = await calendar();
    const res = await api(`${WP}/tribe_events/${c.concert}?_embed`);
    expect(res.status).toBe(200);
    expect(res.body._embedded["wp:featuredmedia"]).toEqual([
      expect.objectContaining({ id: c.poster, source_url: "https://images.test/poster.jpg" }),
    ]);
    expect(res.body._embedded["wp:term"]).toEqual([
      [expect.objectContaining({ id: c.music, name: "Music", taxonomy: "tribe_events_cat" })],
      [expect.objectContaining({ id: c.free, name: "Free", taxonomy: "post_tag" })],
    ]);
    expect(res.body._embedded["wp:term"][0][0].count).toBeUndefined();
    // A post without terms embeds none (WordPress leaves out relations that embed nothing).
    const past = await api(`${WP}/tribe_events/${c.past}?_embed`);
    expect(past.body._embedded).toBeUndefined();
    const embedded = await api(`${WP}/tribe_events/${c.talk}?context=embed`);
    expect(Object.keys(embedded.body)).toEqual([
      "id",
      "date",
      "slug",
      "type",
      "link",
      "title",
      "excerpt",
      "author",
      "featured_media",
      "_links",
    ]);
  });

  it("answers a single post in every language and URL form, cached per query", async () => {
    const c = await calendar();
    const single = await api(`/de${WP}/tribe_events/${c.talk}`);
    expect(single.status).toBe(200);
    expect(single.body.link).toBe(`${ORIGIN}/de/event/talk/`);
    expect(roundTrips(single)).toBe(1);
    const plain = await api(`/de/?rest_route=/wp/v2/tribe_events/${c.talk}`);
    expect(plain.text).toBe(single.text);
    expect((await api(`/de${WP}/tribe_events/${c.talk}`)).headers.get("x-cache")).toBe("HIT");
    const missing = await api(`${WP}/tribe_events/${c.music}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      code: "rest_post_invalid_id",
      message: "Invalid post ID.",
    });
    // The tribe route of the same event and this one agree on what they show.
    const tribe = await api(`${NS}/events/${c.concert}`);
    const post = await api(`${WP}/tribe_events/${c.concert}`);
    expect(post.body.title.rendered).toBe(tribe.body.title);
    expect(post.body.content.rendered).toBe(tribe.body.description);
    expect(post.body.link).toBe(tribe.body.url);
  });
});
