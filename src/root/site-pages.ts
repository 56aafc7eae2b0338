/**
 * The site root, the HTML page WordPress clients open outside the REST API (contract §7.4), per
 * language (the application-password authorization page is src/users/authorize-application.ts):
 * the site root `{site}/` (the URL a user types into a WordPress client): 200, with the
 *   `Link: <…/wp-json/>; rel="https://api.w.org/"` header of every answer and the same link in the
 *   page, as WordPress prints it, so that discovery works from the site URL alone;
 */
import { escapeUTF8 } from "entities";
import { Hono } from "hono";
import type { AppContext, AppEnv } from "../http/context";
import { loadStrings, type Strings, text } from "../i18n";

/** HTML text escaping, also for attribute values in quotes (`entities`). */
export const escapeHtml = escapeUTF8;

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

/**
 * The site pages as a sub-app, to mount at `""` and at every `/{lang}`.
 * @example app.route("/de", sitePages())
 */
export function sitePages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get("/", home);
  return app;
}
