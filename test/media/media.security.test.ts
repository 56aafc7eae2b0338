/**
 * `wp/v2/media` security (contract §3, tec-reference §9.2): `upload_files` (author and up) to add,
 * everyone to read.
 */
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Role } from "../../src/access/roles";
import * as schema from "../../src/db/schema";
import { api } from "../support/api";
import { db, seedMedia, seedUser } from "../support/factories";

const MEDIA = "/wp-json/wp/v2/media";
const ROLES: Role[] = ["administrator", "editor", "author", "contributor", "subscriber"];
type Caller = "anonymous" | Role;
const CALLERS: Caller[] = ["anonymous", ...ROLES];
const UPLOADERS = new Set<Caller>(["administrator", "editor", "author"]);

async function cast() {
  const users: Record<string, { id: number; headers: Record<string, string> }> = {};
  for (const role of ROLES) users[role] = await seedUser(role);
  return { users, headersOf: (who: Caller) => (who === "anonymous" ? {} : users[who].headers) };
}

describe("POST /media", () => {
  it("is for authors and up; others get rest_forbidden and use up no id", async () => {
    const { users, headersOf } = await cast();
    for (const who of CALLERS) {
      const before = (await db().select({ n: count() }).from(schema.posts))[0].n;
      const res = await api(MEDIA, {
        headers: headersOf(who),
        json: { source_url: `https://i.test/${who}.jpg` },
      });
      if (UPLOADERS.has(who)) {
        expect(res.status, who).toBe(201);
        expect(res.body.author).toBe(users[who].id);
      } else {
        expect(res.body.code, who).toBe("rest_forbidden");
        expect(res.status).toBe(who === "anonymous" ? 401 : 403);
        expect((await db().select({ n: count() }).from(schema.posts))[0].n).toBe(before);
      }
    }
  });

  it("records the caller as author, whatever the body says", async () => {
    const { users, headersOf } = await cast();
    const res = await api(MEDIA, {
      headers: headersOf("author"),
      json: { source_url: "https://i.test/a.jpg", author: 1 },
    });
    expect(res.body.author).toBe(users.author.id);
  });

  it("Allow header says who may add", async () => {
    const { headersOf } = await cast();
    const id = await seedMedia("https://i.test/a.jpg");
    expect(
      (await api(`${MEDIA}/${id}`, { headers: headersOf("author") })).headers.get("allow"),
    ).toBe("GET");
    expect((await api(`${MEDIA}/${id}`)).headers.get("allow")).toBe("GET");
  });
});

describe("GET /media/{id}", () => {
  it("is public for every caller", async () => {
    const { headersOf } = await cast();
    const id = await seedMedia("https://i.test/a.jpg");
    for (const who of CALLERS)
      expect((await api(`${MEDIA}/${id}`, { headers: headersOf(who) })).status, who).toBe(200);
  });

  it("answers nothing about the author beyond the id", async () => {
    const { headersOf } = await cast();
    const created = await api(MEDIA, {
      headers: headersOf("author"),
      json: { source_url: "https://i.test/a.jpg" },
    });
    const res = await api(`${MEDIA}/${created.body.id}`);
    expect(res.text).not.toContain("author@example.com");
    expect(res.text).not.toMatch(/password|digest/i);
  });
});
