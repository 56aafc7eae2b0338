/**
 * Arguments of the `wp/v2` user and application-password routes (contract §3), declared once as
 * WordPress declares them in `WP_REST_Users_Controller` and `WP_REST_Application_Passwords_Controller`:
 * the same specs validate requests and document the routes.
 */
import * as v from "valibot";
import { ROLES, type Role } from "../db/schema";
import { arg, issue, optionalArg } from "../http/args";
import { pageArgs, searchArg } from "../http/list-args";
import { idFormat, listToArray, wpBoolean, wpInteger, wpString } from "../http/validators";
import { isRole, isValidEmail, isValidUsername, plainText, sanitizeUserSlug } from "./fields";

const INVALID = issue("invalid");
const isString = (x: unknown): x is string => typeof x === "string";

/** WordPress's largest `per_page` for users. */
export const USERS_PER_PAGE_MAX = 100;

/** `username`: a valid WordPress login (`validate_username`). */
const username = v.pipe(wpString, v.check(isValidUsername, INVALID));

/** `email`: WordPress `is_email`. */
const email = v.pipe(wpString, v.check(isValidEmail, INVALID));

/** `password` (login password): non-empty, no backslash (WordPress `check_user_password`), sane length. */
const password = v.pipe(
  wpString,
  v.check((x) => x !== "" && !x.includes("\\") && x.length <= 4096, INVALID),
);

/** `name` (display name): plain text, at most 250 characters. */
const displayName = v.pipe(
  wpString,
  v.transform(plainText),
  v.check((x) => x.length <= 250, INVALID),
);

/** `slug` (`user_nicename`): sanitized like a post slug; must leave something. */
const slug = v.pipe(
  wpString,
  v.transform(sanitizeUserSlug),
  v.check((x) => x !== "", INVALID),
);

/**
 * `roles`: an array or comma list naming one of the five roles (users here have exactly one); an
 * empty list means "not given".
 */
const roles = v.pipe(
  v.unknown(),
  v.transform((x) => [...new Set(listToArray(x))]),
  v.check((list) => list.every(isRole), issue("not_in_enum", ROLES.join(", "))),
  v.check((list) => list.length <= 1, INVALID),
  v.transform((list) => list[0] as Role | undefined),
);

/** `GET /users`. */
export const LIST_ARGS = {
  ...pageArgs("users", { perPage: 10, max: USERS_PER_PAGE_MAX }),
  ...searchArg("users", wpString),
};

/** Path `id` of `/users/{id}` (the route admits digits only). */
const ID = arg({ schema: idFormat, type: "integer", in: "path", description: "users.id" });

/** `GET /users/{id}`. */
export const SINGLE_ARGS = { id: ID };

/** `POST /users`. */
export const CREATE_ARGS = {
  username: arg({
    schema: username,
    required: true,
    type: "string",
    description: "users.username",
  }),
  name: arg({ schema: displayName, type: "string", description: "users.name" }),
  email: arg({ schema: email, required: true, type: "string", description: "users.email" }),
  password: arg({
    schema: password,
    required: true,
    type: "string",
    description: "users.password",
  }),
  roles: arg({
    schema: roles,
    type: "array",
    items: { type: "string" },
    maxItems: 1,
    description: "users.roles",
  }),
  slug: arg({ schema: slug, type: "string", description: "users.slug" }),
};

/** `POST|PUT|PATCH /users/{id}` and `/users/me`: every field optional; only those sent change. */
export const UPDATE_ARGS = {
  // Absent on `/users/me`.
  id: optionalArg(ID),
  username: arg({ schema: wpString, type: "string", description: "users.username" }),
  name: arg({ schema: displayName, type: "string", description: "users.name" }),
  email: arg({ schema: email, type: "string", description: "users.email" }),
  password: arg({ schema: password, type: "string", description: "users.password" }),
  roles: arg({
    schema: roles,
    type: "array",
    items: { type: "string" },
    maxItems: 1,
    description: "users.roles",
  }),
  slug: arg({ schema: slug, type: "string", description: "users.slug" }),
};

/** `DELETE /users/{id}`: WordPress requires `reassign`; `force` must be true (users have no trash). */
export const DELETE_ARGS = {
  id: ID,
  force: arg({ schema: wpBoolean, default: false, type: "boolean", description: "users.force" }),
  reassign: arg({
    schema: wpInteger,
    required: true,
    type: "integer",
    description: "users.reassign",
  }),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `POST /users/{id}/application-passwords`. */
export const APP_PASSWORD_CREATE_ARGS = {
  name: arg({
    schema: v.pipe(
      wpString,
      v.check((x) => /\S/.test(x) && x.length <= 200, INVALID),
    ),
    required: true,
    type: "string",
    description: "application_passwords.name",
  }),
  app_id: arg({
    schema: v.pipe(
      v.unknown(),
      v.check((x) => isString(x) && UUID.test(x), INVALID),
      v.transform((x) => (x as string).toLowerCase()),
    ),
    type: "string",
    description: "application_passwords.app_id",
  }),
};
