/**
 * `wp/v2/users` security (contract §3, tec-reference §9.2): anonymous and each of the five roles
 * against every route; nobody but an administrator sees another user's record (email included);
 * no password or digest ever leaves the service.
 */
import { describe, expect, it } from "vitest";
import type { Role } from "../../src/access/roles";
import * as schema from "../../src/db/schema";
import { ADMIN, api } from "../support/api";
import { db, seedUser } from "../support/factories";

const USERS = "/wp-json/wp/v2/users";
const ROLES: Role[] = ["administrator", "editor", "author", "contributor", "subscriber"];
type Caller = "anonymous" | Role;
const CALLERS: Caller[] = ["anonymous", ...ROLES];

/** Seeds one user per role plus a bystander; returns headers by caller. */
async function cast() {
  const users: Record<string, { id: number; headers: Record<string, string> }> = {};
  for (const role of ROLES) users[role] = await seedUser(role);
  const other = await seedUser("author", "bystander");
  const headersOf = (who: Caller) => (who === "anonymous" ? {} : users[who].headers);
  return { users, other, headersOf };
}

/** 401 for anonymous, 403 for the logged-in, both `rest_forbidden`. */
function expectForbidden(res: { status: number; body: any }, who: Caller) {
  expect(res.body.code, `${who}: ${JSON.stringify(res.body)}`).toBe("rest_forbidden");
  expect(res.status).toBe(who === "anonymous" ? 401 : 403);
}

describe("who may do what", () => {
  it("GET /users: administrators only", async () => {
    const { headersOf } = await cast();
    for (const who of CALLERS) {
      const res = await api(USERS, { headers: headersOf(who) });
      if (who === "administrator") expect(res.status).toBe(200);
      else expectForbidden(res, who);
    }
  });

  it("POST /users: administrators only, so nobody else can mint an administrator", async () => {
    const { headersOf } = await cast();
    for (const who of CALLERS) {
      const res = await api(USERS, {
        headers: headersOf(who),
        json: {
          username: `by-${who}`,
          email: `by-${who}@example.org`,
          password: "pw",
          roles: "administrator",
        },
      });
      if (who === "administrator") expect(res.status).toBe(201);
      else expectForbidden(res, who);
    }
  });

  it("GET /users/{id}: yourself, or an administrator; others do not even learn whether the id exists", async () => {
    const { users, other, headersOf } = await cast();
    for (const who of CALLERS) {
      const theirs = await api(`${USERS}/${other.id}`, { headers: headersOf(who) });
      const missing = await api(`${USERS}/999`, { headers: headersOf(who) });
      if (who === "administrator") {
        expect(theirs.body.email).toBe("bystander@example.com");
        expect(missing.status).toBe(404);
      } else {
        expectForbidden(theirs, who);
        expectForbidden(missing, who);
        expect(theirs.text).not.toContain("bystander@example.com");
      }
      if (who !== "anonymous")
        expect((await api(`${USERS}/${users[who].id}`, { headers: headersOf(who) })).status).toBe(
          200,
        );
    }
  });

  it("POST|PUT|PATCH /users/{id}: yourself, or an administrator", async () => {
    const { users, other, headersOf } = await cast();
    for (const who of CALLERS) {
      for (const method of ["POST", "PUT", "PATCH"]) {
        const res = await api(`${USERS}/${other.id}`, {
          method,
          headers: headersOf(who),
          json: { name: `renamed by ${who}` },
        });
        if (who === "administrator") expect(res.status).toBe(200);
        else expectForbidden(res, who);
        if (who !== "anonymous") {
          const own = await api(`${USERS}/${users[who].id}`, {
            method,
            headers: headersOf(who),
            json: { name: `${who} ${method}` },
          });
          expect(own.status).toBe(200);
        }
      }
    }
    const [bystander] = (await db().select().from(schema.users)).filter((u) => u.id === other.id);
    expect(bystander.name).toBe("renamed by administrator");
  });

  it("nobody but an administrator changes a role, their own included", async () => {
    const { users, other, headersOf } = await cast();
    for (const who of ROLES.filter((r) => r !== "administrator")) {
      const own = await api(`${USERS}/${users[who].id}`, {
        headers: headersOf(who),
        json: { roles: "administrator" },
      });
      expect(own.status).toBe(403);
      expect(own.body.code).toBe("rest_cannot_edit_roles");
      expect((await api(`${USERS}/me`, { headers: headersOf(who) })).body.roles).toEqual([who]);
      expectForbidden(
        await api(`${USERS}/${other.id}`, {
          headers: headersOf(who),
          json: { roles: "administrator" },
        }),
        who,
      );
    }
    expectForbidden(
      await api(`${USERS}/${other.id}`, { json: { roles: "administrator" } }),
      "anonymous",
    );
    expect(
      (
        await api(`${USERS}/${other.id}`, {
          headers: headersOf("administrator"),
          json: { roles: "editor" },
        })
      ).body.roles,
    ).toEqual(["editor"]);
  });

  it("DELETE /users/{id}: administrators only", async () => {
    const { headersOf } = await cast();
    for (const who of CALLERS) {
      const victim = await seedUser("subscriber", `victim-${who}`);
      const res = await api(`${USERS}/${victim.id}?force=true&reassign=1`, {
        method: "DELETE",
        headers: headersOf(who),
      });
      if (who === "administrator") expect(res.status).toBe(200);
      else {
        expectForbidden(res, who);
        expect((await api(`${USERS}/${victim.id}`, { headers: ADMIN })).status).toBe(200);
      }
    }
  });

  it("GET /users/me: everyone signed in, for themselves", async () => {
    const { users, headersOf } = await cast();
    for (const who of ROLES)
      expect((await api(`${USERS}/me`, { headers: headersOf(who) })).body.id).toBe(users[who].id);
  });
});

describe("Allow header", () => {
  it("lists what the caller may do on the route", async () => {
    const { users, other, headersOf } = await cast();
    expect((await api(USERS, { headers: ADMIN })).headers.get("allow")).toBe("GET, POST");
    expect(
      (await api(`${USERS}/${users.author.id}`, { headers: headersOf("author") })).headers.get(
        "allow",
      ),
    ).toBe("GET, POST, PUT, PATCH");
    expect(
      (await api(`${USERS}/${other.id}`, { headers: headersOf("author") })).headers.get("allow") ??
        "",
    ).toBe("");
    expect((await api(`${USERS}/${other.id}`, { headers: ADMIN })).headers.get("allow")).toBe(
      "GET, POST, PUT, PATCH, DELETE",
    );
    expect((await api(`${USERS}/me`)).headers.get("allow")).toBe("GET");
  });
});

describe("secrets", () => {
  it("never answers a password or a digest, and keeps only a salted digest of the login password", async () => {
    const password = "Tr0ub4dor&3 horse";
    const created = await api(USERS, {
      headers: ADMIN,
      json: { username: "jane", email: "jane@example.org", password },
    });
    const id = created.body.id;
    const updated = await api(`${USERS}/${id}`, {
      headers: ADMIN,
      json: { password: `${password}!` },
    });
    const listed = await api(USERS, { headers: ADMIN });
    const deleted = await api(`${USERS}/${id}?force=true&reassign=1`, {
      method: "DELETE",
      headers: ADMIN,
    });
    for (const res of [created, updated, listed, deleted]) {
      expect(res.text).not.toContain(password);
      expect(res.text).not.toMatch(/password|digest|pbkdf2/i);
    }
  });

  it("stores two users with the same password under different digests", async () => {
    for (const name of ["ann", "ben"])
      await api(USERS, {
        headers: ADMIN,
        json: { username: name, email: `${name}@example.org`, password: "same" },
      });
    const rows = (await db().select().from(schema.users)).filter(
      (u) => u.username === "ann" || u.username === "ben",
    );
    expect(rows[0].passwordDigest).not.toBe(rows[1].passwordDigest);
    for (const row of rows) expect(row.passwordDigest).not.toContain("same");
  });

  it("does not let a login password authenticate API calls", async () => {
    await api(USERS, {
      headers: ADMIN,
      json: { username: "jane", email: "jane@example.org", password: "login-only-password" },
    });
    const res = await api(`${USERS}/me`, {
      headers: { authorization: `Basic ${btoa("jane:login-only-password")}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("incorrect_password");
  });

  it("sends authenticated answers as private, never cacheable", async () => {
    const me = await seedUser("subscriber");
    const res = await api(`${USERS}/me`, { headers: me.headers });
    expect(res.headers.get("cache-control")).toMatch(/private/);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
  });
});
