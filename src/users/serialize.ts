/**
 * Wire shapes of the `wp/v2` user resources (contract §3): the user object and the application
 * password object. No digest ever leaves through these; the one-time application password is added
 * by its create handler only.
 */
import type { applicationPasswords, users } from "../db/schema";

export type UserRow = typeof users.$inferSelect;
export type ApplicationPasswordRow = typeof applicationPasswords.$inferSelect;

/** A user as `wp/v2/users` answers (WordPress `context=edit` fields kept by the contract). */
export interface UserObject {
  id: number;
  username: string;
  name: string;
  email: string;
  /** Always exactly one role. */
  roles: string[];
  slug: string;
}

/** An application password as `wp/v2/users/{id}/application-passwords` answers. */
export interface ApplicationPasswordObject {
  uuid: string;
  app_id: string;
  name: string;
  /** UTC, `YYYY-MM-DDTHH:mm:ss` without offset (WordPress `mysql_to_rfc3339`). */
  created: string;
  /** Usage is not tracked: always null. */
  last_used: null;
  last_ip: null;
}

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

/** `{id, username, name, email, roles, slug}`. */
export function serializeUser(row: UserFields): UserObject {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    roles: [row.role],
    slug: row.slug,
  };
}

/** `Y-m-d H:i:s` (UTC) → `Y-m-dTH:i:s`, as WordPress prints `created`. */
export const rfc3339 = (mysql: string) => mysql.replace(" ", "T");

/** `{uuid, app_id, name, created, last_used, last_ip}`. */
export function serializeApplicationPassword(
  row: Omit<ApplicationPasswordRow, "passwordDigest" | "userId">,
): ApplicationPasswordObject {
  return {
    uuid: row.uuid,
    app_id: row.appId,
    name: row.name,
    created: rfc3339(row.created),
    last_used: null,
    last_ip: null,
  };
}
