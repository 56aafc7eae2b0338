import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { seedTerm, seedUser } from "../support/factories";
import { TAXONOMIES } from "./fixtures";

const ROLES = ["administrator", "editor", "author", "contributor", "subscriber"] as const;
type Who = (typeof ROLES)[number] | "anonymous";

async function people(): Promise<Record<Who, Record<string, string>>> {
  return {
    anonymous: {},
    administrator: ADMIN,
    editor: (await seedUser("editor")).headers,
    author: (await seedUser("author")).headers,
    contributor: (await seedUser("contributor")).headers,
    subscriber: (await seedUser("subscriber")).headers,
  };
}

/** §9.2: categories need edit_tribe_events + publish_tribe_events (author and up); tags manage_categories (editor and up). */
const MAY_MANAGE: Record<string, Who[]> = {
  categories: ["administrator", "editor", "author"],
  tags: ["administrator", "editor"],
};

const termName = async (id: number) =>
  (await env.DB.prepare("SELECT name FROM terms WHERE id = ?").bind(id).first<{ name: string }>())
    ?.name ?? null;

describe.each(TAXONOMIES)("/$base permission matrix (§9.2)", ({ base, taxonomy }) => {
  it.each(["anonymous", ...ROLES] as Who[])("%s: create, update and delete", async (who) => {
    const headers = (await people())[who];
    const allowed = MAY_MANAGE[base].includes(who);
    const denied = who === "anonymous" ? 401 : 403;
    const id = await seedTerm(taxonomy, "Target");

    const create = await api(`${NS}/${base}`, { json: { name: `By ${who}` }, headers });
    expect(create.status).toBe(allowed ? 201 : denied);
    if (!allowed)
      expect(create.body).toEqual({
        code: "rest_forbidden",
        message: "Sorry, you are not allowed to do that.",
        data: { status: denied },
      });
    for (const method of ["POST", "PUT", "PATCH"]) {
      const update = await api(`${NS}/${base}/${id}`, {
        method,
        json: { name: `${method} by ${who}` },
        headers,
      });
      expect(update.status, method).toBe(allowed ? 200 : denied);
      expect(await termName(id)).toBe(allowed ? `${method} by ${who}` : "Target");
    }
    const del = await api(`${NS}/${base}/${id}`, { method: "DELETE", headers });
    expect(del.status).toBe(allowed ? 200 : denied);
    if (!allowed) expect(del.body.code).toBe("rest_forbidden");
    expect(await termName(id)).toBe(allowed ? null : "Target");
    const count = await env.DB.prepare("SELECT count(*) AS n FROM terms WHERE name = ?")
      .bind(`By ${who}`)
      .first<{ n: number }>();
    expect(count!.n).toBe(allowed ? 1 : 0);
  });

  it("reads are public; Allow says what each user may do", async () => {
    const p = await people();
    const id = await seedTerm(taxonomy, "Public");
    for (const who of ["anonymous", ...ROLES] as Who[]) {
      const manage = MAY_MANAGE[base].includes(who);
      const list = await api(`${NS}/${base}`, { headers: p[who] });
      expect(list.status).toBe(200);
      expect(list.headers.get("allow"), who).toBe(manage ? "GET, POST" : "GET");
      const single = await api(`${NS}/${base}/${id}`, { headers: p[who] });
      expect(single.status).toBe(200);
      expect(single.headers.get("allow"), who).toBe(
        manage ? "GET, POST, PUT, PATCH, DELETE" : "GET",
      );
      // `self` is the read-only wp/v2 route: GET whoever asks.
      expect(single.body._links.self[0].targetHints.allow).toEqual(["GET"]);
    }
  });

  it("validates before checking permission (§1.3, quirk 9): anonymous bad input gets 400, not 401", async () => {
    expect((await api(`${NS}/${base}/999999`, { method: "PUT", json: { name: "x" } })).status).toBe(
      400,
    );
    expect((await api(`${NS}/${base}/999999`, { method: "DELETE" })).status).toBe(400);
    expect((await api(`${NS}/${base}`, { json: {} })).body.code).toBe(
      "rest_missing_callback_param",
    );
    const dup = await seedTerm(taxonomy, "Dup");
    // Whether a name is taken is the handler's business: only managers learn it.
    expect((await api(`${NS}/${base}`, { json: { name: "Dup" } })).status).toBe(401);
    expect(
      (await api(`${NS}/${base}/${dup}`, { method: "PATCH", json: { parent: 0 } })).status,
    ).toBe(401);
  });

  it("refuses anonymous and unauthorized writes from credentials that do not check out", async () => {
    const bad = { authorization: `Basic ${btoa("admin:wrong password")}` };
    const res = await api(`${NS}/${base}`, { json: { name: "Nope" }, headers: bad });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("incorrect_password");
  });
});

describe("terms cannot be reached through the other taxonomy's routes", () => {
  it("a category id on /tags is 400 for every method, and nothing changes", async () => {
    const cat = await seedTerm("tribe_events_cat", "Cat");
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await api(`${NS}/tags/${cat}`, {
        method,
        json: method === "PUT" ? { name: "Hijacked" } : undefined,
        headers: ADMIN,
      });
      expect(res.status, method).toBe(400);
    }
    expect(await termName(cat)).toBe("Cat");
  });

  it("the same name may exist in both taxonomies", async () => {
    expect((await api(`${NS}/categories`, { json: { name: "Both" }, headers: ADMIN })).status).toBe(
      201,
    );
    expect((await api(`${NS}/tags`, { json: { name: "Both" }, headers: ADMIN })).status).toBe(201);
  });
});

describe("authenticated term responses are never cached publicly", () => {
  it("marks them private", async () => {
    const id = await seedTerm("post_tag", "Private");
    const res = await api(`${NS}/tags/${id}`, { headers: ADMIN });
    expect(res.headers.get("cache-control")).toContain("private");
    const write = await api(`${NS}/tags`, { json: { name: "Fresh" }, headers: ADMIN });
    expect(write.headers.get("cache-control")).toContain("no-store");
  });
});
