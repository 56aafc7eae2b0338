/**
 * Headers on every response (tec-reference §12.2; contract §6): WordPress's REST headers, CORS (any
 * origin may read, writes only from `CORS_WRITE_ORIGINS`), TEC's discovery headers, cache headers,
 * the D1 bookmark and the round-trip count.
 */
import type { Settings } from "../settings";
import type { AppContext } from "./context";
import { ApiError } from "./errors";

/** Headers a browser on another origin may read. */
const EXPOSED = [
  "X-WP-Total",
  "X-WP-TotalPages",
  "Link",
  "X-TEC-Total",
  "X-TEC-TotalPages",
  "ETag",
  "x-d1-bookmark",
  "Server-Timing",
  "Allow",
].join(", ");

const ALLOWED_REQUEST_HEADERS = [
  "Authorization",
  "X-WP-Nonce",
  "Content-Disposition",
  "Content-MD5",
  "Content-Type",
  "If-None-Match",
  "x-d1-bookmark",
  "X-HTTP-Method-Override",
].join(", ");

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether `origin` may send writes (contract §6): no `Origin` (not a browser), or one of
 * `CORS_WRITE_ORIGINS` (empty = any) — never the opaque `null` origin of sandboxed frames and
 * `file:` pages (issue 20), whatever the setting.
 */
export function mayWriteFrom(settings: Settings, origin: string | undefined): boolean {
  if (origin === "null") return false;
  if (!origin || settings.corsWriteOrigins.length === 0) return true;
  return settings.corsWriteOrigins.includes(origin);
}

/**
 * Rejects cross-origin writes from origins not in `CORS_WRITE_ORIGINS`. A browser would hide the
 * answer from the page anyway, but the write must not happen.
 * @throws ApiError 403 `rest_forbidden`.
 */
export function checkWriteOrigin(c: AppContext): void {
  if (!WRITE_METHODS.has(c.req.method)) return;
  if (!mayWriteFrom(c.get("settings"), c.req.header("origin")))
    throw new ApiError(403, "rest_forbidden");
}

/** Sets the headers of §12.2 and contract §6 on the finished response. */
export function applyResponseHeaders(c: AppContext): void {
  const settings = c.get("settings");
  const urls = c.get("urls");
  const h = c.res.headers;
  const origin = c.req.header("origin");
  if ((h.get("Content-Type") ?? "").startsWith("application/json"))
    h.set("Content-Type", "application/json; charset=UTF-8");
  h.set("X-Robots-Tag", "noindex");
  h.set("X-Content-Type-Options", "nosniff");
  if (urls) {
    h.set(
      "Link",
      [`<${urls.apiRoot}>; rel="https://api.w.org/"`, h.get("Link")].filter(Boolean).join(", "),
    );
    h.set("X-TEC-API-VERSION", "v1");
    h.set("X-TEC-API-ROOT", urls.namespaceRoot);
    h.set("X-TEC-API-ORIGIN", urls.site);
  }
  h.set("Access-Control-Expose-Headers", EXPOSED);
  h.set("Access-Control-Allow-Headers", ALLOWED_REQUEST_HEADERS);
  const allow = c.get("allow");
  if (allow) h.set("Allow", allow.join(", "));
  if (origin) {
    h.set("Access-Control-Allow-Origin", origin);
    const methods = ["OPTIONS", "GET", "HEAD"];
    if (settings && mayWriteFrom(settings, origin)) methods.push("POST", "PUT", "PATCH", "DELETE");
    h.set("Access-Control-Allow-Methods", methods.join(", "));
    // No Access-Control-Allow-Credentials (issue 20): credentials travel in the Authorization
    // header, which needs no cookie mode, so no page may ride on a browser's stored credentials.
  }
  h.append("Vary", "Origin");
  if (c.get("user")) {
    h.set("Cache-Control", "no-cache, must-revalidate, max-age=0, no-store, private");
    h.set("Expires", "Wed, 11 Jan 1984 05:00:00 GMT");
  } else if (
    (c.req.method === "GET" || c.req.method === "HEAD") &&
    c.res.status < 400 &&
    settings
  ) {
    h.set(
      "Cache-Control",
      `public, max-age=${settings.cacheMaxAge}, stale-while-revalidate=${settings.cacheStaleWhileRevalidate}`,
    );
  } else {
    h.set("Cache-Control", "no-store");
  }
  const rdb = c.get("rdb");
  if (rdb) {
    const bookmark = rdb.bookmark();
    if (bookmark) h.set("x-d1-bookmark", bookmark);
    h.set("Server-Timing", `d1;desc="${rdb.trips.count} round trips"`);
  }
  h.delete("Server");
}
