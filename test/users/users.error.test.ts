/**
 * `wp/v2/users` errors (contract §3): every code the user routes emit, in the WordPress envelope,
 * and nothing changes when a request fails.
 */
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { ADMIN, api } from "../support/api";
import { expectError } from "../support/errors";
import { db, seedUser } from "../support/factories";

const USERS = "/wp-json/wp/v2/users";
const valid = { username: "newbie", email: "newbie@example.org", password: "secret" };

const userCount = async () => (await db().select({ n: count() }).from(schema.users))[0].n;

describe("rest_not_logged_in", () => {
  it("answers `me` without credentials with 401", async () => {
    expectError(
      await api(`${USERS}/me`),
      401,
      "rest_not_logged_in",
      "You are not currently logged in.",
    );
    expectError(
      await api(`${USERS}/me`, { method: "PUT", json: { name: "x" } }),
      401,
      "rest_not_logged_in",
    );
  });

  it("speaks German under /de", async () => {
    expectError(
      await api(`/de${USERS}/me`),
      401,
      "rest_not_logged_in",
      "Du bist derzeit nicht angemeldet.",
    );
  });
});

describe("rest_missing_callback_param", () => {
  it("names every missing required field of a create, before the permission check", async () => {
    const res = await api(USERS, { json: { username: "x" } });
    expectError(res, 400, "rest_missing_callback_param", "Missing parameter(s): email, password");
    expect(res.body.data.params).toEqual(["email", "password"]);
  });

  it("requires `reassign` on delete", async () => {
    const user = await seedUser("author");
    const res = await api(`${USERS}/${user.id}?force=true`, { method: "DELETE", headers: ADMIN });
    expectError(res, 400, "rest_missing_callback_param");
    expect(res.body.data.params).toEqual(["reassign"]);
  });
});

describe("rest_invalid_param", () => {
  const cases: Array<[string, Record<string, unknown>, string, string?]> = [
    ["an email WordPress would refuse", { email: "not-an-email" }, "email"],
    ["an email without a dot in the domain", { email: "jane@localhost" }, "email"],
    ["a username with characters WordPress strips", { username: "jäne" }, "username"],
    ["a username with a leading space", { username: " jane" }, "username"],
    ["a username longer than 60 characters", { username: "a".repeat(61) }, "username"],
    ["an empty password", { password: "" }, "password"],
    ["a password with a backslash", { password: "a\\b" }, "password"],
    [
      "a password that is not a string",
      { password: 12345 },
      "password",
      "password is not of type string.",
    ],
    [
      "an unknown role",
      { roles: ["superuser"] },
      "roles",
      "roles is not one of administrator, editor, author, contributor, subscriber.",
    ],
    ["two roles", { roles: "editor,author" }, "roles"],
    ["a slug with nothing usable", { slug: "!!!" }, "slug"],
  ];
  for (const [what, body, param, message] of cases) {
    it(`rejects ${what}`, async () => {
      const before = await userCount();
      const res = await api(USERS, { headers: ADMIN, json: { ...valid, ...body } });
      expectError(res, 400, "rest_invalid_param", `Invalid parameter(s): ${param}`);
      expect(Object.keys(res.body.data.params)).toEqual([param]);
      if (message) expect(res.body.data.params[param]).toBe(message);
      expect(await userCount()).toBe(before);
    });
  }

  it("rejects bad paging", async () => {
    for (const q of ["per_page=101", "per_page=0", "page=0", "page=x"]) {
      expectError(await api(`${USERS}?${q}`, { headers: ADMIN }), 400, "rest_invalid_param");
    }
  });

  it("rejects a `reassign` that is not an integer and a role sent on update", async () => {
    const user = await seedUser("author");
    const res = await api(`${USERS}/${user.id}?force=true&reassign=someone`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expectError(res, 400, "rest_invalid_param");
    expect(res.body.data.params.reassign).toBe("reassign is not of type integer.");
    expectError(
      await api(`${USERS}/${user.id}`, { headers: ADMIN, json: { roles: "king" } }),
      400,
      "rest_invalid_param",
    );
  });
});

describe("existing_user_login and existing_user_email", () => {
  it("refuses a username that exists in any case", async () => {
    await seedUser("author", "jane");
    const before = await userCount();
    expectError(
      await api(USERS, { headers: ADMIN, json: { ...valid, username: "JANE" } }),
      400,
      "existing_user_login",
      "Sorry, that username already exists!",
    );
    expect(await userCount()).toBe(before);
  });

  it("refuses an email address in use", async () => {
    await seedUser("author", "jane");
    expectError(
      await api(USERS, { headers: ADMIN, json: { ...valid, email: "Jane@Example.com" } }),
      400,
      "existing_user_email",
      "Sorry, that email address is already used!",
    );
  });
});

describe("rest_user_invalid_id", () => {
  it("answers 404 for a user that does not exist, to those who may look", async () => {
    expectError(
      await api(`${USERS}/999`, { headers: ADMIN }),
      404,
      "rest_user_invalid_id",
      "Invalid user ID.",
    );
    expectError(await api(`${USERS}/0`, { headers: ADMIN }), 404, "rest_user_invalid_id");
    expectError(
      await api(`${USERS}/999`, { method: "PUT", headers: ADMIN, json: { name: "x" } }),
      404,
      "rest_user_invalid_id",
    );
    expectError(
      await api(`${USERS}/999?force=true&reassign=1`, { method: "DELETE", headers: ADMIN }),
      404,
      "rest_user_invalid_id",
    );
  });
});

describe("update conflicts", () => {
  it("rest_user_invalid_argument: usernames cannot change", async () => {
    const me = await seedUser("author", "jane");
    expectError(
      await api(`${USERS}/${me.id}`, { headers: ADMIN, json: { username: "janet" } }),
      400,
      "rest_user_invalid_argument",
      "Username is not editable.",
    );
  });

  it("rest_user_invalid_email: another user's email", async () => {
    const me = await seedUser("author", "jane");
    await seedUser("editor", "eve");
    expectError(
      await api(`${USERS}/${me.id}`, { headers: me.headers, json: { email: "EVE@example.com" } }),
      400,
      "rest_user_invalid_email",
      "Invalid email address.",
    );
    // Their own address, in another case, is fine.
    expect(
      (await api(`${USERS}/${me.id}`, { headers: me.headers, json: { email: "Jane@example.com" } }))
        .status,
    ).toBe(200);
  });

  it("rest_user_invalid_slug: another user's slug", async () => {
    const me = await seedUser("author", "jane");
    await seedUser("editor", "eve");
    expectError(
      await api(`${USERS}/${me.id}`, { headers: me.headers, json: { slug: "eve" } }),
      400,
      "rest_user_invalid_slug",
      "Invalid slug.",
    );
  });

  it("rest_cannot_edit_roles: only administrators assign roles, even the current one", async () => {
    const me = await seedUser("editor");
    const res = await api(`${USERS}/${me.id}`, {
      headers: me.headers,
      json: { roles: ["editor"] },
    });
    expectError(
      res,
      403,
      "rest_cannot_edit_roles",
      "Sorry, you are not allowed to edit roles of this user.",
    );
  });

  it("rest_user_invalid_role: administrators cannot demote themselves or the first administrator", async () => {
    const boss = await seedUser("administrator", "boss");
    expectError(
      await api(`${USERS}/me`, { headers: boss.headers, json: { roles: "editor" } }),
      403,
      "rest_user_invalid_role",
      "Sorry, you are not allowed to give users that role.",
    );
    expectError(
      await api(`${USERS}/1`, { headers: boss.headers, json: { roles: "subscriber" } }),
      403,
      "rest_user_invalid_role",
    );
    expect((await api(`${USERS}/me`, { headers: boss.headers })).body.roles).toEqual([
      "administrator",
    ]);
  });
});

describe("delete refusals", () => {
  it("rest_trash_not_supported without force", async () => {
    const user = await seedUser("author");
    for (const q of ["", "&force=false"]) {
      expectError(
        await api(`${USERS}/${user.id}?reassign=1${q}`, { method: "DELETE", headers: ADMIN }),
        501,
        "rest_trash_not_supported",
      );
    }
    expect((await api(`${USERS}/${user.id}`, { headers: ADMIN })).status).toBe(200);
  });

  it("rest_user_invalid_reassign for the user itself or a missing user", async () => {
    const user = await seedUser("author");
    for (const reassign of [user.id, 999, 0]) {
      const res = await api(`${USERS}/${user.id}?force=true&reassign=${reassign}`, {
        method: "DELETE",
        headers: ADMIN,
      });
      expectError(res, 400, "rest_user_invalid_reassign", "Invalid user ID for reassignment.");
    }
  });

  it("rest_cannot_delete_admin for user 1", async () => {
    const boss = await seedUser("administrator", "boss");
    expectError(
      await api(`${USERS}/1?force=true&reassign=${boss.id}`, {
        method: "DELETE",
        headers: boss.headers,
      }),
      400,
      "rest_cannot_delete_admin",
    );
    expectError(
      await api(`${USERS}/1?force=true&reassign=${boss.id}`, { method: "DELETE", headers: ADMIN }),
      400,
      "rest_cannot_delete_admin",
    );
  });

  it("rest_cannot_delete_self", async () => {
    const boss = await seedUser("administrator", "boss");
    expectError(
      await api(`${USERS}/${boss.id}?force=true&reassign=1`, {
        method: "DELETE",
        headers: boss.headers,
      }),
      400,
      "rest_cannot_delete_self",
    );
  });
});

describe("requests that do not reach a handler", () => {
  it("rest_no_route for ids that are not numbers", async () => {
    expectError(await api(`${USERS}/jane`, { headers: ADMIN }), 404, "rest_no_route");
    expectError(
      await api(`${USERS}/me`, { method: "DELETE", headers: ADMIN }),
      404,
      "rest_no_route",
    );
  });

  it("rest_invalid_json for a malformed body", async () => {
    const res = await api(USERS, {
      headers: { ...ADMIN, "content-type": "application/json" },
      body: "{nope",
    });
    expectError(res, 400, "rest_invalid_json");
  });

  it("incorrect_password for bad credentials, the same for an unknown user", async () => {
    await seedUser("author", "jane");
    const wrong = await api(`${USERS}/me`, {
      headers: { authorization: `Basic ${btoa("jane:wrong password")}` },
    });
    const unknown = await api(`${USERS}/me`, {
      headers: { authorization: `Basic ${btoa("nobody:wrong password")}` },
    });
    expectError(wrong, 401, "incorrect_password");
    expect(unknown.body).toEqual(wrong.body);
  });
});
