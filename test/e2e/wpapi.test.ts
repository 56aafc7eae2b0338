/**
 * A WordPress client from npm, `wpapi` (node-wpapi), against `npm start` as it would meet a
 * WordPress site (contract §3, contract §7.4, contract §7.7): it discovers the API from the site URL
 * alone, builds its route handlers from the REST index (named by resource: `wp.tribe_events()`,
 * `wp.tribe_events_cat()`), lists terms and posts with `_embed` (it sends `_embed=true`), and
 * every link it is given — `self`, `collection`, `about`, `up`, `wp:post_type`, `wp:term`,
 * `wp:featuredmedia`, `wp:items` — answers; nothing is a 404 or `rest_no_route`.
 */

import { beforeAll, describe, expect, it } from "vitest";
import WPAPI from "wpapi";
import { ADMIN, futureDate, NS, ORIGIN, send, show, uniqueWord, WP } from "./support/http";

const WORD = uniqueWord("wpapi");

/** What `wpapi` answers: the parsed body (its `_paging` aside). */
type Json = any;

let wp: WPAPI;
const made = { music: 0, jazz: 0, tag: 0, event: 0, image: 0 };

async function create(path: string, json: unknown): Promise<Json> {
  const answer = await send("POST", path, { auth: ADMIN, json });
  expect(answer.status, show(answer)).toBe(201);
  return answer.body;
}

/** Every `href` under `_links` (templated ones aside), at any depth. */
function hrefsOf(body: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(body)) for (const item of body) hrefsOf(item, out);
  else if (body && typeof body === "object")
    for (const [key, value] of Object.entries(body)) {
      if (key === "_links" && value && typeof value === "object") {
        for (const links of Object.values(value).filter(Array.isArray))
          for (const link of links as Array<{ href?: string; templated?: boolean }>)
            if (typeof link.href === "string" && !link.templated) out.add(link.href);
      } else hrefsOf(value, out);
    }
  return out;
}

beforeAll(async () => {
  made.music = (await create(`${NS}/categories`, { name: `${WORD} music` })).id;
  made.jazz = (await create(`${NS}/categories`, { name: `${WORD} jazz`, parent: made.music })).id;
  made.tag = (await create(`${NS}/tags`, { name: `${WORD} outdoors` })).id;
  made.image = (await create(`${WP}/media`, { source_url: `https://example.com/${WORD}.jpg` })).id;
  made.event = (
    await create(`${NS}/events`, {
      title: `${WORD} concert`,
      description: "Bring a friend.",
      start_date: futureDate(30),
      end_date: futureDate(30, 12),
      categories: [made.jazz],
      tags: [made.tag],
      image: made.image,
    })
  ).id;
  // From the site URL alone: the `Link: rel="https://api.w.org/"` header, then the REST index.
  wp = await WPAPI.discover(ORIGIN);
});

describe("wpapi (node-wpapi) against the service", () => {
  it("discovers the API from the site URL and builds handlers for both namespaces", () => {
    expect((wp as Json)._options.endpoint).toBe(`${ORIGIN}/wp-json/`);
    for (const handler of [
      "tribe_events",
      "tribe_events_cat",
      "tags",
      "types",
      "taxonomies",
      "media",
    ])
      expect(typeof (wp as Json)[handler], handler).toBe("function");
    expect(typeof (wp.namespace("tribe/events/v1") as Json).categories).toBe("function");
  });

  it("embeds a tribe term's parent and follows every link of it", async () => {
    const jazz: Json = await (wp.namespace("tribe/events/v1") as Json)
      .categories()
      .id(made.jazz)
      .embed();
    expect(jazz._embedded.up).toEqual([
      expect.objectContaining({
        id: made.music,
        name: `${WORD} music`,
        taxonomy: "tribe_events_cat",
      }),
    ]);
    for (const href of hrefsOf(jazz)) {
      const answer: Json = await wp.url(href).get();
      expect(answer?.code, href).not.toBe("rest_no_route");
    }
    // `wp:post_type`: the events of the category.
    const events: Json = await wp.url(jazz._links["wp:post_type"][0].href).get();
    expect(events.map((e: Json) => e.id)).toEqual([made.event]);
  });

  it("lists terms with _embed, and posts with their image and terms embedded", async () => {
    const categories: Json = await (wp as Json).tribe_events_cat().search(WORD).embed();
    expect(categories.map((t: Json) => t.id).sort()).toEqual([made.music, made.jazz].sort());
    const jazz = categories.find((t: Json) => t.id === made.jazz);
    expect(jazz._embedded.up[0].id).toBe(made.music);
    expect(categories._paging.total).toBe(2);

    const posts: Json = await (wp as Json).tribe_events().param("tags", made.tag).embed();
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      id: made.event,
      type: "tribe_events",
      title: { rendered: `${WORD} concert` },
      featured_media: made.image,
      tribe_events_cat: [made.jazz],
      tags: [made.tag],
    });
    expect(posts[0]._embedded["wp:featuredmedia"][0].id).toBe(made.image);
    expect(posts[0]._embedded["wp:term"][0][0].id).toBe(made.jazz);
    expect(posts[0]._embedded["wp:term"][1][0].id).toBe(made.tag);
  });

  it("answers every link it meets, anonymously and signed in, without 404 or rest_no_route", async () => {
    const start: Json[] = [
      await (wp as Json).tribe_events().id(made.event).embed(),
      await (wp as Json).tribe_events_cat().id(made.jazz),
      await (wp as Json).tags().id(made.tag),
      await (wp as Json).types(),
      await (wp as Json).taxonomies(),
    ];
    const seen = new Set<string>();
    const queue = [...hrefsOf(start)];
    const broken: string[] = [];
    while (queue.length && seen.size < 80) {
      const href = queue.shift()!;
      if (seen.has(href) || !href.startsWith(ORIGIN)) continue;
      seen.add(href);
      const answer = await send("GET", href.slice(ORIGIN.length));
      if (answer.status === 404 || answer.body?.code === "rest_no_route") broken.push(show(answer));
      for (const next of hrefsOf(answer.body)) queue.push(next);
    }
    expect(seen.size).toBeGreaterThan(10);
    expect(broken).toEqual([]);

    const signedIn = new WPAPI({
      endpoint: `${ORIGIN}/wp-json/`,
      username: ADMIN!.username,
      password: ADMIN!.password,
      routes: (await send("GET", "/wp-json/")).body.routes,
    }) as Json;
    const drafts = await signedIn.tribe_events().param("status", "draft").auth();
    expect(Array.isArray(drafts)).toBe(true);
    const anonymous = await (wp as Json)
      .tribe_events()
      .param("status", "draft")
      .get()
      .catch((err: Json) => err);
    expect(anonymous.code).toBe("rest_forbidden_status");
  });
});
