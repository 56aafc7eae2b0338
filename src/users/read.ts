/**
 * `GET /users`, `GET /users/{id}` and `GET /users/me` (contract §3, WordPress
 * `WP_REST_Users_Controller::get_items`, `get_item`, `get_current_item`).
 */
import { asc, count, sql } from "drizzle-orm";
import { can } from "../access/capabilities";
import { runBatch } from "../db/batch";
import { users } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { forbidden } from "../http/errors";
import { echoed, pageOf } from "../http/list-args";
import { totalPages } from "../http/pagination";
import { formQuery } from "../http/urls";
import { assertAllowed, notLoggedIn, requireUser, selfOr, targetUserId } from "./access";
import { LIST_ARGS, SINGLE_ARGS } from "./args";
import { serializeUser, USER_COLUMNS } from "./serialize";

/**
 * Handles `GET /users` (needs `list_users`): users ordered by display name (WordPress's default
 * `orderby=name`), `page`/`per_page` (default 10, max 100), `search` as a substring of username,
 * name, email or slug, case-insensitive. Sets `X-WP-Total`, `X-WP-TotalPages` and `Link` rel
 * next/prev. One D1 round trip.
 * @throws ApiError 400 `rest_invalid_param`; 401/403 `rest_forbidden`.
 */
export async function listUsers(c: AppContext): Promise<Response> {
  const { values: a } = parseArgs(LIST_ARGS, await requestParams(c), argContext(c));
  const user = c.get("user");
  if (!can(user, "list_users")) throw forbidden(user !== null);

  const { page, perPage, offset } = pageOf(a);
  // instr, not LIKE: no wildcards to escape, and no pattern length limit (D1 refuses LIKE patterns
  // over 50 bytes, which a search of 49 characters would reach).
  const search = a.search?.trim() ? a.search.trim().toLowerCase() : null;
  const where = search
    ? sql`(instr(lower(${users.username}), ${search}) > 0 OR instr(lower(${users.name}), ${search}) > 0
        OR instr(lower(${users.email}), ${search}) > 0 OR instr(lower(${users.slug}), ${search}) > 0)`
    : undefined;
  const { db } = c.get("rdb");
  const { counted, rows } = await runBatch(db, {
    counted: db.select({ total: count() }).from(users).where(where),
    rows: db
      .select(USER_COLUMNS(users))
      .from(users)
      .where(where)
      .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
      .limit(perPage)
      .offset(offset),
  });
  const [{ total }] = counted;

  const pages = totalPages(total, perPage);
  c.header("X-WP-Total", String(total));
  c.header("X-WP-TotalPages", String(pages));
  const base = `${c.get("urls").wpRoot}users`;
  const link = (p: number) =>
    base + formQuery([...echoed(perPage, [["search", a.search]]), ["page", p]]);
  const rels: string[] = [];
  if (page > 1) rels.push(`<${link(Math.min(page - 1, Math.max(pages, 1)))}>; rel="prev"`);
  if (page < pages) rels.push(`<${link(page + 1)}>; rel="next"`);
  if (rels.length) c.header("Link", rels.join(", "));
  return c.json(rows.map(serializeUser));
}

/**
 * Handles `GET /users/{id}`: the user themself, or `list_users`. Others learn nothing, not even
 * whether the id exists (WordPress answers 404 first; here the permission check comes first).
 * @throws ApiError 401/403 `rest_forbidden`; 404 `rest_user_invalid_id`.
 */
export async function getUser(c: AppContext): Promise<Response> {
  parseArgs(SINGLE_ARGS, await requestParams(c), argContext(c));
  const id = targetUserId(c);
  assertAllowed(c, selfOr("list_users"), id);
  return c.json(serializeUser(await requireUser(c.get("rdb").db, id)));
}

/**
 * Handles `GET /users/me`: the authenticated user.
 * @throws ApiError 401 `rest_not_logged_in`.
 */
export async function getCurrentUser(c: AppContext): Promise<Response> {
  const user = c.get("user");
  if (!user) throw notLoggedIn();
  return c.json(serializeUser(await requireUser(c.get("rdb").db, user.id)));
}
