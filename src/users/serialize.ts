/**
 * The contracts of the `wp/v2` user resources (contract §3): the user object and the application
 * password object, each field once (its `/doc` schema, its column or how it is read, the argument
 * that writes it), and the `/doc` components, serializers and create arguments derived from them.
 * No digest ever leaves through these; the one-time application password is added by its create
 * handler only.
 */
import * as v from "valibot";
import type { applicationPasswords, users } from "../db/schema";
import { arg } from "../http/args";
import { argSpecs, readMapping, type WireField, wireSchema } from "../http/contract";
import { d, int, str } from "../http/schema-kit";
import {
  appId,
  applicationName,
  displayName,
  email,
  password,
  roles,
  slug,
  username,
} from "./validators";

export type UserRow = typeof users.$inferSelect;
export type ApplicationPasswordRow = typeof applicationPasswords.$inferSelect;

/** Columns the user object needs (never the password digest). */
export const USER_COLUMNS = (t: typeof users) => ({
  id: t.id,
  username: t.username,
  name: t.name,
  email: t.email,
  slug: t.slug,
  role: t.role,
});

/** Selected user fields. */
export type UserFields = Pick<UserRow, "id" | "username" | "name" | "email" | "slug" | "role">;

/** `Y-m-d H:i:s` (UTC) → `Y-m-d` + `T` + `H:i:s`, as WordPress prints `created`. */
export const rfc3339 = (mysql: string) => mysql.replace(" ", "T");

/** A text argument of a user field (description `users.{field}`). */
const userArg = <T>(field: string, schema: v.GenericSchema<unknown, T>) =>
  arg({ schema, type: "string", description: `users.${field}` });
/** The same, required on create. */
const requiredUserArg = <T>(field: string, schema: v.GenericSchema<unknown, T>) =>
  arg({ schema, required: true, type: "string", description: `users.${field}` });

/**
 * A user's wire fields as `wp/v2/users` answers (WordPress `context=edit` fields kept by the
 * contract), then the login password, written only (stored as a digest).
 */
export const USER_FIELDS = {
  id: { out: int("user.id"), column: "id" },
  username: {
    out: str("user.username"),
    column: "username",
    arg: requiredUserArg("username", username),
  },
  name: { out: str("user.name"), column: "name", arg: userArg("name", displayName) },
  email: { out: str("user.email"), column: "email", arg: requiredUserArg("email", email) },
  // Always exactly one role.
  roles: {
    out: d(v.array(v.string()), "user.roles"),
    read: (row: UserFields) => [row.role],
    arg: arg({
      schema: roles,
      type: "array",
      items: { type: "string" },
      maxItems: 1,
      description: "users.roles",
    }),
  },
  slug: { out: str("user.slug"), column: "slug", arg: userArg("slug", slug) },
  password: { arg: requiredUserArg("password", password) },
} satisfies Record<string, WireField<UserFields>>;

/** `POST /users` arguments, in WordPress's order. */
export const USER_CREATE_ARGS = argSpecs(USER_FIELDS, [
  "username",
  "name",
  "email",
  "password",
  "roles",
  "slug",
]);

/** A user as `wp/v2/users` answers. */
export const User = wireSchema(USER_FIELDS);
export type UserObject = v.InferOutput<typeof User>;

const readUser = readMapping(USER_FIELDS, (row: UserFields) => row);

/** `{id, username, name, email, roles, slug}`. */
export const serializeUser = (row: UserFields) => readUser(row) as UserObject;

type PublicApplicationPassword = Omit<ApplicationPasswordRow, "passwordDigest" | "userId">;

/** An application password's wire fields (never its digest); usage is not tracked: `last_*` null. */
export const APPLICATION_PASSWORD_FIELDS = {
  uuid: { out: str("application_password.uuid"), column: "uuid" },
  app_id: {
    out: str("application_password.app_id"),
    column: "appId",
    arg: arg({ schema: appId, type: "string", description: "application_passwords.app_id" }),
  },
  name: {
    out: str("application_password.name"),
    column: "name",
    arg: arg({
      schema: applicationName,
      required: true,
      type: "string",
      description: "application_passwords.name",
    }),
  },
  // UTC, `YYYY-MM-DDTHH:mm:ss` without offset (WordPress `mysql_to_rfc3339`).
  created: {
    out: str("application_password.created"),
    read: (row: PublicApplicationPassword) => rfc3339(row.created),
  },
  last_used: { out: d(v.null(), "application_password.last_used"), read: () => null },
  last_ip: { out: d(v.null(), "application_password.last_ip"), read: () => null },
} satisfies Record<string, WireField<PublicApplicationPassword>>;

/** `POST /users/{id}/application-passwords` arguments, in WordPress's order. */
export const APPLICATION_PASSWORD_CREATE_ARGS = argSpecs(APPLICATION_PASSWORD_FIELDS, [
  "name",
  "app_id",
]);

/** An application password (never its secret). */
export const ApplicationPassword = wireSchema(APPLICATION_PASSWORD_FIELDS);
export type ApplicationPasswordObject = v.InferOutput<typeof ApplicationPassword>;

/** The answer to its creation: the one time the password itself is sent. */
export const NewApplicationPassword = v.strictObject({
  ...ApplicationPassword.entries,
  password: str("application_password.password"),
});

const readApplicationPassword = readMapping(
  APPLICATION_PASSWORD_FIELDS,
  (row: PublicApplicationPassword) => row,
);

/** `{uuid, app_id, name, created, last_used, last_ip}`. */
export const serializeApplicationPassword = (row: PublicApplicationPassword) =>
  readApplicationPassword(row) as ApplicationPasswordObject;
