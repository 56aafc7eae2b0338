/**
 * `DELETE /users/{id}?force=true&reassign={id}` (contract §3, WordPress
 * `WP_REST_Users_Controller::delete_item` and `wp_delete_user`).
 */
import { eq, inArray } from "drizzle-orm";
import {
  applicationPasswords,
  events,
  media,
  organizers,
  sessions,
  users,
  venues,
} from "../db/schema";
import { postDates } from "../db/write";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError } from "../http/errors";
import { assertAllowed, holder, targetUserId } from "./access";
import { DELETE_ARGS } from "./args";
import { serializeUser, USER_COLUMNS, type UserFields } from "./serialize";

/** The first administrator (the `ADMIN_APP_PASSWORD` account) can never be deleted. */
const FIRST_ADMIN = 1;

/**
 * Handles `DELETE /users/{id}` (needs `delete_users`). Users have no trash, so `force=true` is
 * required. Every event, venue, organizer and media item of the user passes to `reassign` (its
 * change time set to now, so `modified_after` syncs see the new author), the user's
 * application passwords and browser sessions go, and the user row goes, all in one batch. Answers
 * `{deleted: true, previous: <user>}`.
 * @throws ApiError 400 `rest_missing_callback_param` (no `reassign`) / `rest_invalid_param`;
 *   401/403 `rest_forbidden`; 404 `rest_user_invalid_id`; 501 `rest_trash_not_supported` (no
 *   `force`); 400 `rest_cannot_delete_admin` (user 1); 400 `rest_cannot_delete_self`; 400
 *   `rest_user_invalid_reassign` (`reassign` is the user itself or no user).
 */
export async function deleteUser(c: AppContext): Promise<Response> {
  const { values: a } = parseArgs(DELETE_ARGS, await requestParams(c), argContext(c));
  const id = targetUserId(c);
  assertAllowed(c, holder("delete_users"), id);
  const reassign = a.reassign;
  const { db } = c.get("rdb");

  const found = (await db
    .select(USER_COLUMNS(users))
    .from(users)
    .where(inArray(users.id, [id, Number.isSafeInteger(reassign) ? reassign : 0]))) as UserFields[];
  const target = found.find((u) => u.id === id);
  if (!target) throw new ApiError(404, "rest_user_invalid_id");
  if (!a.force) throw new ApiError(501, "rest_trash_not_supported");
  if (id === FIRST_ADMIN) throw new ApiError(400, "rest_cannot_delete_admin");
  if (id === c.get("user")?.id) throw new ApiError(400, "rest_cannot_delete_self");
  if (reassign === id || !found.some((u) => u.id === reassign))
    throw new ApiError(400, "rest_user_invalid_reassign");

  const { gmt } = postDates(requestNow(c), c.get("settings").siteTimezone);
  // WordPress reassigns with a plain UPDATE of `post_author`: `modified` stays; the change time moves.
  const handOver = { author: reassign, changedGmt: gmt };
  await db.batch([
    db.update(events).set(handOver).where(eq(events.author, id)),
    db.update(venues).set(handOver).where(eq(venues.author, id)),
    db.update(organizers).set(handOver).where(eq(organizers.author, id)),
    db.update(media).set({ author: reassign }).where(eq(media.author, id)),
    db.delete(applicationPasswords).where(eq(applicationPasswords.userId, id)),
    db.delete(sessions).where(eq(sessions.userId, id)),
    db.delete(users).where(eq(users.id, id)),
  ]);
  return c.json({ deleted: true, previous: serializeUser(target) });
}
