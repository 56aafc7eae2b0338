/**
 * The two HTML pages WordPress clients may open outside the REST API (contract §7.4), per language:
 *
 * - the site root `{site}/` (the URL a user types into a WordPress client): 200, with the
 *   `Link: <…/wp-json/>; rel="https://api.w.org/"` header of every answer and the same link in the
 *   page, as WordPress prints it, so that discovery works from the site URL alone;
 * - `{site}/wp-admin/authorize-application.php`, the application-password authorization page the
 *   REST index names: this service has no browser sign-in, so the page says how application
 *   passwords are issued here and links back to the client's `reject_url` (with `success=false`, as
 *   WordPress redirects a rejected request).
 */
import { Hono } from "hono";
import { type AppContext, type AppEnv, requestQuery } from "../http/context";
import { loadStrings, type Strings, text } from "../i18n";
import { isUrl } from "../linked-posts/fields";

/** HTML text escaping (also for attribute values in double quotes). */
export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

function page(c: AppContext, strings: Strings, title: string, body: string): Response {
  const apiRoot = c.get("urls").apiRoot;
  const html = `<!doctype html>
<html lang="${escapeHtml(c.get("lang"))}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<link rel="https://api.w.org/" href="${escapeHtml(apiRoot)}">
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
<p><a href="${escapeHtml(apiRoot)}">${escapeHtml(text(strings, "site.api_link"))}</a></p>
</body>
</html>
`;
  const res = c.html(html);
  // Nothing on these pages runs or loads anything.
  res.headers.set("Content-Security-Policy", "default-src 'none'");
  return res;
}

/** `GET /` of the site (and of every language prefix). */
async function home(c: AppContext): Promise<Response> {
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  const name = text(strings, "site.name");
  return page(c, strings, name, `<p>${escapeHtml(text(strings, "site.description"))}</p>`);
}

/** `GET /wp-admin/authorize-application.php?app_name=…&reject_url=…`. */
async function authorizeApplication(c: AppContext): Promise<Response> {
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  const wpRoot = c.get("urls").wpRoot;
  // From the one parsed query (the last of repeated keys wins, as everywhere); the page names
  // where to go back to, so no cache may keep it.
  const query = requestQuery(c);
  const param = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : "");
  const appName = param("app_name").slice(0, 200);
  const reject = param("reject_url").trim();
  c.set("noStore", true);
  let back = "";
  if (isUrl(reject)) {
    const target = new URL(reject);
    target.searchParams.set("success", "false");
    back = `<p><a href="${escapeHtml(target.toString())}">${escapeHtml(
      text(strings, "site.authorize.back", [appName || new URL(reject).host]),
    )}</a></p>`;
  }
  const body = `<p>${escapeHtml(
    text(strings, "site.authorize.text", [`${wpRoot}users/me/application-passwords`]),
  )}</p>
${back}`;
  return page(c, strings, text(strings, "site.authorize.title"), body);
}

/**
 * The site pages as a sub-app, to mount at `""` and at every `/{lang}`.
 * @example app.route("/de", sitePages())
 */
export function sitePages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get("/", home);
  app.get("/wp-admin/authorize-application.php", authorizeApplication);
  return app;
}
