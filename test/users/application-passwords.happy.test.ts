/**
 * `wp/v2/users/{id}/application-passwords` (contract §3): create one, use it every way a WordPress
 * client does, list it, revoke it.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api } from "../support/api";
import { seedUser } from "../support/factories";

const USERS = "/wp-json/wp/v2/users";
const basic = (user: string, password: string) => ({
  authorization: `Basic ${btoa(`${user}:${password}`)}`,
});

describe("POST /users/{id}/application-passwords", () => {
  it("answers 201 with the item and the password, once, in groups of four", async () => {
    const me = await seedUser("author", "jane");
    const res = await api(`${USERS}/${me.id}/application-passwords`, {
      headers: me.headers,
      json: { name: "Phone app" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      app_id: "",
      name: "Phone app",
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      last_used: null,
      last_ip: null,
      password: expect.stringMatching(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/),
    });
    expect(res.headers.get("location")).toBe(
      `http://calendar.test${USERS}/${me.id}/application-passwords/${res.body.uuid}`,
    );
    const created = Date.parse(`${res.body.created}Z`);
    expect(Math.abs(created - Date.now())).toBeLessThan(5 * 60_000);
  });

  it("keeps an app_id and a name stripped of markup", async () => {
    const me = await seedUser("subscriber");
    const appId = "8B1D3C52-4F3E-4D6B-9E7A-2C1B0A9F8E7D";
    const res = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "  <b>CLI</b> tool ", app_id: appId },
    });
    expect(res.body).toMatchObject({ name: "CLI tool", app_id: appId.toLowerCase() });
  });

  it("gives a password that authenticates as Basic with or without spaces, with the email, and as Bearer", async () => {
    const me = await seedUser("editor", "jane");
    const { body } = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "Site build" },
    });
    const spaced: string = body.password;
    const plain = spaced.replace(/ /g, "");
    for (const headers of [
      basic("jane", spaced),
      basic("jane", plain),
      basic("JANE", plain),
      basic("jane@example.com", spaced),
      { authorization: `Bearer ${spaced}` },
      { authorization: `Bearer ${plain}` },
    ]) {
      const res = await api(`${USERS}/me`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.body).toMatchObject({ id: me.id, roles: ["editor"] });
    }
  });

  it("lets the first administrator, signed in with the secret, create passwords of their own", async () => {
    const { body } = await api(`${USERS}/me/application-passwords`, {
      headers: ADMIN,
      json: { name: "Deploy" },
    });
    const res = await api(`${USERS}/me`, { headers: basic("admin", body.password) });
    expect(res.body).toMatchObject({ id: 1, roles: ["administrator"] });
  });

  it("lets an administrator create a password for another user, which signs in as that user", async () => {
    const author = await seedUser("author", "jane");
    const { body } = await api(`${USERS}/${author.id}/application-passwords`, {
      headers: ADMIN,
      json: { name: "Migration" },
    });
    expect((await api(`${USERS}/me`, { headers: basic("jane", body.password) })).body.id).toBe(
      author.id,
    );
  });
});

describe("GET /users/{id}/application-passwords", () => {
  it("lists the user's passwords, oldest first, without the secrets", async () => {
    const me = await seedUser("author", "jane");
    const first = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "one" },
    });
    const second = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "two" },
    });
    const res = await api(`${USERS}/${me.id}/application-passwords`, { headers: me.headers });
    expect(res.status).toBe(200);
    const names = res.body.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(["test", "one", "two"]));
    const mine = res.body.find((p: { uuid: string }) => p.uuid === second.body.uuid);
    const { password: _secret, ...public2 } = second.body;
    expect(mine).toEqual(public2);
    expect(res.text).not.toContain(first.body.password);
    expect(res.text).not.toContain(second.body.password);
    expect((await api(`${USERS}/me/application-passwords`, { headers: me.headers })).body).toEqual(
      res.body,
    );
  });

  it("shows one by uuid", async () => {
    const me = await seedUser("author");
    const { body } = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "one" },
    });
    const res = await api(`${USERS}/${me.id}/application-passwords/${body.uuid}`, {
      headers: me.headers,
    });
    const { password: _secret, ...item } = body;
    expect(res.body).toEqual(item);
  });
});

describe("DELETE /users/{id}/application-passwords/{uuid}", () => {
  it("revokes the password at once and answers what it was", async () => {
    const me = await seedUser("author", "jane");
    const { body } = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "Laptop" },
    });
    const auth = basic("jane", body.password);
    expect((await api(`${USERS}/me`, { headers: auth })).status).toBe(200);

    const res = await api(`${USERS}/${me.id}/application-passwords/${body.uuid}`, {
      method: "DELETE",
      headers: auth,
    });
    expect(res.status).toBe(200);
    const { password: _secret, ...previous } = body;
    expect(res.body).toEqual({ deleted: true, previous });

    for (const headers of [auth, { authorization: `Bearer ${body.password}` }]) {
      const after = await api(`${USERS}/me`, { headers });
      expect(after.status).toBe(401);
      expect(after.body.code).toBe("incorrect_password");
    }
    // The user's other passwords keep working.
    expect((await api(`${USERS}/me`, { headers: me.headers })).status).toBe(200);
  });

  it("revokes all of a user's passwords with DELETE on the collection, as WordPress does", async () => {
    const me = await seedUser("author", "june");
    const other = await seedUser("author", "otto");
    const made = [];
    for (const name of ["Phone", "Tablet"])
      made.push(
        (await api(`${USERS}/me/application-passwords`, { headers: me.headers, json: { name } }))
          .body,
      );
    const res = await api(`${USERS}/me/application-passwords`, {
      method: "DELETE",
      headers: basic("june", made[0].password),
    });
    expect(res.status).toBe(200);
    // `seedUser`'s own password is one of the user's too.
    expect(res.body).toEqual({ deleted: true, count: 3 });
    for (const { password } of made)
      expect((await api(`${USERS}/me`, { headers: basic("june", password) })).status).toBe(401);
    // Another user's stay, and an administrator empties anyone's (a second time: none left).
    expect((await api(`${USERS}/me`, { headers: other.headers })).status).toBe(200);
    const again = await api(`${USERS}/${me.id}/application-passwords`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(again.body).toEqual({ deleted: true, count: 0 });
  });

  it("works through `me` and for administrators on anyone", async () => {
    const me = await seedUser("subscriber");
    const a = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "a" },
    });
    const b = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "b" },
    });
    expect(
      (
        await api(`${USERS}/me/application-passwords/${a.body.uuid}`, {
          method: "DELETE",
          headers: me.headers,
        })
      ).body.deleted,
    ).toBe(true);
    expect(
      (
        await api(`${USERS}/${me.id}/application-passwords/${b.body.uuid}`, {
          method: "DELETE",
          headers: ADMIN,
        })
      ).body.deleted,
    ).toBe(true);
    const left = await api(`${USERS}/me/application-passwords`, { headers: me.headers });
    expect(left.body.map((p: { name: string }) => p.name)).toEqual(["test"]);
  });
});
