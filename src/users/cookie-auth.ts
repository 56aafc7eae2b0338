/**
 * Cookie authentication of REST requests (contract §3.1), as WordPress's `rest_cookie_check_errors`
 * does it: a browser's session cookie counts only together with a nonce of that session
 * (`_wpnonce` parameter, else `X-WP-Nonce` header), so that no other site can make a signed-in
 * browser write (CSRF). Without a nonce the request is anonymous, whatever cookie it carries; with
 * a nonce that is not one of a live session's, it is refused with 403 `rest_cookie_invalid_nonce`.
 */
import type { AuthUser } from "../access/capabilities";
import { openDb } from "../db/client";
import { type AppContext, requestQuery } from "../http/context";
import { ApiError } from "../http/errors";
import { readBody } from "../http/params";
import { createNonce, verifyNonce } from "./nonce";
import { sessionToken, sessionUser, tokenDigest } from "./session";

/** The session a request was authenticated by (its token's digest), by request. */
const sessionsByRequest = new WeakMap<Request, { token: string; digest: string }>();

/** The digest of the session that authenticated this request, if a cookie did. */
export const requestSession = (c: AppContext): string | undefined =>
  sessionsByRequest.get(c.req.raw)?.digest;

/**
 * The live session of the request's cookie: its user, token and digest, or null. Read from the
 * request's D1 session; a session not found there (a replica behind the sign-in's write) is looked
 * for once more at the primary.
 */
export async function cookieSession(
  c: AppContext,
): Promise<{ user: AuthUser; token: string; digest: string } | null> {
  const token = sessionToken(c.req.header("cookie"));
  if (!token) return null;
  const digest = await tokenDigest(token);
  const rdb = c.get("rdb");
  const now = c.get("nowMs");
  let user = await sessionUser(rdb.db, digest, now);
  if (!user && !c.req.header("x-d1-bookmark")) {
    const primary = openDb(c.env.DB, { write: true });
    user = await sessionUser(primary.db, digest, now);
    rdb.trips.count += primary.trips.count;
  }
  return user ? { user, token, digest } : null;
}

/**
 * The nonce a REST request sends, in WordPress's order: `$_REQUEST['_wpnonce']` (a form body's, which
 * wins over the query's as PHP's `request_order` "GP" merges them), then `X-WP-Nonce`. The body is
 * read (from a copy; the handler reads it again) only for a form body with a session cookie; a body
 * that cannot be read sends no nonce here, and the handler answers for it.
 */
async function sentNonce(c: AppContext): Promise<unknown> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  const form =
    type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data");
  if (form && sessionToken(c.req.header("cookie"))) {
    try {
      const body = await readBody(c.req.raw.clone());
      if (Object.hasOwn(body, "_wpnonce")) return body._wpnonce;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
  const query = requestQuery(c);
  if (Object.hasOwn(query, "_wpnonce")) return query._wpnonce;
  return c.req.header("x-wp-nonce");
}

/**
 * The user a REST request without `Authorization` is made by: null without a nonce (anonymous, even
 * with a session cookie); the session's user with a valid `wp_rest` nonce of that session.
 * @throws ApiError 403 `rest_cookie_invalid_nonce` for a nonce that is not a current one of the
 *   cookie's live session (no cookie, an expired or ended session, another session's nonce).
 */
export async function cookieUser(c: AppContext): Promise<AuthUser | null> {
  const nonce = await sentNonce(c);
  if (nonce === undefined) return null;
  const token = sessionToken(c.req.header("cookie"));
  // The nonce is checked first: it costs no D1 round trip, and a wrong one needs no session.
  if (!token || !(await verifyNonce(token, nonce, "wp_rest", c.get("nowMs"))))
    throw new ApiError(403, "rest_cookie_invalid_nonce");
  const session = await cookieSession(c);
  if (!session) throw new ApiError(403, "rest_cookie_invalid_nonce");
  sessionsByRequest.set(c.req.raw, { token: session.token, digest: session.digest });
  return session.user;
}

/**
 * Sends a fresh `X-WP-Nonce` on the answer to a cookie-authenticated request, as WordPress does, so
 * that a page open for long keeps a current nonce.
 */
export async function refreshNonce(c: AppContext): Promise<void> {
  const session = sessionsByRequest.get(c.req.raw);
  if (session)
    c.res.headers.set("X-WP-Nonce", await createNonce(session.token, "wp_rest", c.get("nowMs")));
}
