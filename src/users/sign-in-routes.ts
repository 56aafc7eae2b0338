/**
 * Browser sign-in as WordPress does it (contract §3.1), under every language prefix:
 * - `GET /wp-login.php`: the form (src/users/sign-in-page.ts);
 * - `POST /wp-login.php` (`log`, `pwd`, `rememberme`, `redirect_to`): a session cookie and a 302 to
 *   `redirect_to` (same origin only, else `/wp-admin/`), or the form again with an error, behind the
 *   failed-login rate limit;
 * - `GET|POST /wp-login.php?action=logout&_wpnonce=…`: ends the session, 302 to `?loggedout=true`;
 * - `GET|POST /wp-admin/admin-ajax.php?action=rest-nonce`: the REST nonce of the signed-in session
 *   (`wp_ajax_rest_nonce`), else `0` with status 400 as WordPress's `admin-ajax.php` answers;
 * - `GET /wp-includes/css/login.css`: the form's stylesheet.
 */
import { Hono } from "hono";
import { type AppContext, type AppEnv, requestParams, requestQuery } from "../http/context";
import { ApiError } from "../http/errors";
import { ownOrigins } from "../http/headers";
import type { ParamBag } from "../http/params";
import { assertNotBlocked, clientKey, recordFailure, retryAfterOf } from "../http/rate-limit";
import { loadStrings, text } from "../i18n";
import { cookieSession } from "./cookie-auth";
import { createNonce, verifyNonce } from "./nonce";
import {
  endSession,
  expiredCookie,
  sessionCookie,
  sessionToken,
  startSession,
  tokenDigest,
} from "./session";
import { signInUser } from "./sign-in";
import { SIGN_IN_CSS, signInPage } from "./sign-in-page";

/** A parameter's text; anything else (a list, an object) reads as empty, as WordPress's form does. */
const str = (bag: ParamBag, name: string): string =>
  typeof bag[name] === "string" ? (bag[name] as string) : "";

/**
 * Where to go after signing in: `wanted` when it resolves to this origin (WordPress's
 * `wp_safe_redirect`), else `/wp-admin/`; always an absolute URL of this origin.
 */
export function safeRedirect(requestUrl: string, wanted: string): string {
  const fallback = new URL("/wp-admin/", requestUrl).href;
  // Backslashes and control characters are read differently by browsers: never followed.
  if (!wanted || wanted.length > 2048) return fallback;
  if ([...wanted].some((ch) => ch === "\\" || ch.charCodeAt(0) < 0x20 || ch === "\x7f"))
    return fallback;
  let target: URL;
  try {
    target = new URL(wanted, requestUrl);
  } catch {
    return fallback;
  }
  return target.origin === new URL(requestUrl).origin ? target.href : fallback;
}

/** A 302 to `location` with `Set-Cookie`. */
function redirect(c: AppContext, location: string, cookie: string): Response {
  c.set("noStore", true);
  const res = c.redirect(location, 302);
  res.headers.set("Set-Cookie", cookie);
  return res;
}

/** Sign-out: with a nonce of the session (`log-out`, or the REST nonce), ends it. */
async function logout(c: AppContext, nonce: unknown): Promise<Response> {
  const hostname = c.get("url")!.hostname;
  const loggedOut = new URL("wp-login.php?loggedout=true", c.req.url).href;
  const token = sessionToken(c.req.header("cookie"));
  const now = c.get("nowMs");
  if (
    token &&
    ((await verifyNonce(token, nonce, "log-out", now)) ||
      (await verifyNonce(token, nonce, "wp_rest", now)))
  ) {
    await endSession(c.get("rdb").db, await tokenDigest(token));
    return redirect(c, loggedOut, expiredCookie(hostname));
  }
  // Without a valid nonce a live session is only asked about (WordPress's `wp_nonce_ays`, 403).
  if (token && (await cookieSession(c))) {
    const fresh = await createNonce(token, "log-out", now);
    return signInPage(c, {
      logoutHref: `wp-login.php?action=logout&_wpnonce=${fresh}`,
      status: 403,
    });
  }
  return redirect(c, loggedOut, expiredCookie(hostname));
}

/** `GET /wp-login.php`: the form, the logged-out notice, or sign-out. */
async function showSignIn(c: AppContext): Promise<Response> {
  const query = requestQuery(c);
  if (str(query, "action") === "logout")
    return logout(c, query._wpnonce ?? c.req.header("x-wp-nonce"));
  return signInPage(c, {
    notice: str(query, "loggedout") === "true" ? "logged_out" : undefined,
    redirectTo: str(query, "redirect_to") || undefined,
  });
}

/** The form again after a refusal, with the 429 of a blocked client (`Retry-After`). */
async function refused(
  c: AppContext,
  err: ApiError,
  log: string,
  redirectTo: string,
): Promise<Response> {
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  const res = await signInPage(c, {
    errorText: text(strings, "messages.too_many_requests"),
    log,
    redirectTo,
    status: 429,
  });
  res.headers.set("Retry-After", String(retryAfterOf(err)));
  return res;
}

/** `POST /wp-login.php`: signs in (or out, with `action=logout`). */
async function signIn(c: AppContext): Promise<Response> {
  let body: ParamBag;
  try {
    body = (await requestParams(c)).body;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    return signInPage(c, { errors: ["unreadable"], status: err.status === 413 ? 413 : 400 });
  }
  const query = requestQuery(c);
  if (str(query, "action") === "logout")
    return logout(c, body._wpnonce ?? query._wpnonce ?? c.req.header("x-wp-nonce"));
  // Login CSRF: another site's form must not sign a visitor into an account of its choosing.
  const origin = c.req.header("origin");
  if (origin !== undefined && !ownOrigins(c).includes(origin))
    return signInPage(c, { errors: ["cross_site"], status: 403 });
  const log = str(body, "log");
  const pwd = str(body, "pwd");
  const redirectTo = str(body, "redirect_to") || str(query, "redirect_to");
  const remember = str(body, "rememberme") === "forever";
  const view = { log, redirectTo: redirectTo || undefined, remember };
  const client = clientKey(c.req.raw.headers);
  try {
    assertNotBlocked(client);
  } catch (err) {
    if (err instanceof ApiError && err.status === 429) return refused(c, err, log, redirectTo);
    throw err;
  }
  // Empty fields are not failed attempts (WordPress's `wp_login_failed` skips them).
  const empty = [...(log.trim() ? [] : ["empty_username"]), ...(pwd ? [] : ["empty_password"])];
  if (empty.length) return signInPage(c, { ...view, errors: empty });
  const { db } = c.get("rdb");
  const settings = c.get("settings");
  const user = await signInUser(db, log, pwd, settings.adminAppPassword);
  if (!user) {
    const blocked = await recordFailure(c.env.AUTH_FAILURES, client);
    if (blocked) return refused(c, blocked, log, redirectTo);
    // 200, as WordPress answers a failed sign-in: the form again, with one message for every cause.
    return signInPage(c, { ...view, errors: ["failed"] });
  }
  const { token, expiresMs } = await startSession(db, user.id, c.get("nowMs"), remember);
  const cookie = sessionCookie(c.get("url")!.hostname, token, remember ? expiresMs : undefined);
  return redirect(c, safeRedirect(c.req.url, redirectTo), cookie);
}

/** `admin-ajax.php`: only `rest-nonce`, for a signed-in session; `0` and 400 otherwise. */
async function adminAjax(c: AppContext): Promise<Response> {
  c.set("noStore", true);
  let action = str(requestQuery(c), "action");
  if (c.req.method === "POST") {
    try {
      action = str((await requestParams(c)).body, "action") || action;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) throw err;
      action = "";
    }
  }
  const session = action === "rest-nonce" ? await cookieSession(c) : null;
  if (!session) return c.text("0", 400);
  return c.text(await createNonce(session.token, "wp_rest", c.get("nowMs")), 200);
}

/** The routes above as a Hono sub-app, to mount at `""` and at every `/{lang}`. */
export function signInRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get("/wp-login.php", showSignIn);
  app.post("/wp-login.php", signIn);
  app.get("/wp-admin/admin-ajax.php", adminAjax);
  app.post("/wp-admin/admin-ajax.php", adminAjax);
  app.get("/wp-includes/css/login.css", (c) => {
    const res = c.body(SIGN_IN_CSS, 200, { "Content-Type": "text/css; charset=utf-8" });
    return res;
  });
  return app;
}
