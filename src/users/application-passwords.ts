/**
 * `/users/{id|me}/application-passwords` (contract §3, WordPress
 * `WP_REST_Application_Passwords_Controller` and `WP_Application_Passwords`): list, create (the
 * password is shown once), read and revoke. Only the SHA-256 digest of a password is stored; who
 * may touch them is the user themself or an `edit_users` holder (WordPress maps
 * `*_app_password(s)` to `edit_user`).
 */
import { and, asc, eq } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { applicationPasswords, users } from "../db/schema";
import { withWriteRetry } from "../db/write";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { chunkPassword, randomPassword, sha256Hex } from "../http/crypto";
import { ApiError } from "../http/errors";
import { WP_FORMAT } from "../time/format";
import { assertAllowed, selfOr, targetUserId } from "./access";
import { APP_PASSWORD_CREATE_ARGS } from "./args";
import { plainText } from "./fields";
import { type ApplicationPasswordRow, serializeApplicationPassword } from "./serialize";

/** Everyone may manage their own application passwords; administrators anyone's. */
export const MANAGE_APP_PASSWORDS = selfOr("edit_users");

/** Columns of an application password except its digest. */
const PUBLIC_COLUMNS = {
  uuid: applicationPasswords.uuid,
  appId: applicationPasswords.appId,
  name: applicationPasswords.name,
  created: applicationPasswords.created,
};
type PublicRow = Omit<ApplicationPasswordRow, "passwordDigest" | "userId">;

const notFound = () => new ApiError(404, "rest_application_password_not_found");

/**
 * Resolves and authorizes the target user, then loads whether it exists and the given passwords
 * (all of the user's, or the one `uuid`) in one batch.
 * @throws ApiError 401 `rest_not_logged_in`, 401/403 `rest_forbidden`, 404 `rest_user_invalid_id`.
 */
async function load(
  c: AppContext,
  uuid?: string,
): Promise<{ db: Db; userId: number; rows: PublicRow[] }> {
  const userId = targetUserId(c);
  assertAllowed(c, MANAGE_APP_PASSWORDS, userId);
  const { db } = c.get("rdb");
  const mine = eq(applicationPasswords.userId, userId);
  const { found, rows } = await runBatch(db, {
    found: db.select({ id: users.id }).from(users).where(eq(users.id, userId)),
    rows: db
      .select(PUBLIC_COLUMNS)
      .from(applicationPasswords)
      .where(
        uuid === undefined ? mine : and(mine, eq(applicationPasswords.uuid, uuid.toLowerCase())),
      )
      .orderBy(asc(applicationPasswords.created), asc(applicationPasswords.uuid)),
  });
  if (!found.length) throw new ApiError(404, "rest_user_invalid_id");
  return { db, userId, rows };
}

/**
 * Issues a new application password of `userId` (WordPress's
 * `WP_Application_Passwords::create_new_application_password`): stores its digest, returns the
 * item and the password in clear (24 characters, the only time it exists outside the client).
 * `existing` are the user's passwords (for the duplicate-name check); `name` is already plain text.
 * @throws ApiError 400 `application_password_empty_name`; 409 `application_password_duplicate_name`.
 */
export async function issueApplicationPassword(
  db: Db,
  userId: number,
  existing: ReadonlyArray<{ name: string }>,
  name: string,
  appId: string | undefined,
  created: string,
): Promise<{ item: PublicRow; password: string }> {
  if (name === "") throw new ApiError(400, "application_password_empty_name");
  if (existing.some((row) => row.name.toLowerCase() === name.toLowerCase())) {
    throw new ApiError(409, "application_password_duplicate_name");
  }
  const password = randomPassword();
  const item: PublicRow = { uuid: crypto.randomUUID(), appId: appId ?? "", name, created };
  await db.batch([
    db
      .insert(applicationPasswords)
      .values({ ...item, userId, passwordDigest: await sha256Hex(password) }),
  ]);
  return { item, password };
}

/** The names of a user's application passwords (for `issueApplicationPassword`). */
export const applicationPasswordNames = (db: Db, userId: number) =>
  db
    .select({ name: applicationPasswords.name })
    .from(applicationPasswords)
    .where(eq(applicationPasswords.userId, userId));

/**
 * Handles `GET /users/{id}/application-passwords`: `[{uuid, app_id, name, created, last_used,
 * last_ip}]`, oldest first.
 * @throws ApiError see `load`.
 */
export async function listApplicationPasswords(c: AppContext): Promise<Response> {
  const { rows } = await load(c);
  return c.json(rows.map(serializeApplicationPassword));
}

/**
 * Handles `POST /users/{id}/application-passwords` with `{name, app_id?}`: 201 with the new item plus
 * `password`, 24 characters shown once in groups of four (spaces are ignored when it is used).
 * @throws ApiError 400 `rest_missing_callback_param` / `rest_invalid_param`; see `load`; 400
 *   `application_password_empty_name` (nothing left of the name once tags are removed); 409
 *   `application_password_duplicate_name` (the user already has one of that name, any case).
 */
export async function createApplicationPassword(c: AppContext): Promise<Response> {
  const { values: a } = parseArgs(APP_PASSWORD_CREATE_ARGS, await requestParams(c), argContext(c));
  const name = plainText(a.name);
  const created = requestNow(c).toUTC().toFormat(WP_FORMAT);

  const result = await withWriteRetry(async () => {
    const { db, userId, rows } = await load(c);
    return {
      userId,
      ...(await issueApplicationPassword(db, userId, rows, name, a.app_id, created)),
    };
  });

  c.header(
    "Location",
    `${c.get("urls").wpRoot}users/${result.userId}/application-passwords/${result.item.uuid}`,
  );
  return c.json(
    { ...serializeApplicationPassword(result.item), password: chunkPassword(result.password) },
    201,
  );
}

/**
 * Handles `GET /users/{id}/application-passwords/{uuid}`.
 * @throws ApiError see `load`; 404 `rest_application_password_not_found`.
 */
export async function getApplicationPassword(c: AppContext): Promise<Response> {
  const { rows } = await load(c, c.req.param("uuid"));
  if (!rows[0]) throw notFound();
  return c.json(serializeApplicationPassword(rows[0]));
}

/**
 * Handles `DELETE /users/{id}/application-passwords/{uuid}`: revokes it at once (the next request
 * with it gets 401 `incorrect_password`); answers `{deleted: true, previous: {...}}`.
 * @throws ApiError see `load`; 404 `rest_application_password_not_found`.
 */
export async function deleteApplicationPassword(c: AppContext): Promise<Response> {
  const { db, userId, rows } = await load(c, c.req.param("uuid"));
  const previous = rows[0];
  if (!previous) throw notFound();
  await db.batch([
    db
      .delete(applicationPasswords)
      .where(
        and(eq(applicationPasswords.userId, userId), eq(applicationPasswords.uuid, previous.uuid)),
      ),
  ]);
  return c.json({ deleted: true, previous: serializeApplicationPassword(previous) });
}

/**
 * Handles `DELETE /users/{id}/application-passwords` (WordPress's `delete_items`): revokes every
 * application password of the user at once; answers `{deleted: true, count}` (how many there were).
 * @throws ApiError see `load`.
 */
export async function deleteAllApplicationPasswords(c: AppContext): Promise<Response> {
  const { db, userId, rows } = await load(c);
  if (rows.length)
    await db.batch([
      db.delete(applicationPasswords).where(eq(applicationPasswords.userId, userId)),
    ]);
  return c.json({ deleted: true, count: rows.length });
}
