/**
 * Application-password errors (contract §3): every code the routes emit; a failed create stores
 * nothing.
 */
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { ADMIN, api } from "../support/api";
import { expectError } from "../support/errors";
import { db, seedUser } from "../support/factories";

const USERS = "/wp-json/wp/v2/users";
const stored = async () =>
  (await db().select({ n: count() }).from(schema.applicationPasswords))[0].n;

describe("creating", () => {
  it("rest_missing_callback_param without a name", async () => {
    const me = await seedUser("author");
    const res = await api(`${USERS}/me/application-passwords`, { headers: me.headers, json: {} });
    expectError(res, 400, "rest_missing_callback_param");
    expect(res.body.data.params).toEqual(["name"]);
  });

  it("rest_invalid_param for a blank or non-string name and an app_id that is not a UUID", async () => {
    const me = await seedUser("author");
    const before = await stored();
    for (const [body, param] of [
      [{ name: "   " }, "name"],
      [{ name: 42 }, "name"],
      [{ name: "x".repeat(201) }, "name"],
      [{ name: "ok", app_id: "my-app" }, "app_id"],
      [{ name: "ok", app_id: "" }, "app_id"],
    ] as const) {
      const res = await api(`${USERS}/me/application-passwords`, {
        headers: me.headers,
        json: body,
      });
      expectError(res, 400, "rest_invalid_param", `Invalid parameter(s): ${param}`);
    }
    expect(await stored()).toBe(before);
  });

  it("application_password_empty_name when nothing but markup is left", async () => {
    const me = await seedUser("author");
    const res = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "<script></script>" },
    });
    expectError(
      res,
      400,
      "application_password_empty_name",
      "An application name is required to create an application password.",
    );
  });

  it("application_password_duplicate_name (409) for a name the user already has, in any case", async () => {
    const me = await seedUser("author");
    await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "Phone" },
    });
    const before = await stored();
    const res = await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "PHONE" },
    });
    expectError(
      res,
      409,
      "application_password_duplicate_name",
      "Each application name should be unique.",
    );
    expect(await stored()).toBe(before);
    // Another user may use the same name.
    const other = await seedUser("editor");
    expect(
      (
        await api(`${USERS}/me/application-passwords`, {
          headers: other.headers,
          json: { name: "Phone" },
        })
      ).status,
    ).toBe(201);
  });

  it("speaks German under /de", async () => {
    const me = await seedUser("author");
    await api(`${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "Phone" },
    });
    const res = await api(`/de${USERS}/me/application-passwords`, {
      headers: me.headers,
      json: { name: "Phone" },
    });
    expectError(
      res,
      409,
      "application_password_duplicate_name",
      "Jeder Anwendungsname darf nur einmal vorkommen.",
    );
  });
});

describe("rest_application_password_not_found", () => {
  it("rest_application_password_not_found for an unknown uuid", async () => {
    const me = await seedUser("author");
    for (const method of ["GET", "DELETE"]) {
      const res = await api(
        `${USERS}/me/application-passwords/00000000-0000-4000-8000-000000000000`,
        { method, headers: me.headers },
      );
      expectError(
        res,
        404,
        "rest_application_password_not_found",
        "The requested application password does not exist.",
      );
    }
  });

  it("rest_application_password_not_found for another user's uuid under your own id", async () => {
    const me = await seedUser("author");
    const other = await seedUser("editor");
    const theirs = await api(`${USERS}/me/application-passwords`, {
      headers: other.headers,
      json: { name: "x" },
    });
    const res = await api(`${USERS}/${me.id}/application-passwords/${theirs.body.uuid}`, {
      method: "DELETE",
      headers: me.headers,
    });
    expectError(res, 404, "rest_application_password_not_found");
    expect(
      (await api(`${USERS}/me`, { headers: { authorization: `Bearer ${theirs.body.password}` } }))
        .status,
    ).toBe(200);
  });

  it("rest_user_invalid_id for a user that does not exist", async () => {
    expectError(
      await api(`${USERS}/999/application-passwords`, { headers: ADMIN }),
      404,
      "rest_user_invalid_id",
    );
    expectError(
      await api(`${USERS}/999/application-passwords`, { headers: ADMIN, json: { name: "x" } }),
      404,
      "rest_user_invalid_id",
    );
    expect(await stored()).toBe(0);
  });

  it("rest_not_logged_in for `me` without credentials", async () => {
    expectError(await api(`${USERS}/me/application-passwords`), 401, "rest_not_logged_in");
    expectError(
      await api(`${USERS}/me/application-passwords`, { json: { name: "x" } }),
      401,
      "rest_not_logged_in",
    );
    expectError(
      await api(`${USERS}/me/application-passwords/abc`, { method: "DELETE" }),
      401,
      "rest_not_logged_in",
    );
  });

  it("rest_forbidden for someone else's passwords", async () => {
    const me = await seedUser("editor");
    const other = await seedUser("author");
    expectError(
      await api(`${USERS}/${other.id}/application-passwords`, { headers: me.headers }),
      403,
      "rest_forbidden",
    );
    expectError(await api(`${USERS}/${other.id}/application-passwords`), 401, "rest_forbidden");
  });

  it("incorrect_password for a password that was never issued", async () => {
    const res = await api(`${USERS}/me`, {
      headers: { authorization: "Bearer abcd efgh ijkl mnop qrst uvwx" },
    });
    expectError(res, 401, "incorrect_password");
  });
});
