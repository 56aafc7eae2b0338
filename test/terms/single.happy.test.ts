import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, ORIGIN, roundTrips } from "../support/api";
import { seedTerm } from "../support/factories";
import { seedSampleSite, TAXONOMIES } from "./fixtures";
import { hereLinks, rehost, SAMPLE_CATEGORY, SAMPLE_TAG } from "./samples";

const root = `${ORIGIN}${NS}`;
const wp = `${ORIGIN}/wp-json/wp/v2`;

describe("GET /categories/{id}, GET /tags/{id} (§4.4 c)", () => {
  it("answers the recorded single bodies key for key, _links included", async () => {
    const site = await seedSampleSite();
    for (const [path, sample] of [
      [`categories/${site.music}`, SAMPLE_CATEGORY],
      [`tags/${site.jazz}`, SAMPLE_TAG],
    ] as const) {
      const res = await api(`${NS}/${path}`);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).toBe(JSON.stringify(rehost(hereLinks(sample), ORIGIN)));
      expect(res.headers.get("allow")).toBe("GET");
      expect(res.headers.get("x-tec-total")).toBeNull();
      expect(roundTrips(res)).toBe(1);
    }
  });

  it.each(TAXONOMIES)(
    "$base: tells a manager every method, in TEC's order, in Allow; _links.self names the read-only wp/v2 route (GET)",
    async ({ base, taxonomy }) => {
      const id = await seedTerm(taxonomy, "Managed");
      const res = await api(`${NS}/${base}/${id}/`, { headers: ADMIN });
      expect(res.status).toBe(200);
      expect(res.headers.get("allow")).toBe("GET, POST, PUT, PATCH, DELETE");
      expect(res.body._links.self).toEqual([
        {
          href: `${wp}/${taxonomy === "post_tag" ? "tags" : "tribe_events_cat"}/${id}`,
          targetHints: { allow: ["GET"] },
        },
      ]);
      expect(res.body.count).toBe(0);
      expect(roundTrips(res)).toBeLessThanOrEqual(2);
    },
  );

  it("links nested categories to their parent and through their ancestors' slugs", async () => {
    const music = await seedTerm("tribe_events_cat", "Music");
    const jazz = await seedTerm("tribe_events_cat", "Jazz", { parent: music });
    const bebop = await seedTerm("tribe_events_cat", "Bebop", { parent: jazz });
    const res = await api(`${NS}/categories/${bebop}`);
    expect(res.body).toMatchObject({
      id: bebop,
      parent: jazz,
      url: `${ORIGIN}/events/category/music/jazz/bebop/`,
      urls: {
        self: `${root}/categories/${bebop}`,
        collection: `${root}/categories`,
        up: `${root}/categories/${jazz}`,
      },
    });
    expect(Object.keys(res.body._links)).toEqual([
      "self",
      "collection",
      "about",
      "up",
      "wp:post_type",
      "curies",
    ]);
    expect(res.body._links.up).toEqual([
      { href: `${wp}/tribe_events_cat/${jazz}`, embeddable: true },
    ]);
    expect(res.body._links["wp:post_type"][0]).toEqual({
      href: `${wp}/tribe_events?tribe_events_cat=${bebop}`,
    });
  });

  it("prints public links under SITE_URL-less origins with the language prefix", async () => {
    const id = await seedTerm("post_tag", "Straße", { slug: "straße" });
    const res = await api(`/de${NS}/tags/${id}`);
    expect(res.body.url).toBe(`${ORIGIN}/de/tag/stra%C3%9Fe/`);
    expect(res.body.urls.self).toBe(`${ORIGIN}/de${NS}/tags/${id}`);
    expect(res.body._links.collection).toEqual([{ href: `${ORIGIN}/de/wp-json/wp/v2/tags` }]);
  });
});

describe.each(TAXONOMIES)(
  "$base count = published events using the term, as embedded in events (§4.4)",
  ({ base, taxonomy }) => {
    it("follows event writes and agrees with the term embedded in the event", async () => {
      const field = base;
      const body = {
        title: "Show",
        start_date: "2027-05-01 10:00:00",
        end_date: "2027-05-01 11:00:00",
        [field]: ["Brand New"],
      };
      const first = await api(`${NS}/events`, { json: body, headers: ADMIN });
      expect(first.status).toBe(201);
      const embedded = first.body[field][0];
      expect(embedded).toMatchObject({ name: "Brand New", taxonomy, count: 1 });
      const term = await api(`${NS}/${base}/${embedded.id}`);
      expect(term.body).toMatchObject({
        id: embedded.id,
        name: embedded.name,
        slug: embedded.slug,
        description: embedded.description,
        count: 1,
        urls: embedded.urls,
      });

      const draft = await api(`${NS}/events`, {
        json: { ...body, status: "draft" },
        headers: ADMIN,
      });
      expect(draft.body[field][0].id).toBe(embedded.id);
      expect((await api(`${NS}/${base}/${embedded.id}`)).body.count).toBe(1);

      const published = await api(`${NS}/events/${draft.body.id}`, {
        method: "PATCH",
        json: { status: "publish" },
        headers: ADMIN,
      });
      expect(published.body[field][0].count).toBe(2);
      expect((await api(`${NS}/${base}/${embedded.id}`)).body.count).toBe(2);
      expect((await api(`${NS}/${base}`)).body[base]).toEqual([
        expect.objectContaining({ id: embedded.id, count: 2 }),
      ]);

      await api(`${NS}/events/${first.body.id}`, { method: "DELETE", headers: ADMIN });
      expect((await api(`${NS}/${base}/${embedded.id}`)).body.count).toBe(1);
    });
  },
);
