/**
 * WordPress's plain-permalink form of REST URLs (tec-reference §0, §1.1; contract §7.4):
 * `{site}/?rest_route=/tribe/events/v1/events&per_page=1` (also `{site}/index.php?rest_route=…`),
 * which WordPress clients fall back to when pretty URLs fail. Rewritten before routing to the pretty
 * URL `{site}/wp-json/tribe/events/v1/events?per_page=1`, keeping the method, headers, body and the
 * other query parameters byte for byte, so that the answer — status, body, printed URLs, ETag and
 * edge-cache entry — is the pretty URL's.
 */
import type { Settings } from "../settings";

/**
 * The request as its pretty URL when it uses `?rest_route=` on the site root (`/`, `/index.php`,
 * with or without a language prefix: `/de/?rest_route=…`); any other request unchanged. An empty
 * `rest_route` is the REST index `/`.
 * @example fromRestRoute(new Request("https://x.test/de/?rest_route=/wp/v2/users/me&context=edit"), settings).url
 *   // "https://x.test/de/wp-json/wp/v2/users/me?context=edit"
 */
export function fromRestRoute(request: Request, settings: Settings): Request {
  // Most requests: no parsing at all (the text test is a superset of the one below).
  if (!request.url.includes("rest_route=")) return request;
  const url = new URL(request.url);
  if (!url.search.includes("rest_route=")) return request;
  const root = /^(?:\/([^/]+))?\/(?:index\.php)?$/.exec(url.pathname);
  if (!root || (root[1] !== undefined && !settings.languages.includes(root[1]))) return request;
  const pairs = url.search.slice(1).split("&");
  const isRoute = (pair: string) => {
    try {
      return decodeURIComponent(pair.split("=")[0].replace(/\+/g, " ")) === "rest_route";
    } catch {
      return false;
    }
  };
  const found = pairs.filter(isRoute);
  if (found.length === 0) return request;
  // As PHP reads a query string, the last of repeated keys wins.
  const route = new URLSearchParams(found[found.length - 1]).get("rest_route") ?? "";
  const prefix = root[1] === undefined ? "" : `/${root[1]}`;
  const target = new URL(url.origin);
  target.pathname = `${prefix}/${settings.restPrefix}/${route.replace(/^\/+/, "")}`;
  const rest = pairs.filter((p) => p !== "" && !isRoute(p));
  target.search = rest.length ? `?${rest.join("&")}` : "";
  return new Request(target.toString(), request);
}
