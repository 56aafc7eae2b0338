import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm, seedUser, seedVenue } from "../support/factories";
import { TAXONOMIES } from "./fixtures";

/** Asserts the WordPress `rest_invalid_param` envelope naming exactly `params`. */
function expectInvalid(res: { status: number; body: any }, params: string[], label = "") {
  expect(res.status, label).toBe(400);
  expect(res.body.code, label).toBe("rest_invalid_param");
  expect(res.body.message, label).toBe(`Invalid parameter(s): ${params.join(", ")}`);
  expect(Object.keys(res.body.data.params), label).toEqual(params);
  expect(res.body.data.status).toBe(400);
}

const termCount = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM terms").first<{ n: number }>())!.n;

describe.each(TAXONOMIES)(
  "GET /$base: bad input → 400 rest_invalid_param (§2.8, §3, §10.2)",
  ({ base, taxonomy }) => {
    it("rejects bad page and per_page values", async () => {
      const res = await api(`${NS}/${base}?per_page=abc`);
      expect(res.body).toEqual({
        code: "rest_invalid_param",
        message: "Invalid parameter(s): per_page",
        data: { status: 400, params: { per_page: "Invalid parameter." }, details: [] },
      });
      for (const bad of ["0", "-1", "foo", "foo bar", "1.5"])
        expectInvalid(await api(`${NS}/${base}?page=${encodeURIComponent(bad)}`), ["page"], bad);
    });

    it("rejects empty search, order, orderby and slug, and a non-boolean hide_empty", async () => {
      for (const name of ["search", "order", "orderby", "slug"])
        expectInvalid(await api(`${NS}/${base}?${name}=`), [name], name);
      const res = await api(`${NS}/${base}?hide_empty=yes`);
      expectInvalid(res, ["hide_empty"]);
      expect(res.body.data.params.hide_empty).toBe("hide_empty is not of type boolean.");
    });

    it("rejects include and exclude naming a term that does not exist in this taxonomy", async () => {
      const here = await seedTerm(taxonomy, "Here");
      const elsewhere = await seedTerm(
        taxonomy === "post_tag" ? "tribe_events_cat" : "post_tag",
        "Elsewhere",
      );
      expectInvalid(await api(`${NS}/${base}?exclude=99999`), ["exclude"]);
      expectInvalid(await api(`${NS}/${base}?include=${here},nope`), ["include"]);
      expectInvalid(await api(`${NS}/${base}?include=${elsewhere}`), ["include"]);
      expectInvalid(await api(`${NS}/${base}?include=foo-bar,23&exclude=here,zzz`), [
        "include",
        "exclude",
      ]);
      expect((await api(`${NS}/${base}?include=here&exclude=${here}`)).status).toBe(200);
    });

    it("rejects post and event that are not events", async () => {
      const venue = await seedVenue({ title: "Hall" });
      expectInvalid(await api(`${NS}/${base}?post=${venue}`), ["post"]);
      expectInvalid(await api(`${NS}/${base}?event=999999`), ["event"]);
      expectInvalid(await api(`${NS}/${base}?event=foo`), ["event"]);
      expectInvalid(await api(`${NS}/${base}?post=0`), ["post"]);
    });

    it("words errors in the request's language", async () => {
      const res = await api(`/de${NS}/${base}?orderby=`);
      expect(res.body.message).toBe("Ungültige(r) Parameter: orderby");
      expect(res.body.data.params.orderby).toBe("Ungültiger Parameter.");
    });
  },
);

describe("GET /categories?parent (§7.2; contract §4 row 19)", () => {
  it("rejects a parent that is not a category, but not 0", async () => {
    const tag = await seedTerm("post_tag", "A tag");
    expectInvalid(await api(`${NS}/categories?parent=${tag}`), ["parent"]);
    expectInvalid(await api(`${NS}/categories?parent=999`), ["parent"]);
    expectInvalid(await api(`${NS}/categories?parent=music`), ["parent"]);
    expectInvalid(await api(`${NS}/categories?parent=-1`), ["parent"]);
    expect((await api(`${NS}/categories?parent=0`)).status).toBe(200);
  });
});

describe("GET ?event= of an event the client may not read → rest_forbidden_context", () => {
  it("401 for anonymous clients, 403 for users who may not read it", async () => {
    const author = await seedUser("author");
    const subscriber = await seedUser("subscriber");
    const secret = await seedTerm("tribe_events_cat", "Secret plans");
    const draft = await seedEvent({
      title: "Draft",
      start: day(1),
      status: "draft",
      author: author.id,
      termIds: [secret],
    });
    const anonymous = await api(`${NS}/categories?event=${draft}&hide_empty=false`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({
      code: "rest_forbidden_context",
      message: "Sorry, you are not allowed to view terms for this post.",
      data: { status: 401 },
    });
    const denied = await api(`${NS}/tags?post=${draft}`, { headers: subscriber.headers });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("rest_forbidden_context");
    const own = await api(`${NS}/categories?event=${draft}&hide_empty=false`, {
      headers: author.headers,
    });
    expect(own.body.categories.map((t: any) => t.name)).toEqual(["Secret plans"]);
    const de = await api(`/de${NS}/categories?event=${draft}`);
    expect(de.body.message).toBe("Du darfst die Begriffe dieses Beitrags leider nicht ansehen.");
  });
});

describe.each(TAXONOMIES)(
  "/$base/{id}: ids that are not terms of the taxonomy → 400 (is_event_category / is_post_tag)",
  ({ base, taxonomy }) => {
    it("on GET, PUT and DELETE, for unknown ids and for the other taxonomy's terms", async () => {
      const other = await seedTerm(
        taxonomy === "post_tag" ? "tribe_events_cat" : "post_tag",
        "Other",
      );
      for (const id of [999999, other, 0]) {
        expectInvalid(await api(`${NS}/${base}/${id}`), ["id"], `GET ${id}`);
        expectInvalid(
          await api(`${NS}/${base}/${id}`, { method: "PUT", json: { name: "x" }, headers: ADMIN }),
          ["id"],
          `PUT ${id}`,
        );
        expectInvalid(
          await api(`${NS}/${base}/${id}`, { method: "DELETE", headers: ADMIN }),
          ["id"],
          `DELETE ${id}`,
        );
      }
      expect(
        (await api(`${NS}/${taxonomy === "post_tag" ? "categories" : "tags"}/${other}`)).status,
      ).toBe(200);
    });

    it("404 rest_no_route for paths and methods no route has", async () => {
      for (const [method, path] of [
        ["GET", `/${base}/foo`],
        ["GET", `/${base}/1/extra`],
        ["PATCH", `/${base}`],
        ["DELETE", `/${base}`],
      ]) {
        const res = await api(`${NS}${path}`, { method, headers: ADMIN });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.code).toBe("rest_no_route");
      }
    });
  },
);

describe.each(TAXONOMIES)(
  "POST /$base, PUT /$base/{id}: bad input (§2.8, §10)",
  ({ base, taxonomy }) => {
    it("400 rest_missing_callback_param without a name", async () => {
      const res = await api(`${NS}/${base}`, { json: { description: "no name" }, headers: ADMIN });
      expect(res.body).toEqual({
        code: "rest_missing_callback_param",
        message: "Missing parameter(s): name",
        data: { status: 400, params: ["name"] },
      });
    });

    it("400 rest_invalid_param for empty, blank, non-string or overlong fields; nothing is written", async () => {
      const before = await termCount();
      expectInvalid(await api(`${NS}/${base}`, { json: { name: "" }, headers: ADMIN }), ["name"]);
      expectInvalid(await api(`${NS}/${base}`, { json: { name: "   " }, headers: ADMIN }), [
        "name",
      ]);
      expectInvalid(await api(`${NS}/${base}`, { json: { name: 42 }, headers: ADMIN }), ["name"]);
      expectInvalid(
        await api(`${NS}/${base}`, { json: { name: "x".repeat(201) }, headers: ADMIN }),
        ["name"],
      );
      expectInvalid(
        await api(`${NS}/${base}`, {
          json: { name: "Ok", description: "", slug: "" },
          headers: ADMIN,
        }),
        ["description", "slug"],
      );
      const id = await seedTerm(taxonomy, "Existing");
      expectInvalid(
        await api(`${NS}/${base}/${id}`, { method: "PATCH", json: { name: "" }, headers: ADMIN }),
        ["name"],
      );
      expect(await termCount()).toBe(before + 1);
    });

    it("400 rest_invalid_json for a malformed body", async () => {
      const res = await api(`${NS}/${base}`, {
        method: "POST",
        body: "{nope",
        headers: { ...ADMIN, "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("rest_invalid_json");
    });

    it("400 term_exists with the existing term's id for a duplicate name (case-insensitive)", async () => {
      const first = await api(`${NS}/${base}`, { json: { name: "Festival" }, headers: ADMIN });
      const before = await termCount();
      const res = await api(`${NS}/${base}`, {
        json: { name: "FESTIVAL", slug: "other-slug" },
        headers: ADMIN,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "term_exists",
        message:
          taxonomy === "post_tag"
            ? "A term with the name provided already exists in this taxonomy."
            : "A term with the name provided already exists with this parent.",
        data: { status: 400, term_id: first.body.id },
      });
      expect(await termCount()).toBe(before);
      const de = await api(`/de${NS}/${base}`, { json: { name: "festival" }, headers: ADMIN });
      expect(de.body.message).toBe(
        taxonomy === "post_tag"
          ? "In dieser Taxonomie gibt es bereits einen Begriff mit diesem Namen."
          : "Unter diesem übergeordneten Begriff gibt es bereits einen Begriff mit diesem Namen.",
      );
    });
  },
);

describe("categories: bad parents", () => {
  it("400 rest_invalid_param for a parent that is not a category, or would make a cycle", async () => {
    const tag = await seedTerm("post_tag", "Tag");
    const a = await seedTerm("tribe_events_cat", "A");
    const b = await seedTerm("tribe_events_cat", "B", { parent: a });
    const c = await seedTerm("tribe_events_cat", "C", { parent: b });
    expectInvalid(
      await api(`${NS}/categories`, { json: { name: "X", parent: 999 }, headers: ADMIN }),
      ["parent"],
    );
    expectInvalid(
      await api(`${NS}/categories`, { json: { name: "X", parent: tag }, headers: ADMIN }),
      ["parent"],
    );
    expectInvalid(
      await api(`${NS}/categories`, { json: { name: "X", parent: "a" }, headers: ADMIN }),
      ["parent"],
    );
    expectInvalid(
      await api(`${NS}/categories/${a}`, { method: "PUT", json: { parent: a }, headers: ADMIN }),
      ["parent"],
    );
    expectInvalid(
      await api(`${NS}/categories/${a}`, { method: "PUT", json: { parent: c }, headers: ADMIN }),
      ["parent"],
    );
    expect((await api(`${NS}/categories/${a}`)).body.parent).toBe(0);
    expect(
      (await api(`${NS}/categories/${c}`, { method: "PUT", json: { parent: a }, headers: ADMIN }))
        .body.parent,
    ).toBe(a);
  });

  it("400 term_exists only among siblings", async () => {
    const a = await seedTerm("tribe_events_cat", "A");
    const child = await api(`${NS}/categories`, {
      json: { name: "Same", parent: a },
      headers: ADMIN,
    });
    expect((await api(`${NS}/categories`, { json: { name: "Same" }, headers: ADMIN })).status).toBe(
      201,
    );
    const dup = await api(`${NS}/categories`, {
      json: { name: "same", parent: a },
      headers: ADMIN,
    });
    expect(dup.body).toMatchObject({
      code: "term_exists",
      data: { status: 400, term_id: child.body.id },
    });
  });
});

describe("tags: no parent (§8.8)", () => {
  it("400 rest_taxonomy_not_hierarchical on create and update, even for parent=0; nothing is written", async () => {
    const id = await seedTerm("post_tag", "Flat");
    const before = await termCount();
    const create = await api(`${NS}/tags`, { json: { name: "Nested", parent: 0 }, headers: ADMIN });
    expect(create.body).toEqual({
      code: "rest_taxonomy_not_hierarchical",
      message: "Cannot set parent term, taxonomy is not hierarchical.",
      data: { status: 400 },
    });
    const update = await api(`${NS}/tags/${id}`, {
      method: "PATCH",
      form: { name: "Renamed", parent: String(id) },
      headers: ADMIN,
    });
    expect(update.status).toBe(400);
    expect(update.body.code).toBe("rest_taxonomy_not_hierarchical");
    expect(await termCount()).toBe(before);
    expect((await api(`${NS}/tags/${id}`)).body.name).toBe("Flat");
    const de = await api(`/de${NS}/tags/${id}`, {
      method: "PUT",
      json: { parent: 1 },
      headers: ADMIN,
    });
    expect(de.body.message).toBe(
      "Ein übergeordneter Begriff lässt sich nicht festlegen, da die Taxonomie nicht hierarchisch ist.",
    );
  });
});
