/**
 * Application-password security (contract §3): anonymous and each of the five roles against every
 * route; only the owner and administrators see or touch a user's passwords; the secret is shown
 * once and stored only as its SHA-256 digest.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Role } from "../../src/access/roles";
import * as schema from "../../src/db/schema";
import { sha256Hex } from "../../src/http/crypto";
import { api } from "../support/api";
import { db, seedUser } from "../support/factories";

const USERS = "/wp-json/wp/v2/users";
const ROLES: Role[] = ["administrator", "editor", "author", "contributor", "subscriber"];
type Caller = "anonymous" | Role;
const CALLERS: Caller[] = ["anonymous", ...ROLES];

async function cast() {
  const users: Record<string, { id: number; headers: Record<string, string> }> = {};
  for (const role of ROLES) users[role] = await seedUser(role);
  const victim = await seedUser("author", "victim");
  const headersOf = (who: Caller) => (who === "anonymous" ? {} : users[who].headers);
  return { users, victim, headersOf };
}

function expectForbidden(res: { status: number; body: any }, who: Caller) {
  expect(res.body.code, `${who}: ${JSON.stringify(res.body)}`).toBe("rest_forbidden");
  expect(res.status).toBe(who === "anonymous" ? 401 : 403);
}

describe("another user's application passwords", () => {
  it("are listed, read, created and revoked by administrators only", async () => {
    const { victim, headersOf } = await cast();
    const base = `${USERS}/${victim.id}/application-passwords`;
    const planted = await api(`${USERS}/me/application-passwords`, {
      headers: victim.headers,
      json: { name: "planted" },
    });
    for (const who of CALLERS) {
      const headers = headersOf(who);
      const list = await api(base, { headers });
      const one = await api(`${base}/${planted.body.uuid}`, { headers });
      const create = await api(base, { headers, json: { name: `by ${who}` } });
      if (who === "administrator") {
        expect(list.status).toBe(200);
        expect(one.status).toBe(200);
        expect(create.status).toBe(201);
        continue;
      }
      for (const res of [list, one, create]) expectForbidden(res, who);
      const revoke = await api(`${base}/${planted.body.uuid}`, { method: "DELETE", headers });
      expectForbidden(revoke, who);
      expectForbidden(await api(base, { method: "DELETE", headers }), who);
      expect(list.text).not.toContain("planted");
    }
    // The planted password survived everyone but the administrator, who did not delete it.
    expect(
      (await api(`${USERS}/me`, { headers: { authorization: `Bearer ${planted.body.password}` } }))
        .body.id,
    ).toBe(victim.id);
    const revoke = await api(`${base}/${planted.body.uuid}`, {
      method: "DELETE",
      headers: headersOf("administrator"),
    });
    expect(revoke.status).toBe(200);
  });
});

describe("one's own application passwords", () => {
  it("every role manages its own, by id and through `me`", async () => {
    const { users, headersOf } = await cast();
    for (const who of ROLES) {
      const headers = headersOf(who);
      const made = await api(`${USERS}/${users[who].id}/application-passwords`, {
        headers,
        json: { name: "own" },
      });
      expect(made.status, who).toBe(201);
      expect((await api(`${USERS}/me/application-passwords`, { headers })).status).toBe(200);
      expect(
        (
          await api(`${USERS}/me/application-passwords/${made.body.uuid}`, {
            method: "DELETE",
            headers,
          })
        ).status,
      ).toBe(200);
    }
  });

  it("Allow header follows ownership", async () => {
    const { users, victim, headersOf } = await cast();
    const own = await api(`${USERS}/${users.author.id}/application-passwords`, {
      headers: headersOf("author"),
    });
    expect(own.headers.get("allow")).toBe("GET, POST, DELETE");
    const other = await api(`${USERS}/${victim.id}/application-passwords`, {
      headers: headersOf("author"),
    });
    expect(other.headers.get("allow") ?? "").toBe("");
  });
});

describe("the secret", () => {
  it("is shown once, and stored only as the SHA-256 digest of the password without spaces", async () => {
    const me = await seedUser("author", "jane");
    const created = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "once" },
    });
    const password: string = created.body.password;
    const plain = password.replace(/ /g, "");

    const [row] = await db()
      .select()
      .from(schema.applicationPasswords)
      .where(eq(schema.applicationPasswords.uuid, created.body.uuid));
    expect(row.passwordDigest).toBe(await sha256Hex(plain));
    expect(row.passwordDigest).not.toContain(plain);
    expect(JSON.stringify(row)).not.toContain(plain);

    const later = [
      await api(`${USERS}/me/application-passwords`, { headers: me.headers }),
      await api(`${USERS}/me/application-passwords/${created.body.uuid}`, { headers: me.headers }),
      await api(`${USERS}/me`, { headers: me.headers }),
      await api(`${USERS}/me/application-passwords/${created.body.uuid}`, {
        method: "DELETE",
        headers: me.headers,
      }),
    ];
    for (const res of later) {
      expect(res.text).not.toContain(plain);
      expect(res.text).not.toContain(password);
      expect(res.text).not.toContain(row.passwordDigest);
      expect(res.text).not.toMatch(/"password"|digest/i);
    }
  });

  it("differs for every password issued", async () => {
    const me = await seedUser("author");
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      seen.add(
        (
          await api(`${USERS}/me/application-passwords`, {
            headers: me.headers,
            json: { name: `n${i}` },
          })
        ).body.password,
      );
    }
    expect(seen.size).toBe(5);
  });

  it("signs in only as its owner: another username with it is refused", async () => {
    const me = await seedUser("author", "jane");
    await seedUser("administrator", "boss");
    const { body } = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "x" },
    });
    const res = await api(`${USERS}/me`, {
      headers: { authorization: `Basic ${btoa(`boss:${body.password}`)}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("incorrect_password");
  });

  it("goes with its user", async () => {
    const leaving = await seedUser("author", "leaving");
    const { body } = await api(`${USERS}/me/application-passwords`, {
      headers: leaving.headers,
      json: { name: "x" },
    });
    const admin = await seedUser("administrator", "boss");
    await api(`${USERS}/${leaving.id}?force=true&reassign=${admin.id}`, {
      method: "DELETE",
      headers: admin.headers,
    });
    expect(
      (await api(`${USERS}/me`, { headers: { authorization: `Bearer ${body.password}` } })).status,
    ).toBe(401);
  });
});
