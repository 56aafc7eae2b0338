/**
 * Every URL the service prints (contract §1): built from `SITE_URL` or the request origin, and the
 * request's language prefix, so a response never points at another language version.
 */
import type { Settings } from "../settings";

export interface Urls {
  /** `{base}{/lang}/wp-json/` — WordPress's API root (the `Link: rel="https://api.w.org/"` target). */
  apiRoot: string;
  /** `{base}{/lang}/wp-json/tribe/events/v1/` — the namespace root, with trailing slash. */
  namespaceRoot: string;
  /** `{base}{/lang}/wp-json/wp/v2/`. */
  wpRoot: string;
  /** The public site: `SITE_URL`, else origin plus language prefix; no trailing slash. */
  site: string;
  /**
   * `{host of site}{path of site}`, the prefix of `global_id` (§4.1, contract §1): of `SITE_URL`, else
   * of the origin — never with the language prefix, so a post has one global id in every language.
   */
  globalIdPrefix: string;
  /** The host of the site (no port): iCalendar UIDs are `{id}@{host}` (contract §7.1). */
  siteHost: string;
}

/** The namespace path, e.g. `tribe/events/v1`. */
export const namespaceOf = (settings: Settings) => `${settings.vendor}/events/v1`;

/**
 * Language and prefix of a path (contract §1): `/de/wp-json/...` → `de`; `/wp-json/...` → the
 * default language; null when the path starts with neither.
 */
export function languageOf(
  settings: Settings,
  path: string,
): { lang: string; prefix: string } | null {
  const first = path.split("/")[1] ?? "";
  if (first === settings.restPrefix) return { lang: settings.defaultLanguage, prefix: "" };
  if (settings.languages.includes(first)) return { lang: first, prefix: `/${first}` };
  return null;
}

/**
 * URL builders for one request.
 * @param origin the request origin (`http://127.0.0.1:8787`).
 * @param langPrefix `""` or `/en`.
 */
export function buildUrls(settings: Settings, origin: string, langPrefix: string): Urls {
  const base = (settings.siteUrl || origin) + langPrefix;
  const site = settings.siteUrl || origin + langPrefix;
  const apiRoot = `${base}/${settings.restPrefix}/`;
  const siteUrl = new URL(settings.siteUrl || origin);
  return {
    apiRoot,
    namespaceRoot: `${apiRoot}${namespaceOf(settings)}/`,
    wpRoot: `${apiRoot}wp/v2/`,
    site,
    globalIdPrefix: siteUrl.hostname + siteUrl.pathname.replace(/\/+$/, ""),
    siteHost: siteUrl.hostname,
  };
}

/**
 * `application/x-www-form-urlencoded` query string of ordered pairs (contract §4 row 6). Arrays become
 * comma lists, booleans `1`/`0`; `undefined`/`null` values are skipped.
 */
export function formQuery(pairs: Array<[string, unknown]>): string {
  const search = new URLSearchParams();
  for (const [key, value] of pairs) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) search.append(key, value.join(","));
    else if (typeof value === "boolean") search.append(key, value ? "1" : "0");
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
