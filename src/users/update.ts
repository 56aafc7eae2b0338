/**
 * `POST|PUT|PATCH /users/{id}` and `/users/me` (contract §3, WordPress
 * `WP_REST_Users_Controller::update_item`, `update_item_permissions_check`, `check_role_update`).
 */
import { eq, sql } from "drizzle-orm";
import { can } from "../access/capabilities";
import { runBatch } from "../db/batch";
import { users } from "../db/schema";
import { withWriteRetry } from "../db/write";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { passwordDigest } from "../http/crypto";
import { ApiError } from "../http/errors";
import { assertAllowed, selfOr, targetUserId } from "./access";
import { UPDATE_ARGS } from "./args";
import { requestSession } from "./cookie-auth";
import { serializeUser, USER_COLUMNS } from "./serialize";
import { endSessionsOf } from "./session";

/** The first administrator authenticates with `ADMIN_APP_PASSWORD` and always stays administrator. */
const FIRST_ADMIN = 1;

/**
 * Handles a user update. The user themself may change `name`, `email`, `password` and `slug`;
 * `edit_users`/`promote_users` (administrators) may also change `roles`, for anyone. Only the
 * fields sent change; `name: ""` falls back to the username as in WordPress. Answers 200 with the
 * user.
 * @throws ApiError 400 `rest_invalid_param`; 401/403 `rest_forbidden`; 401 `rest_not_logged_in`
 *   (`me` without credentials); 403 `rest_cannot_edit_roles` (`roles` without `promote_users`);
 *   404 `rest_user_invalid_id`; 400 `rest_user_invalid_argument` (another username: usernames are
 *   not editable); 400 `rest_user_invalid_email` (email of another user); 400
 *   `rest_user_invalid_slug` (slug of another user); 403 `rest_user_invalid_role` (an administrator
 *   taking away their own or the first administrator's role).
 */
export async function updateUser(c: AppContext): Promise<Response> {
  const { values: a, sent } = parseArgs(UPDATE_ARGS, await requestParams(c), argContext(c));
  const id = targetUserId(c);
  const user = c.get("user");
  assertAllowed(c, selfOr("edit_users"), id);
  if (a.roles !== undefined && !can(user, "promote_users"))
    throw new ApiError(403, "rest_cannot_edit_roles");

  const digest = a.password !== undefined ? await passwordDigest(a.password) : undefined;
  const { db } = c.get("rdb");

  const updated = await withWriteRetry(async () => {
    const { targets, emailOwners, slugOwners } = await runBatch(db, {
      targets: db.select(USER_COLUMNS(users)).from(users).where(eq(users.id, id)),
      emailOwners: db
        .select({ id: users.id })
        .from(users)
        .where(
          sql`lower(${users.email}) = ${a.email?.toLowerCase() ?? null} AND ${users.id} <> ${id}`,
        ),
      slugOwners: db
        .select({ id: users.id })
        .from(users)
        .where(sql`${users.slug} = ${a.slug ?? null} AND ${users.id} <> ${id}`),
    });
    const target = targets[0];
    if (!target) throw new ApiError(404, "rest_user_invalid_id");
    if (sent.has("username") && a.username !== target.username)
      throw new ApiError(400, "rest_user_invalid_argument");
    if (emailOwners.length) throw new ApiError(400, "rest_user_invalid_email");
    if (slugOwners.length) throw new ApiError(400, "rest_user_invalid_slug");
    if (
      a.roles !== undefined &&
      a.roles !== "administrator" &&
      (id === user?.id || id === FIRST_ADMIN)
    ) {
      throw new ApiError(403, "rest_user_invalid_role", [], {}, "rest_user_cannot_give_role");
    }

    const changes: Partial<typeof users.$inferInsert> = {};
    if (a.name !== undefined) changes.name = a.name || target.username;
    if (a.email !== undefined) changes.email = a.email;
    if (a.slug !== undefined) changes.slug = a.slug;
    if (a.roles !== undefined) changes.role = a.roles;
    if (digest !== undefined) changes.passwordDigest = digest;
    if (Object.keys(changes).length === 0) return target;

    const { rows } = await runBatch(db, {
      rows: db.update(users).set(changes).where(eq(users.id, id)).returning(USER_COLUMNS(users)),
      // A new password ends the user's other browser sessions, as in WordPress (contract §3.1).
      ended: digest === undefined ? undefined : endSessionsOf(db, id, requestSession(c)),
    });
    return rows[0];
  });

  return c.json(serializeUser(updated));
}
