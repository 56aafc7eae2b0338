/**
 * `wp/v2/users` (contract §3): what an administrator and each user can do with accounts.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { ADMIN, api, NS, roundTrips } from "../support/api";
import { db, seedEvent, seedMedia, seedOrganizer, seedUser, seedVenue } from "../support/factories";

const USERS = "/wp-json/wp/v2/users";

describe("GET /users/me", () => {
  it("answers the authenticated user with exactly the contract's fields", async () => {
    const author = await seedUser("author", "jane");
    const res = await api(`${USERS}/me`, { headers: author.headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: author.id,
      username: "jane",
      name: "jane",
      email: "jane@example.com",
      roles: ["author"],
      slug: "jane",
    });
    expect(res.headers.get("cache-control")).toContain("private");
  });

  it("knows the first administrator, who signs in with ADMIN_APP_PASSWORD", async () => {
    const res = await api(`${USERS}/me`, { headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 1, username: "admin", roles: ["administrator"] });
  });

  it("is served under every language prefix, with or without a trailing slash", async () => {
    const editor = await seedUser("editor");
    expect((await api(`/de${USERS}/me`, { headers: editor.headers })).body.id).toBe(editor.id);
    expect((await api(`/en${USERS}/me`, { headers: editor.headers })).body.id).toBe(editor.id);
    expect((await api(`${USERS}/me/`, { headers: editor.headers })).body.id).toBe(editor.id);
  });
});

describe("GET /users", () => {
  it("lists users by display name with WordPress paging headers", async () => {
    await seedUser("editor", "zoe");
    await seedUser("author", "bob");
    const res = await api(`${USERS}?per_page=2`, { headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body.map((u: { username: string }) => u.username)).toEqual(["admin", "bob"]);
    expect(res.headers.get("x-wp-total")).toBe("3");
    expect(res.headers.get("x-wp-totalpages")).toBe("2");
    expect(res.headers.get("link")).toContain('users?per_page=2&page=2>; rel="next"');

    const second = await api(`${USERS}?per_page=2&page=2`, { headers: ADMIN });
    expect(second.body.map((u: { username: string }) => u.username)).toEqual(["zoe"]);
    expect(second.headers.get("link")).toContain('rel="prev"');
    expect(second.headers.get("link")).not.toContain('rel="next"');
  });

  it("defaults to 10 per page", async () => {
    for (let i = 0; i < 11; i++)
      await seedUser("subscriber", `reader${String(i).padStart(2, "0")}`);
    const res = await api(USERS, { headers: ADMIN });
    expect(res.body).toHaveLength(10);
    expect(res.headers.get("x-wp-total")).toBe("12");
    expect(res.headers.get("x-wp-totalpages")).toBe("2");
  });

  it("searches username, name, email and slug, case-insensitively, with % and _ taken literally", async () => {
    await seedUser("author", "margaret");
    await seedUser("author", "percy");
    const res = await api(`${USERS}?search=ARGA`, { headers: ADMIN });
    expect(res.body.map((u: { username: string }) => u.username)).toEqual(["margaret"]);
    expect(res.headers.get("x-wp-total")).toBe("1");
    expect((await api(`${USERS}?search=%25`, { headers: ADMIN })).body).toEqual([]);
    expect((await api(`${USERS}?search=example.com`, { headers: ADMIN })).body).toHaveLength(2);
  });

  it("costs at most two D1 round trips, authentication included, whatever the page size", async () => {
    for (let i = 0; i < 30; i++) await seedUser("subscriber", `reader${i}`);
    const boss = await seedUser("administrator", "boss");
    const res = await api(`${USERS}?per_page=100`, { headers: boss.headers });
    expect(res.body).toHaveLength(32);
    expect(roundTrips(res)).toBeLessThanOrEqual(2);
  });

  it("answers an empty page past the end", async () => {
    const res = await api(`${USERS}?page=5`, { headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe("POST /users", () => {
  it("creates a subscriber by default, 201 with Location, keeping only a digest of the password", async () => {
    const res = await api(USERS, {
      headers: ADMIN,
      json: { username: "Jane.Doe", email: "jane@example.org", password: "correct horse" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      username: "Jane.Doe",
      name: "Jane.Doe",
      email: "jane@example.org",
      roles: ["subscriber"],
      slug: "jane-doe",
    });
    expect(res.headers.get("location")).toBe(`http://calendar.test${USERS}/${res.body.id}`);
    expect(res.text).not.toContain("correct horse");
    const [row] = await db().select().from(schema.users).where(eq(schema.users.id, res.body.id));
    expect(row.passwordDigest).toMatch(/^pbkdf2\$\d+\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(row.passwordDigest).not.toContain("correct horse");
  });

  it("takes the role as an array or a comma list, a name, and form bodies", async () => {
    const a = await api(USERS, {
      headers: ADMIN,
      json: {
        username: "ed",
        email: "ed@example.org",
        password: "pw",
        roles: ["editor"],
        name: "Ed Itor",
      },
    });
    expect(a.body).toMatchObject({ roles: ["editor"], name: "Ed Itor" });
    const b = await api(USERS, {
      headers: ADMIN,
      form: { username: "al", email: "al@example.org", password: "pw", roles: "author" },
    });
    expect(b.status).toBe(201);
    expect(b.body.roles).toEqual(["author"]);
  });

  it("numbers a slug that is taken, as WordPress does", async () => {
    await api(USERS, {
      headers: ADMIN,
      json: { username: "sam", email: "sam@example.org", password: "pw" },
    });
    const res = await api(USERS, {
      headers: ADMIN,
      json: { username: "Sam.", email: "sam2@example.org", password: "pw", slug: "sam" },
    });
    expect(res.status).toBe(201);
    expect(res.body.slug).toBe("sam-2");
  });

  it("creates a user who can then be managed like any other", async () => {
    const created = await api(USERS, {
      headers: ADMIN,
      json: { username: "newbie", email: "n@example.org", password: "pw", roles: "author" },
    });
    const read = await api(`${USERS}/${created.body.id}`, { headers: ADMIN });
    expect(read.body).toEqual(created.body);
  });
});

describe("GET /users/{id}", () => {
  it("shows users their own record and administrators anyone's", async () => {
    const author = await seedUser("author");
    expect((await api(`${USERS}/${author.id}`, { headers: author.headers })).body.username).toBe(
      "author",
    );
    expect((await api(`${USERS}/${author.id}`, { headers: ADMIN })).body.email).toBe(
      "author@example.com",
    );
  });
});

describe("POST|PUT|PATCH /users/{id}", () => {
  it("lets users change their own name, email and password, and nothing else changes", async () => {
    const me = await seedUser("contributor", "carl");
    const res = await api(`${USERS}/${me.id}`, {
      method: "PUT",
      headers: me.headers,
      json: { name: "Carl C.", email: "carl@new.example" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: me.id,
      username: "carl",
      name: "Carl C.",
      email: "carl@new.example",
      roles: ["contributor"],
      slug: "carl",
    });

    const pw = await api(`${USERS}/${me.id}`, {
      method: "PATCH",
      headers: me.headers,
      json: { password: "new secret" },
    });
    expect(pw.body.email).toBe("carl@new.example");
    const [row] = await db().select().from(schema.users).where(eq(schema.users.id, me.id));
    expect(row.passwordDigest).toMatch(/^pbkdf2\$/);
    // The login password is not an API credential: the application password still works.
    expect((await api(`${USERS}/me`, { headers: me.headers })).status).toBe(200);
  });

  it("accepts /users/me and the unchanged username", async () => {
    const me = await seedUser("subscriber", "sue");
    const res = await api(`${USERS}/me`, {
      method: "POST",
      headers: me.headers,
      json: { username: "sue", name: "Sue", slug: "sue-s" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: me.id, name: "Sue", slug: "sue-s" });
  });

  it("lets administrators change roles, and an empty name falls back to the username", async () => {
    const author = await seedUser("author", "anna");
    const res = await api(`${USERS}/${author.id}`, {
      headers: ADMIN,
      json: { roles: ["editor"], name: "" },
    });
    expect(res.body).toMatchObject({ roles: ["editor"], name: "anna" });
    // The new role applies to the next request at once.
    expect((await api(`${USERS}/me`, { headers: author.headers })).body.roles).toEqual(["editor"]);
  });

  it("answers the user unchanged when nothing is sent", async () => {
    const me = await seedUser("author");
    const res = await api(`${USERS}/${me.id}`, { method: "PATCH", headers: me.headers, json: {} });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe("author");
  });
});

describe("DELETE /users/{id}", () => {
  it("hands every post of the user to `reassign`, revokes their credentials and answers the deleted user", async () => {
    const leaving = await seedUser("author", "leaving");
    const heir = await seedUser("editor", "heir");
    const venue = await seedVenue({ title: "Hall", author: leaving.id });
    const organizer = await seedOrganizer({ title: "Org", author: leaving.id });
    const image = await seedMedia("https://img.test/a.jpg");
    await db().update(schema.media).set({ author: leaving.id }).where(eq(schema.media.id, image));
    const event = await seedEvent({
      title: "Talk",
      start: "2030-01-01 10:00:00",
      author: leaving.id,
    });
    const others = await seedEvent({ title: "Other", start: "2030-01-01 10:00:00", author: 1 });

    const res = await api(`${USERS}/${leaving.id}?force=true&reassign=${heir.id}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deleted: true,
      previous: {
        id: leaving.id,
        username: "leaving",
        name: "leaving",
        email: "leaving@example.com",
        roles: ["author"],
        slug: "leaving",
      },
    });

    const d = db();
    expect(
      (await d.select().from(schema.events).where(eq(schema.events.id, event)))[0].author,
    ).toBe(heir.id);
    expect(
      (await d.select().from(schema.events).where(eq(schema.events.id, others)))[0].author,
    ).toBe(1);
    expect(
      (await d.select().from(schema.venues).where(eq(schema.venues.id, venue)))[0].author,
    ).toBe(heir.id);
    expect(
      (await d.select().from(schema.organizers).where(eq(schema.organizers.id, organizer)))[0]
        .author,
    ).toBe(heir.id);
    expect((await d.select().from(schema.media).where(eq(schema.media.id, image)))[0].author).toBe(
      heir.id,
    );
    expect(
      await d
        .select()
        .from(schema.applicationPasswords)
        .where(eq(schema.applicationPasswords.userId, leaving.id)),
    ).toEqual([]);
    expect((await api(`${USERS}/${leaving.id}`, { headers: ADMIN })).status).toBe(404);

    const again = await api(`${USERS}/me`, { headers: leaving.headers });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("incorrect_password");
  });

  it("marks the handed-over posts as changed, so incremental syncs see the new author; `modified` stays, as in WordPress", async () => {
    const leaving = await seedUser("author", "leaving");
    const event = await seedEvent({
      title: "Talk",
      start: "2030-01-01 10:00:00",
      author: leaving.id,
    });
    await api(`${USERS}/${leaving.id}?force=1&reassign=1`, { method: "DELETE", headers: ADMIN });
    const [row] = await db().select().from(schema.events).where(eq(schema.events.id, event));
    expect(row.changedGmt > "2026-01-01 10:00:00").toBe(true);
    expect(row.postModifiedGmt).toBe("2026-01-01 10:00:00");
    const synced = await api(
      `${NS}/events?start_date=2029-01-01&end_date=2031-01-01&modified_after=2026-01-01T10:00:00Z`,
    );
    expect(synced.body.events.map((e: { id: number }) => e.id)).toEqual([event]);
  });
});
