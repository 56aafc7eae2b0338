/**
 * `{site}/wp-admin/authorize-application.php` (contract §3.2), WordPress's "Authorize Application"
 * screen, the `authorization` endpoint the REST index names for application passwords: a client
 * sends the user here with `app_name`, `app_id`, `success_url` and `reject_url`; the signed-in user
 * approves (an application password is issued, and the browser goes to `success_url` with
 * `site_url`, `user_login` and `password`) or rejects (`reject_url` with `success=false`).
 *
 * As WordPress (wp-admin/authorize-application.php, `wp_is_authorize_application_redirect_url_valid`):
 * signed out → the sign-in page, back here after it; a redirect URL needs a scheme and a host, never
 * `javascript:` or `data:`, and `https` unless its host is 127.0.0.1 or [::1] or the site runs
 * locally; `app_id` is a UUID; the form carries a nonce of the session (`check_admin_referer`).
 * Unlike WordPress: a refused request is a 400 page, not `wp_die`'s 500; the form post is checked
 * again (WordPress checks only the page), and refused when its `Origin` is another site.
 */
import { Hono } from "hono";
import {
  type AppContext,
  type AppEnv,
  requestNow,
  requestParams,
  requestQuery,
} from "../http/context";
import { chunkPassword } from "../http/crypto";
import { ApiError } from "../http/errors";
import { ownOrigins } from "../http/headers";
import type { ParamBag } from "../http/params";
import { loadStrings, type Strings, text } from "../i18n";
import { WP_FORMAT } from "../time/format";
import { applicationPasswordNames, issueApplicationPassword } from "./application-passwords";
import { cookieSession } from "./cookie-auth";
import { plainText } from "./fields";
import { createNonce, verifyNonce } from "./nonce";
import { isLocalHost } from "./session";
import { escapeHtml, loginDocument } from "./sign-in-page";

const ACTION = "authorize_application_password";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the client asked for (the last of repeated parameters, as everywhere). */
interface AuthorizeRequest {
  appName: string;
  appId: string;
  successUrl: string;
  rejectUrl: string;
}

const str = (bag: ParamBag, name: string): string =>
  typeof bag[name] === "string" ? (bag[name] as string) : "";

function readRequest(bag: ParamBag): AuthorizeRequest {
  const successUrl = str(bag, "success_url").trim();
  return {
    appName: str(bag, "app_name").slice(0, 200),
    appId: str(bag, "app_id").trim(),
    successUrl,
    rejectUrl: str(bag, "reject_url").trim() || successUrl,
  };
}

/**
 * `wp_is_authorize_application_redirect_url_valid`: null when `url` may be redirected to, else the
 * key (under `site.authorize.`) of why not.
 */
export function redirectUrlProblem(url: string, siteIsLocal: boolean): string | null {
  if (url === "") return null;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url)) return "invalid_redirect_url_format";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "invalid_redirect_url_format";
  }
  const scheme = parsed.protocol.slice(0, -1).toLowerCase();
  if (!parsed.hostname || scheme === "javascript" || scheme === "data")
    return "invalid_redirect_url_format";
  const loopback = parsed.hostname === "127.0.0.1" || parsed.hostname === "[::1]";
  if (scheme === "http" && !siteIsLocal && !loopback) return "invalid_redirect_scheme";
  return null;
}

/** The reasons (keys under `site.authorize.`) the request is not allowed; empty when it is. */
function problems(c: AppContext, request: AuthorizeRequest): string[] {
  const local = isLocalHost(c.get("url")!.hostname);
  const found = [request.successUrl, request.rejectUrl]
    .map((url) => redirectUrlProblem(url, local))
    .filter((p): p is string => p !== null);
  if (request.appId && !UUID.test(request.appId)) found.push("invalid_app_id");
  return [...new Set(found)];
}

/** `url` with `pairs` added to its query (WordPress's `add_query_arg`). */
function withQuery(url: string, pairs: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(pairs)) target.searchParams.set(key, value);
  return target.href;
}

/** The language's root (`…/de/`), from the page at `…/de/wp-admin/authorize-application.php`. */
const languageRoot = (c: AppContext) => new URL("../", c.req.url).href;

function page(
  c: AppContext,
  strings: Strings,
  title: string,
  body: string,
  status: number,
): Promise<Response> {
  const t = escapeHtml(text(strings, `site.authorize.${title}`));
  return loginDocument(c, { title: t, body: `<h2>${t}</h2>\n${body}`, status, base: "../" });
}

/** The page of a refused request (WordPress's `wp_die`, with 400 instead of its 500). */
function notAllowed(c: AppContext, strings: Strings, reasons: string[]): Promise<Response> {
  const said = [
    text(strings, "site.authorize.not_allowed"),
    ...reasons.map((r) => text(strings, `site.authorize.${r}`)),
  ].join(" ");
  return page(
    c,
    strings,
    "cannot",
    `<div id="login_error" role="alert"><p>${escapeHtml(said)}</p></div>`,
    400,
  );
}

/** The approval form, with an error of an earlier attempt if any. */
async function form(
  c: AppContext,
  strings: Strings,
  session: { token: string; user: { username: string } },
  request: AuthorizeRequest,
  error?: string,
): Promise<Response> {
  const t = (key: string, args: string[] = []) =>
    escapeHtml(text(strings, `site.authorize.${key}`, args));
  const nonce = await createNonce(session.token, ACTION, c.get("nowMs"));
  const question = request.appName ? t("question_named", [request.appName]) : t("question");
  const approveTo = request.successUrl
    ? t("sent_to", [
        withQuery(request.successUrl, { user_login: session.user.username, password: "[------]" }),
      ])
    : t("shown_here");
  const rejectTo = request.rejectUrl
    ? t("sent_to", [withQuery(request.rejectUrl, { success: "false" })])
    : t("back_to_editor");
  const hidden = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const body = `${error ? `<div id="login_error" role="alert"><p>${escapeHtml(error)}</p></div>\n` : ""}<p class="message">${question}</p>
<form id="authorize" action="authorize-application.php" method="post">
${hidden("_wpnonce", nonce)}${hidden("action", ACTION)}${hidden("success_url", request.successUrl)}${hidden("reject_url", request.rejectUrl)}${hidden("app_id", request.appId)}
<p><label for="app_name">${t("app_title")}</label>
<input type="text" id="app_name" name="app_name" value="${escapeHtml(request.appName)}" placeholder="${t("placeholder")}" required></p>
<p><input type="submit" name="approve" id="approve" value="${t("approve")}"><br><em>${approveTo}</em></p>
<p><input type="submit" name="reject" id="reject" value="${t("reject")}"><br><em>${rejectTo}</em></p>
</form>`;
  return page(c, strings, "title", body, 200);
}

/** Signed out: the sign-in page, which comes back to this URL (WordPress's `auth_redirect`). */
function toSignIn(c: AppContext): Response {
  c.set("noStore", true);
  const back = new URL(c.req.url);
  const target = new URL("wp-login.php", languageRoot(c));
  target.searchParams.set("redirect_to", back.href);
  target.searchParams.set("reauth", "1");
  return c.redirect(target.href, 302);
}

/** `GET`: the form for a signed-in user whose request is allowed. */
async function show(c: AppContext): Promise<Response> {
  const session = await cookieSession(c);
  if (!session) return toSignIn(c);
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  const request = readRequest(requestQuery(c));
  const reasons = problems(c, request);
  if (reasons.length) return notAllowed(c, strings, reasons);
  return form(c, strings, session, request);
}

/** `POST` (`action=authorize_application_password`): approve or reject. */
async function decide(c: AppContext): Promise<Response> {
  const session = await cookieSession(c);
  if (!session) return toSignIn(c);
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  let body: ParamBag;
  try {
    body = (await requestParams(c)).body;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    return notAllowed(c, strings, []);
  }
  if (str(body, "action") !== ACTION) return show(c);
  const origin = c.req.header("origin");
  const sameSite = origin === undefined || ownOrigins(c).includes(origin);
  // `check_admin_referer`: without this session's nonce, WordPress's "link expired" page.
  if (!sameSite || !(await verifyNonce(session.token, body._wpnonce, ACTION, c.get("nowMs"))))
    return page(
      c,
      strings,
      "cannot",
      `<p class="message">${escapeHtml(text(strings, "site.authorize.expired"))}</p>`,
      403,
    );
  const request = readRequest(body);
  const reasons = problems(c, request);
  if (reasons.length) return notAllowed(c, strings, reasons);
  c.set("noStore", true);
  if (Object.hasOwn(body, "reject"))
    return c.redirect(
      request.rejectUrl
        ? withQuery(request.rejectUrl, { success: "false" })
        : new URL("wp-admin/", languageRoot(c)).href,
      302,
    );
  if (!Object.hasOwn(body, "approve")) return form(c, strings, session, request);
  const { db } = c.get("rdb");
  let password: string;
  const name = plainText(request.appName);
  try {
    const existing = await applicationPasswordNames(db, session.user.id);
    const created = requestNow(c).toUTC().toFormat(WP_FORMAT);
    ({ password } = await issueApplicationPassword(
      db,
      session.user.id,
      existing,
      name,
      request.appId || undefined,
      created,
    ));
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    return form(c, strings, session, request, text(strings, `messages.${err.code}`));
  }
  if (request.successUrl)
    return c.redirect(
      withQuery(request.successUrl, {
        site_url: c.get("urls").site,
        user_login: session.user.username,
        password,
      }),
      302,
    );
  const shown = text(strings, "site.authorize.new_password", [name, chunkPassword(password)]);
  return page(
    c,
    strings,
    "title",
    `<p class="message" role="status"><kbd>${escapeHtml(shown)}</kbd></p>`,
    200,
  );
}

/**
 * The page's routes, to mount at `""` and at every `/{lang}` like the sign-in page.
 * @example app.route("/de", authorizeApplicationRoutes())
 */
export function authorizeApplicationRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get("/wp-admin/authorize-application.php", show);
  app.post("/wp-admin/authorize-application.php", decide);
  return app;
}
