import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, ORIGIN, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm } from "../support/factories";
import { seedSampleSite, TAXONOMIES } from "./fixtures";
import { rehost, SAMPLE_CATEGORIES, SAMPLE_TAGS } from "./samples";

const root = `${ORIGIN}${NS}`;
const names = (res: { body: any }, base: string) => res.body[base].map((t: any) => t.name);

describe("GET /categories, GET /tags: the recorded archives (§4.4 b, §5.1)", () => {
  it("answers the sample bodies key for key, with the filters kept in rest_url (contract §4 row 7)", async () => {
    await seedSampleSite();
    for (const [base, sample] of [
      ["categories", SAMPLE_CATEGORIES],
      ["tags", SAMPLE_TAGS],
    ] as const) {
      const res = await api(`${NS}/${base}`);
      expect(res.status).toBe(200);
      const expected = {
        ...rehost(sample, ORIGIN),
        rest_url: `${root}/${base}/?page=1&per_page=12`,
      };
      expect(JSON.stringify(res.body)).toBe(JSON.stringify(expected));
      expect(res.headers.get("x-tec-total")).toBe(String(sample.total));
      expect(res.headers.get("x-tec-totalpages")).toBe("1");
      expect(res.headers.get("x-wp-total")).toBe(String(sample.total));
      expect(res.headers.get("x-wp-totalpages")).toBe("1");
      expect(res.headers.get("allow")).toBe("GET");
      expect(roundTrips(res)).toBe(1);
    }
  });

  it.each(TAXONOMIES)(
    "$base: at most two D1 round trips with every filter, with or without credentials",
    async ({ base, taxonomy }) => {
      const site = await seedSampleSite();
      const first = taxonomy === "tribe_events_cat" ? site.music : site.jazz;
      const ok = await api(
        `${NS}/${base}?include=${first}&event=${site.events[0]}&search=a&orderby=include&per_page=1`,
        { headers: ADMIN },
      );
      expect(ok.status).toBe(200);
      expect(roundTrips(ok)).toBeLessThanOrEqual(2);
      const anonymous = await api(
        `${NS}/${base}?include=${first}&event=${site.events[0]}&hide_empty=false`,
      );
      expect(roundTrips(anonymous)).toBe(1);
    },
  );
});

describe.each(TAXONOMIES)("GET /$base filters (§2.8, §7.2)", ({ base, taxonomy }) => {
  it("hides terms no published event uses unless hide_empty=false; counts only published events", async () => {
    const used = await seedTerm(taxonomy, "Used");
    const drafted = await seedTerm(taxonomy, "Drafted");
    await seedTerm(taxonomy, "Empty");
    await seedEvent({ title: "Published", start: day(1), termIds: [used] });
    await seedEvent({ title: "Draft", start: day(1), status: "draft", termIds: [used, drafted] });
    const res = await api(`${NS}/${base}`);
    expect(res.body[base].map((t: any) => [t.name, t.count])).toEqual([["Used", 1]]);
    expect(res.body.total).toBe(1);
    const all = await api(`${NS}/${base}?hide_empty=false`);
    expect(all.body[base].map((t: any) => [t.name, t.count])).toEqual([
      ["Drafted", 0],
      ["Empty", 0],
      ["Used", 1],
    ]);
    expect(all.body.rest_url).toBe(`${root}/${base}/?page=1&per_page=12&hide_empty=0`);
    expect(names(await api(`${NS}/${base}?hide_empty=1`), base)).toEqual(["Used"]);
  });

  it("search matches the name or the slug, case-insensitively", async () => {
    await seedTerm(taxonomy, "Open Air", { slug: "outdoors" });
    await seedTerm(taxonomy, "Indoor");
    await seedTerm(taxonomy, "100% Fun", { slug: "fun" });
    const q = (s: string) => api(`${NS}/${base}?hide_empty=false&search=${encodeURIComponent(s)}`);
    expect(names(await q("AIR"), base)).toEqual(["Open Air"]);
    expect(names(await q("outdoors"), base)).toEqual(["Open Air"]);
    expect(names(await q("door"), base)).toEqual(["Indoor", "Open Air"]);
    expect(names(await q("0%"), base)).toEqual(["100% Fun"]);
    const res = await q("door");
    expect(res.body.rest_url).toBe(`${root}/${base}/?page=1&per_page=12&search=door&hide_empty=0`);
  });

  it("include and exclude take ids, slugs and names (contract §4 row 22); orderby=include keeps the list's order", async () => {
    const a = await seedTerm(taxonomy, "Alpha");
    const b = await seedTerm(taxonomy, "Beta", { slug: "b-slug" });
    const c = await seedTerm(taxonomy, "Gamma");
    const q = (s: string) => api(`${NS}/${base}?hide_empty=false&${s}`);
    expect(names(await q(`include=${c},b-slug`), base)).toEqual(["Beta", "Gamma"]);
    expect(names(await q(`include=${c},b-slug,alpha&orderby=include`), base)).toEqual([
      "Gamma",
      "Beta",
      "Alpha",
    ]);
    expect(
      names(await q(`include[]=GAMMA&include[]=${a}&orderby=include&order=desc`), base),
    ).toEqual(["Alpha", "Gamma"]);
    expect(names(await q(`exclude=${a},gamma`), base)).toEqual(["Beta"]);
    expect(names(await q(`include=${a},${b}&exclude=beta`), base)).toEqual(["Alpha"]);
    const res = await q(`include=${c},b-slug&exclude=${a}`);
    expect(res.body.rest_url).toBe(
      `${root}/${base}/?page=1&per_page=12&exclude=${a}&include=${c}%2Cb-slug&hide_empty=0`,
    );
  });

  it("post and event list the terms of one event; event wins when both are given", async () => {
    const x = await seedTerm(taxonomy, "X");
    const y = await seedTerm(taxonomy, "Y");
    const e1 = await seedEvent({ title: "One", start: day(1), termIds: [x] });
    const e2 = await seedEvent({ title: "Two", start: day(1), termIds: [x, y] });
    expect(names(await api(`${NS}/${base}?post=${e2}`), base)).toEqual(["X", "Y"]);
    expect(names(await api(`${NS}/${base}?event=${e1}`), base)).toEqual(["X"]);
    const both = await api(`${NS}/${base}?post=${e2}&event=${e1}`);
    expect(names(both, base)).toEqual(["X"]);
    expect(both.body.rest_url).toBe(`${root}/${base}/?page=1&per_page=12&event=${e1}`);
    expect((await api(`${NS}/${base}?post=${e1}`)).body.rest_url).toBe(
      `${root}/${base}/?page=1&per_page=12&post=${e1}`,
    );
  });

  it("slug picks one term by its exact slug", async () => {
    await seedTerm(taxonomy, "Rock");
    await seedTerm(taxonomy, "Rock Hard", { slug: "rock-hard" });
    const res = await api(`${NS}/${base}?hide_empty=false&slug=rock`);
    expect(names(res, base)).toEqual(["Rock"]);
    expect(res.body.rest_url).toBe(`${root}/${base}/?page=1&per_page=12&hide_empty=0&slug=rock`);
    expect(names(await api(`${NS}/${base}?hide_empty=false&slug=Rock%20Hard`), base)).toEqual([
      "Rock Hard",
    ]);
    expect(names(await api(`${NS}/${base}?hide_empty=false&slug=roc`), base)).toEqual([]);
  });

  it("orders by name by default and by every term attribute on request", async () => {
    const { db } = await import("../support/factories");
    const { terms } = await import("../../src/db/schema");
    const { eq } = await import("drizzle-orm");
    const banana = await seedTerm(taxonomy, "banana", { slug: "z-banana" });
    const apple = await seedTerm(taxonomy, "Apple", { slug: "y-apple" });
    const cherry = await seedTerm(taxonomy, "Cherry", { slug: "x-cherry" });
    await db().update(terms).set({ description: "3", termGroup: 2 }).where(eq(terms.id, banana));
    await db().update(terms).set({ description: "1", termGroup: 3 }).where(eq(terms.id, apple));
    await db().update(terms).set({ description: "2", termGroup: 1 }).where(eq(terms.id, cherry));
    await seedEvent({ title: "E1", start: day(1), termIds: [cherry, apple] });
    await seedEvent({ title: "E2", start: day(1), termIds: [cherry] });
    const order = async (q: string) =>
      names(await api(`${NS}/${base}?hide_empty=false&${q}`), base);
    expect(await order("")).toEqual(["Apple", "banana", "Cherry"]);
    expect(await order("orderby=name")).toEqual(["Apple", "banana", "Cherry"]);
    expect(await order("order=DESC")).toEqual(["Cherry", "banana", "Apple"]);
    expect(await order("order=whatever")).toEqual(["Cherry", "banana", "Apple"]);
    expect(await order("orderby=slug")).toEqual(["Cherry", "Apple", "banana"]);
    expect(await order("orderby=id")).toEqual(["banana", "Apple", "Cherry"]);
    expect(await order("orderby=term_id&order=desc")).toEqual(["Cherry", "Apple", "banana"]);
    expect(await order("orderby=count&order=desc")).toEqual(["Cherry", "Apple", "banana"]);
    expect(await order("orderby=description")).toEqual(["Apple", "Cherry", "banana"]);
    expect(await order("orderby=term_group")).toEqual(["Cherry", "banana", "Apple"]);
    expect(await order("orderby=parent")).toEqual(["banana", "Apple", "Cherry"]);
    expect(await order("orderby=include")).toEqual(["Apple", "banana", "Cherry"]);
    expect(await order("orderby=no_such_field")).toEqual(["Apple", "banana", "Cherry"]);
    const res = await api(`${NS}/${base}?hide_empty=false&orderby=slug&order=desc`);
    expect(res.body.rest_url).toBe(
      `${root}/${base}/?page=1&per_page=12&order=desc&orderby=slug&hide_empty=0`,
    );
  });
});

describe.each(TAXONOMIES)(
  "GET /$base paging (§5; contract §4 rows 1, 7, 8)",
  ({ base, taxonomy }) => {
    it("links the pages, keeping every filter, and says so in the headers", async () => {
      for (const name of ["A1", "A2", "A3", "A4", "A5"]) await seedTerm(taxonomy, name);
      await seedTerm(taxonomy, "Other");
      const first = await api(`${NS}/${base}?per_page=2&hide_empty=false&search=a`);
      expect(first.body).toMatchObject({ total: 5, total_pages: 3 });
      expect(names(first, base)).toEqual(["A1", "A2"]);
      expect(first.body.next_rest_url).toBe(
        `${root}/${base}/?per_page=2&search=a&hide_empty=0&page=2`,
      );
      expect(first.body.previous_rest_url).toBeUndefined();
      expect(Object.keys(first.body)).toEqual([
        "rest_url",
        "total",
        "total_pages",
        base,
        "next_rest_url",
      ]);
      expect(first.headers.get("link")).toContain(
        `<${root}/${base}/?per_page=2&search=a&hide_empty=0&page=2>; rel="next"`,
      );

      const second = await api(first.body.next_rest_url.replace(ORIGIN, ""));
      expect(names(second, base)).toEqual(["A3", "A4"]);
      expect(second.body.rest_url).toBe(`${root}/${base}/?page=2&per_page=2&search=a&hide_empty=0`);
      expect(second.body.previous_rest_url).toBe(
        `${root}/${base}/?per_page=2&search=a&hide_empty=0`,
      );
      expect(Object.keys(second.body)).toEqual([
        "rest_url",
        "total",
        "total_pages",
        base,
        "next_rest_url",
        "previous_rest_url",
      ]);

      const last = await api(second.body.next_rest_url.replace(ORIGIN, ""));
      expect(names(last, base)).toEqual(["A5"]);
      expect(last.body.next_rest_url).toBeUndefined();
      expect(last.body.previous_rest_url).toBe(
        `${root}/${base}/?per_page=2&search=a&hide_empty=0&page=2`,
      );
      expect(last.headers.get("x-wp-totalpages")).toBe("3");
    });

    it("answers pages past the end with 200 and an empty list that links back (§5.3)", async () => {
      await seedTerm(taxonomy, "Only");
      const res = await api(`${NS}/${base}?hide_empty=false&page=7`);
      expect(res.status).toBe(200);
      expect(res.body[base]).toEqual([]);
      expect(res.body).toMatchObject({ total: 1, total_pages: 1 });
      expect(res.body.previous_rest_url).toBe(`${root}/${base}/?per_page=12&hide_empty=0&page=6`);
      expect(res.body.next_rest_url).toBeUndefined();
      const empty = await api(`${NS}/${base}`);
      expect(empty.body).toEqual({
        rest_url: `${root}/${base}/?page=1&per_page=12`,
        total: 0,
        total_pages: 0,
        [base]: [],
      });
    });

    it("clamps per_page to PER_PAGE_MAX", async () => {
      const res = await api(`${NS}/${base}?per_page=500`);
      expect(res.status).toBe(200);
      expect(res.body.rest_url).toBe(`${root}/${base}/?page=1&per_page=50`);
    });

    it("speaks the request's language prefix in every URL", async () => {
      const id = await seedTerm(taxonomy, "Sprache");
      const res = await api(`/de${NS}/${base}?hide_empty=0`);
      expect(res.body.rest_url).toBe(`${ORIGIN}/de${NS}/${base}/?page=1&per_page=12&hide_empty=0`);
      expect(res.body[base][0].urls.self).toBe(`${ORIGIN}/de${NS}/${base}/${id}`);
      expect(res.body[base][0].url).toBe(
        taxonomy === "post_tag"
          ? `${ORIGIN}/de/tag/sprache/`
          : `${ORIGIN}/de/events/category/sprache/`,
      );
    });
  },
);

describe("GET /categories: the hierarchy (§7.2; contract §4 row 19)", () => {
  it("parent lists direct children; parent=0 the top level; nested categories link through their ancestors", async () => {
    const music = await seedTerm("tribe_events_cat", "Music");
    const jazz = await seedTerm("tribe_events_cat", "Jazz", { parent: music });
    const bebop = await seedTerm("tribe_events_cat", "Bebop", { parent: jazz });
    await seedTerm("tribe_events_cat", "Theatre");
    const q = (s: string) => api(`${NS}/categories?hide_empty=false&${s}`);
    expect(names(await q(`parent=${music}`), "categories")).toEqual(["Jazz"]);
    expect(names(await q("parent=0"), "categories")).toEqual(["Music", "Theatre"]);
    const res = await q(`parent=${jazz}`);
    expect(res.body.rest_url).toBe(
      `${root}/categories/?page=1&per_page=12&hide_empty=0&parent=${jazz}`,
    );
    const item = res.body.categories[0];
    expect(item).toMatchObject({
      id: bebop,
      parent: jazz,
      url: `${ORIGIN}/events/category/music/jazz/bebop/`,
    });
    expect(item.urls).toEqual({
      self: `${root}/categories/${bebop}`,
      collection: `${root}/categories`,
      up: `${root}/categories/${jazz}`,
    });
  });
});
