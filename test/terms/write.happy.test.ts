import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm } from "../support/factories";
import { TAXONOMIES } from "./fixtures";

const root = `${ORIGIN}${NS}`;
const SINGLE_KEYS = [
  "id",
  "count",
  "description",
  "name",
  "slug",
  "taxonomy",
  "parent",
  "meta",
  "url",
  "urls",
  "_links",
];
const keysOf = (taxonomy: string) =>
  taxonomy === "post_tag" ? SINGLE_KEYS.filter((k) => k !== "parent") : SINGLE_KEYS;
const contentVersion = async () =>
  (await env.DB.prepare("SELECT version FROM content_version").first<{ version: number }>())!
    .version;

describe.each(TAXONOMIES)("POST /$base (§8.1, §8.8; contract §4 row 7)", ({ base, taxonomy }) => {
  it("creates the term: 201, Location = its own URL here, the single shape with _links", async () => {
    const before = await contentVersion();
    const res = await api(`${NS}/${base}`, {
      json: { name: "Open Air", description: "<b>Outside</b>" },
      headers: ADMIN,
    });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.headers.get("location")).toBe(`${root}/${base}/${id}`);
    expect(Object.keys(res.body)).toEqual(keysOf(taxonomy));
    expect(res.body).toMatchObject({
      count: 0,
      description: "<b>Outside</b>",
      name: "Open Air",
      slug: "open-air",
      taxonomy,
      meta: [],
    });
    expect(res.body.url).toBe(
      taxonomy === "post_tag" ? `${ORIGIN}/tag/open-air/` : `${ORIGIN}/events/category/open-air/`,
    );
    // `self` is the read-only wp/v2 route, which answers GET.
    expect(res.body._links.self[0].targetHints.allow).toEqual(["GET"]);
    expect(await contentVersion()).toBe(before + 1);
    const read = await api(`${NS}/${base}/${id}`, { headers: ADMIN });
    expect(read.body).toEqual(res.body);
  });

  it("accepts form bodies and keeps names as sent (plain text)", async () => {
    const res = await api(`${NS}/${base}`, {
      form: { name: "Rock & Roll's", slug: "Rock N Roll" },
      headers: ADMIN,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Rock & Roll's", slug: "rock-n-roll" });
  });

  it("makes slugs unique with -2, -3 … and takes ids from the one term sequence, never reusing them", async () => {
    const a = await api(`${NS}/${base}`, { json: { name: "Live" }, headers: ADMIN });
    const b = await api(`${NS}/${base}`, { json: { name: "Live!", slug: "live" }, headers: ADMIN });
    const c = await api(`${NS}/${base}`, { json: { name: "Live?" }, headers: ADMIN });
    expect([a.body.slug, b.body.slug, c.body.slug]).toEqual(["live", "live-2", "live-3"]);
    const other = await api(`${NS}/${taxonomy === "post_tag" ? "categories" : "tags"}`, {
      json: { name: "Live" },
      headers: ADMIN,
    });
    expect(other.body.slug).toBe("live");
    expect([b.body.id, c.body.id, other.body.id]).toEqual([
      a.body.id + 1,
      a.body.id + 2,
      a.body.id + 3,
    ]);
    await api(`${NS}/${taxonomy === "post_tag" ? "categories" : "tags"}/${other.body.id}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    const next = await api(`${NS}/${base}`, { json: { name: "After" }, headers: ADMIN });
    expect(next.body.id).toBe(a.body.id + 4);
  });
});

describe("POST /categories: the hierarchy", () => {
  it("nests under a parent; the same name may exist under another parent; parent=0 is the top level", async () => {
    const music = await api(`${NS}/categories`, { json: { name: "Music" }, headers: ADMIN });
    const jazz = await api(`${NS}/categories`, {
      json: { name: "Jazz", parent: music.body.id },
      headers: ADMIN,
    });
    expect(jazz.status).toBe(201);
    expect(jazz.body).toMatchObject({
      parent: music.body.id,
      url: `${ORIGIN}/events/category/music/jazz/`,
      urls: { up: `${root}/categories/${music.body.id}` },
    });
    expect(jazz.body._links.up).toEqual([
      { href: `${ORIGIN}/wp-json/wp/v2/tribe_events_cat/${music.body.id}`, embeddable: true },
    ]);
    const topJazz = await api(`${NS}/categories`, {
      form: { name: "jazz", parent: "0" },
      headers: ADMIN,
    });
    expect(topJazz.status).toBe(201);
    expect(topJazz.body).toMatchObject({
      parent: 0,
      slug: "jazz-2",
      url: `${ORIGIN}/events/category/jazz-2/`,
    });
  });
});

describe.each(TAXONOMIES)("POST|PUT|PATCH /$base/{id} (§8.8)", ({ base, taxonomy }) => {
  it("changes exactly the fields it names, with every method", async () => {
    const id = await seedTerm(taxonomy, "Old", { slug: "old" });
    const put = await api(`${NS}/${base}/${id}`, {
      method: "PUT",
      json: { name: "New" },
      headers: ADMIN,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id, name: "New", slug: "old", description: "" });
    expect(Object.keys(put.body)).toEqual(keysOf(taxonomy));
    const patch = await api(`${NS}/${base}/${id}`, {
      method: "PATCH",
      json: { description: "About" },
      headers: ADMIN,
    });
    expect(patch.body).toMatchObject({ name: "New", slug: "old", description: "About" });
    const post = await api(`${NS}/${base}/${id}`, { form: { slug: "Fresh Slug" }, headers: ADMIN });
    expect(post.body).toMatchObject({
      name: "New",
      slug: "fresh-slug",
      description: "About",
      url:
        taxonomy === "post_tag"
          ? `${ORIGIN}/tag/fresh-slug/`
          : `${ORIGIN}/events/category/fresh-slug/`,
    });
    const same = await api(`${NS}/${base}/${id}`, { method: "PUT", json: {}, headers: ADMIN });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(post.body);
  });

  it("keeps slugs unique when renaming a slug onto another term's", async () => {
    await seedTerm(taxonomy, "Taken", { slug: "taken" });
    const id = await seedTerm(taxonomy, "Mine", { slug: "mine" });
    const res = await api(`${NS}/${base}/${id}`, {
      method: "PUT",
      json: { slug: "taken" },
      headers: ADMIN,
    });
    expect(res.body.slug).toBe("taken-2");
    const again = await api(`${NS}/${base}/${id}`, {
      method: "PUT",
      json: { slug: "taken-2" },
      headers: ADMIN,
    });
    expect(again.body.slug).toBe("taken-2");
  });

  it("shows the change inside the events using the term and marks them changed for sync clients; their `modified` stays, as in WordPress", async () => {
    const id = await seedTerm(taxonomy, "Before");
    const event = await seedEvent({ title: "Uses it", start: day(2), termIds: [id] });
    const res = await api(`${NS}/${base}/${id}`, {
      method: "PATCH",
      json: { name: "After" },
      headers: ADMIN,
    });
    expect(res.status).toBe(200);
    const e = (await api(`${NS}/events/${event}`)).body;
    expect(e[base].map((t: any) => t.name)).toEqual(["After"]);
    expect(e.modified_utc).toBe("2026-01-01 10:00:00");
    const changed = await api(`${NS}/events?modified_after=2026-01-02`);
    expect(changed.body.events.map((x: any) => x.id)).toEqual([event]);
  });
});

describe("PUT /categories/{id}: moving in the hierarchy", () => {
  it("moves under another parent and back to the top with parent=0", async () => {
    const a = await seedTerm("tribe_events_cat", "A");
    const b = await seedTerm("tribe_events_cat", "B");
    const moved = await api(`${NS}/categories/${b}`, {
      method: "PUT",
      json: { parent: a },
      headers: ADMIN,
    });
    expect(moved.body).toMatchObject({
      parent: a,
      url: `${ORIGIN}/events/category/a/b/`,
      urls: { up: `${root}/categories/${a}` },
    });
    const top = await api(`${NS}/categories/${b}`, {
      method: "PUT",
      json: { parent: 0 },
      headers: ADMIN,
    });
    expect(top.body.parent).toBe(0);
    expect(top.body.urls.up).toBeUndefined();
    expect(top.body._links.up).toBeUndefined();
  });
});

describe.each(TAXONOMIES)("DELETE /$base/{id} (§8.8)", ({ base, taxonomy }) => {
  it("deletes permanently and answers the former term without _links; events lose it in the same write", async () => {
    const id = await seedTerm(taxonomy, "Doomed");
    const keep = await seedTerm(taxonomy, "Kept");
    const event = await seedEvent({ title: "Tagged", start: day(2), termIds: [id, keep] });
    const before = await api(`${NS}/${base}/${id}`);
    const before_version = await contentVersion();
    const res = await api(`${NS}/${base}/${id}`, { method: "DELETE", headers: ADMIN });
    expect(res.status).toBe(200);
    const { _links, ...former } = before.body;
    expect(res.body).toEqual(former);
    expect(res.body.count).toBe(1);
    expect(await contentVersion()).toBeGreaterThan(before_version);
    expect((await api(`${NS}/${base}/${id}`)).status).toBe(400);
    const e = (await api(`${NS}/events/${event}`)).body;
    expect(e[base].map((t: any) => t.name)).toEqual(["Kept"]);
    expect(e.modified_utc).toBe("2026-01-01 10:00:00");
    const changed = await api(`${NS}/events?modified_after=2026-01-02`);
    expect(changed.body.events.map((x: any) => x.id)).toEqual([event]);
    const links = await env.DB.prepare("SELECT count(*) AS n FROM event_terms WHERE term_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(links!.n).toBe(0);
    expect((await api(`${NS}/events?${base}=${keep}`)).body.events.map((x: any) => x.id)).toEqual([
      event,
    ]);
  });
});

describe("DELETE /categories/{id}: children move up (WordPress wp_delete_term)", () => {
  it("gives the children the deleted category's parent", async () => {
    const top = await seedTerm("tribe_events_cat", "Top");
    const middle = await seedTerm("tribe_events_cat", "Middle", { parent: top });
    const child = await seedTerm("tribe_events_cat", "Child", { parent: middle });
    const res = await api(`${NS}/categories/${middle}`, { method: "DELETE", headers: ADMIN });
    expect(res.body).toMatchObject({
      id: middle,
      parent: top,
      url: `${ORIGIN}/events/category/top/middle/`,
    });
    const moved = await api(`${NS}/categories/${child}`);
    expect(moved.body).toMatchObject({ parent: top, url: `${ORIGIN}/events/category/top/child/` });
    await api(`${NS}/categories/${top}`, { method: "DELETE", headers: ADMIN });
    expect((await api(`${NS}/categories/${child}`)).body).toMatchObject({
      parent: 0,
      url: `${ORIGIN}/events/category/child/`,
    });
  });
});
