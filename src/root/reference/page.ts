/**
 * `GET {namespace}/reference` (contract §7.6): an interactive API reference for people — this
 * language's `/doc` rendered by Swagger UI, with "Try it out" against the namespace root `/doc`
 * names (`servers`) and "Authorize" for HTTP Basic with an application password (contract §3).
 * Title, intro, language names and the no-script note are KV strings (`reference.*`); the script and
 * styles are the worker's own static assets (./assets.ts), so the page works without internet.
 */
import { html } from "hono/html";
import type { AppContext } from "../../http/context";
import { loadStrings, text } from "../../i18n";
import { REFERENCE_PAGE_FILES, referenceAsset } from "./assets";

/**
 * The page's Content-Security-Policy: scripts and styles only from this origin (no inline script:
 * the page's own is a static file), requests to this origin and to the API origin `/doc` names
 * (`SITE_URL` when set), nothing framed, no plugins.
 */
function contentSecurityPolicy(here: URL, apiRoot: string): string {
  const api = new URL(apiRoot).origin;
  const connect = api === here.origin ? "'self'" : `'self' ${api}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Renders the page for the request's language. The document is fetched from this same origin
 * (the path of this page with `/doc` for `/reference`), whatever `SITE_URL` says.
 * @param namespace the namespace for the settings in force (`tribe/events/v1`), for the language links.
 * @example app.get("/reference", (c) => referencePage(c, "tribe/events/v1"))
 */
export async function referencePage(c: AppContext, namespace: string): Promise<Response> {
  const settings = c.get("settings");
  const lang = c.get("lang");
  const strings = await loadStrings(c.env.STRINGS, lang);
  const here = new URL(c.req.url);
  const doc = here.pathname.replace(/\/reference\/*$/, "/doc");
  const languages = await Promise.all(
    settings.languages.map(async (code) => ({
      code,
      name: text(await loadStrings(c.env.STRINGS, code), "reference.language"),
      href: `/${code}/${settings.restPrefix}/${namespace}/reference`,
    })),
  );
  const title = text(strings, "reference.title");
  const page = html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${REFERENCE_PAGE_FILES.styles.map((name) => html`<link rel="stylesheet" href="${referenceAsset(name)}">\n`)}</head>
<body>
<header class="reference-header">
<h1>${title}</h1>
<p>${text(strings, "reference.intro")}</p>
<nav aria-label="${text(strings, "reference.languages")}">${languages.map(
    (l, i) =>
      html`${i ? " · " : ""}<a href="${l.href}" hreflang="${l.code}" lang="${l.code}"${
        l.code === lang ? html` aria-current="page"` : ""
      }>${l.name}</a>`,
  )} | <a href="${doc}">${text(strings, "reference.document")}</a></nav>
</header>
<main id="reference" data-doc="${doc}"><noscript><p class="reference-header">${text(strings, "reference.noscript")}</p></noscript></main>
${REFERENCE_PAGE_FILES.scripts.map((name) => html`<script src="${referenceAsset(name)}"></script>\n`)}</body>
</html>
`;
  const res = await c.html(page);
  res.headers.set("Content-Security-Policy", contentSecurityPolicy(here, c.get("urls").apiRoot));
  res.headers.set("Referrer-Policy", "same-origin");
  return res;
}
