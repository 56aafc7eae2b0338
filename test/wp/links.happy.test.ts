/**
 * Every link the service prints answers here (contract §3, contract §7.7): the `_links` of terms (`self`,
 * `collection`, `about`, `up`, `wp:post_type`), of the `wp/v2` posts, post types, taxonomies and
 * terms, and of the indexes — followed as a client (or `_embed`) follows them, in both languages.
 * None leads to a 404 or `rest_no_route`.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedMedia, seedTerm } from "../support/factories";

/** Every `href` under a `_links` key in a JSON body, at any depth. */
function hrefsOf(body: unknown, out: string[] = []): string[] {
  if (Array.isArray(body)) for (const item of body) hrefsOf(item, out);
  else if (body && typeof body === "object") {
    for (const [key, value] of Object.entries(body)) {
      if (key === "_links" && value && typeof value === "object") {
        // (`/doc` has a `_links` too: the schema of one, which holds no links.)
        for (const links of Object.values(value).filter(Array.isArray))
          for (const link of links as Array<{ href?: string; templated?: boolean }>)
            if (typeof link.href === "string" && !link.templated) out.push(link.href);
      } else hrefsOf(value, out);
    }
  }
  return out;
}

/** A small calendar whose terms nest, with an event that has both, and an image. */
async function calendar() {
  const music = await seedTerm("tribe_events_cat", "Music");
  const jazz = await seedTerm("tribe_events_cat", "Jazz", { parent: music });
  const outdoors = await seedTerm("post_tag", "Outdoors");
  await seedMedia("https://images.test/poster.jpg");
  const concert = await seedEvent({ title: "Concert", start: day(2), termIds: [jazz, outdoors] });
  return { music, jazz, outdoors, concert };
}

/**
 * Follows every link from `start` (breadth first, links to this origin only, at most `limit`
 * pages), and returns what each answered.
 */
async function crawl(start: string[], headers?: Record<string, string>, limit = 150) {
  const seen = new Map<string, { status: number; code?: string }>();
  const queue = [...start.map((path) => `${ORIGIN}${path}`)];
  while (queue.length && seen.size < limit) {
    const url = queue.shift()!;
    if (seen.has(url) || !url.startsWith(ORIGIN)) continue;
    const res = await api(url.slice(ORIGIN.length), { headers });
    seen.set(url, { status: res.status, code: res.body?.code });
    for (const href of hrefsOf(res.body)) if (!seen.has(href)) queue.push(href);
  }
  return seen;
}

describe("links", () => {
  it.each(["", "/de"])(
    "every link of terms, wp/v2 objects and the indexes answers (prefix %j)",
    async (prefix) => {
      const site = await calendar();
      const answers = await crawl([
        `${prefix}${NS}/categories/${site.jazz}`,
        `${prefix}${NS}/tags/${site.outdoors}`,
        `${prefix}/wp-json/wp/v2/tribe_events`,
        `${prefix}/wp-json/`,
      ]);
      const urls = [...answers.keys()];
      // What the term links name, all of them reached.
      const wp = `${ORIGIN}${prefix}/wp-json/wp/v2`;
      expect(urls).toEqual(
        expect.arrayContaining([
          `${wp}/tribe_events_cat/${site.jazz}`,
          `${wp}/tribe_events_cat/${site.music}`,
          `${wp}/tribe_events_cat`,
          `${wp}/tags/${site.outdoors}`,
          `${wp}/tags`,
          `${wp}/taxonomies/tribe_events_cat`,
          `${wp}/taxonomies/post_tag`,
          `${wp}/taxonomies`,
          `${wp}/types/tribe_events`,
          `${wp}/types`,
          `${wp}/tribe_events?tribe_events_cat=${site.jazz}`,
          `${wp}/tribe_events?tags=${site.outdoors}`,
          `${wp}/tribe_events/${site.concert}`,
          `${wp}/tribe_events_cat?post=${site.concert}`,
          `${wp}/tags?post=${site.concert}`,
          `${wp}/media`,
        ]),
      );
      const broken = [...answers].filter(([, a]) => a.status === 404 || a.code === "rest_no_route");
      expect(broken).toEqual([]);
    },
  );

  it("follows the wp:post_type link to the events of the term", async () => {
    const site = await calendar();
    await seedEvent({ title: "Talk", start: day(3) });
    const term = await api(`${NS}/categories/${site.jazz}`);
    const href: string = term.body._links["wp:post_type"][0].href;
    const events = await api(href.slice(ORIGIN.length));
    expect(events.status).toBe(200);
    expect(events.body.map((e: { id: number }) => e.id)).toEqual([site.concert]);
    expect(events.body[0].tribe_events_cat).toEqual([site.jazz]);
  });

  it("answers signed-in readers the same links", async () => {
    const site = await calendar();
    const answers = await crawl(
      [`${NS}/categories/${site.jazz}`, "/wp-json/wp/v2/tribe_events"],
      ADMIN,
      60,
    );
    expect([...answers].filter(([, a]) => a.status === 404 || a.code === "rest_no_route")).toEqual(
      [],
    );
  });
});
