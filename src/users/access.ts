/**
 * Who may touch which user (contract §3, WordPress `map_meta_cap` for `edit_user`, `list_users`,
 * `delete_user`): the user themself or a holder of the capability. Also resolves the `me` alias and
 * loads the user row the routes act on.
 */
import { eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { type AuthUser, type Capability, can } from "../access/capabilities";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import type { AppContext, AppEnv } from "../http/context";
import { ApiError, forbidden } from "../http/errors";
import { USER_COLUMNS, type UserFields } from "./serialize";

/** A permission rule: may `user` (null = anonymous) act on the user `targetId` (null = `me` while anonymous)? */
export type UserRule = (user: AuthUser | null, targetId: number | null) => boolean;

/** The user themself, or anyone holding `cap`. */
export const selfOr =
  (cap: Capability): UserRule =>
  (user, targetId) =>
    user !== null && (user.id === targetId || can(user, cap));

/** Anyone holding `cap`, whoever the target. */
export const holder =
  (cap: Capability): UserRule =>
  (user) =>
    can(user, cap);

/** 401 `rest_not_logged_in` ("You are not currently logged in."), WordPress's answer to an anonymous `me`. */
export const notLoggedIn = () => new ApiError(401, "rest_not_logged_in");

/** The user id a path segment names; `undefined` segment or `me` mean the authenticated user, if any. */
function idOf(user: AuthUser | null, segment: string | undefined): number | null {
  if (segment === undefined || segment === "me") return user?.id ?? null;
  return Number(segment);
}

/**
 * The id of the user the request is about: the `id` path segment, or the authenticated user for `me`.
 * @throws ApiError 401 `rest_not_logged_in` for `me` without credentials.
 */
export function targetUserId(c: AppContext): number {
  const id = idOf(c.get("user"), c.req.param("id"));
  if (id === null) throw notLoggedIn();
  return id;
}

/**
 * Throws unless `rule` lets the request's user act on `targetId` (tec-reference §1.3 step 7).
 * @throws ApiError `rest_forbidden`, 401 anonymous / 403 logged in.
 */
export function assertAllowed(c: AppContext, rule: UserRule, targetId: number): void {
  const user = c.get("user");
  if (!rule(user, targetId)) throw forbidden(user !== null);
}

/** The user row (without secrets), or null when there is no such user. One query. */
export async function loadUser(db: Db, id: number): Promise<UserFields | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const rows = await db.select(USER_COLUMNS(users)).from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

/**
 * Loads the user or fails like WordPress's `get_user`.
 * @throws ApiError 404 `rest_user_invalid_id` ("Invalid user ID.").
 */
export async function requireUser(db: Db, id: number): Promise<UserFields> {
  const row = await loadUser(db, id);
  if (!row) throw new ApiError(404, "rest_user_invalid_id");
  return row;
}

/**
 * The `Allow` header (tec-reference §12.2) for a user route: the methods whose rule passes for this
 * user on the route's target (`id` path segment, or `me`).
 */
export function allowUser(methods: Record<string, UserRule>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.get("user");
    const targetId = idOf(user, c.req.param("id"));
    c.set(
      "allow",
      Object.entries(methods)
        .filter(([, rule]) => rule(user, targetId))
        .map(([method]) => method),
    );
    await next();
  };
}
