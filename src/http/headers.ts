/**
 * Headers on every response (tec-reference §12.2; contract §6): WordPress's REST headers, CORS (any
 * origin may read, writes only from `CORS_WRITE_ORIGINS`), TEC's discovery headers, cache headers,
 * the D1 bookmark and the round-trip count.
 */
import type { Settings } from "../settings";
import type { AppContext } from "./context";
import { ApiError } from "./errors";
import type { Urls } from "./urls";

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
  "Date",
  "X-TEC-Sync-Cursor",
].join(", ");

/**
 * The names of the headers routes set, spelled as WordPress and TEC send them (`Headers` keeps
 * only lowercase names): what `_envelope` shows (contract §7.7).
 */
const SPELLED = new Map(
  [
    "X-WP-Total",
    "X-WP-TotalPages",
    "X-TEC-Total",
    "X-TEC-TotalPages",
    "Link",
    "Location",
    "Allow",
    "Retry-After",
    "ETag",
    "x-d1-bookmark",
  ].map((name) => [name.toLowerCase(), name]),
);

/**
 * A header name as WordPress sends it: the spelling of the header routes set, else each word
 * capitalized (`content-disposition` → `Content-Disposition`, as PHP code writes them).
 * @example headerName("x-wp-totalpages") // "X-WP-TotalPages"
 */
export function headerName(name: string): string {
  const lower = name.toLowerCase();
  return (
    SPELLED.get(lower) ??
    lower.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())
  );
}

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
 * Whether `origin` may send writes (contract §6): no `Origin` (not a browser), the site's own
 * (`own`: the request's origin and `SITE_URL`'s, so its sign-in form and editor always may), or one
 * of `CORS_WRITE_ORIGINS` (empty = any) — never the opaque `null` origin of sandboxed frames and
 * `file:` pages, whatever the setting.
 */
export function mayWriteFrom(
  settings: Settings,
  origin: string | undefined,
  own: readonly string[] = [],
): boolean {
  if (origin === "null") return false;
  if (!origin || settings.corsWriteOrigins.length === 0 || own.includes(origin)) return true;
  return settings.corsWriteOrigins.includes(origin);
}

/** The site's own origins: the request's, and `SITE_URL`'s when it is set. */
export function ownOrigins(c: AppContext): string[] {
  const own = [new URL(c.req.url).origin];
  const siteUrl = c.get("settings").siteUrl;
  if (siteUrl) own.push(new URL(siteUrl).origin);
  return own;
}

/**
 * Rejects cross-origin writes from origins not in `CORS_WRITE_ORIGINS`. A browser would hide the
 * answer from the page anyway, but the write must not happen.
 * @throws ApiError 403 `rest_forbidden`.
 */
export function checkWriteOrigin(c: AppContext): void {
  if (!WRITE_METHODS.has(c.req.method)) return;
  if (!mayWriteFrom(c.get("settings"), c.req.header("origin"), ownOrigins(c)))
    throw new ApiError(403, "rest_forbidden");
}

/** What the headers of an answer depend on besides its own (`setStandardHeaders`). */
export interface HeaderFacts {
  /** Absent only when settings could not be parsed. */
  settings?: Settings;
  /** Absent only before the request's language was known. */
  urls?: Urls;
  /** The request's `Origin` header. */
  origin?: string;
  /** Whether the request was authenticated. */
  authenticated: boolean;
  method: string;
  status: number;
  /** Methods the matched route allows this user (`Allow`, §12.2). */
  allow?: string[];
  /** The D1 session's latest bookmark (`x-d1-bookmark`), when a session was opened. */
  bookmark?: string | null;
  /** D1 round trips made (`Server-Timing`), when a session was opened or none was needed. */
  trips?: number;
  /** The answer must not be kept by any cache (a page that echoes what the request names). */
  noStore?: boolean;
}

/**
 * The CORS headers that depend on the request's `Origin` (contract §6): any origin may read; the
 * write methods only for origins that may write.
 */
export function originHeaders(settings: Settings | undefined, origin: string): [string, string][] {
  const methods = ["OPTIONS", "GET", "HEAD"];
  if (settings && mayWriteFrom(settings, origin)) methods.push("POST", "PUT", "PATCH", "DELETE");
  // No Access-Control-Allow-Credentials: credentials travel in the Authorization
  // header, which needs no cookie mode, so no page may ride on a browser's stored credentials.
  return [
    ["Access-Control-Allow-Origin", origin],
    ["Access-Control-Allow-Methods", methods.join(", ")],
  ];
}

/**
 * Sets the headers of §12.2 and contract §6 on an answer's headers `h` (which may hold the
 * handler's own: `Content-Type`, the paging `Link`, …).
 */
export function setStandardHeaders(h: Headers, f: HeaderFacts): void {
  const { settings, urls } = f;
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
  if (f.allow) h.set("Allow", f.allow.join(", "));
  if (f.origin) for (const [name, value] of originHeaders(settings, f.origin)) h.set(name, value);
  // A browser's cache must not hand an anonymous answer to a signed-in request of the same URL:
  // the nonce is what makes a cookie count (contract §3.1).
  h.append("Vary", "Origin, X-WP-Nonce");
  if (f.authenticated) {
    h.set("Cache-Control", "no-cache, must-revalidate, max-age=0, no-store, private");
    h.set("Expires", "Wed, 11 Jan 1984 05:00:00 GMT");
  } else if (
    (f.method === "GET" || f.method === "HEAD") &&
    f.status < 400 &&
    settings &&
    !f.noStore
  ) {
    h.set("Cache-Control", publicCacheControl(settings));
  } else {
    h.set("Cache-Control", "no-store");
  }
  // When the answer leaves (RFC 9110 §6.6.1), also for one kept by the read cache: never a sync
  // cursor (clocks differ; `X-TEC-Sync-Cursor` is one, contract §7.3).
  h.set("Date", new Date().toUTCString());
  if (f.bookmark) h.set("x-d1-bookmark", f.bookmark);
  if (f.trips !== undefined) h.set("Server-Timing", serverTiming(f.trips));
  h.delete("Server");
}

/** `Cache-Control` of anonymous GETs (contract §6). */
export const publicCacheControl = (settings: Settings) =>
  `public, max-age=${settings.cacheMaxAge}, stale-while-revalidate=${settings.cacheStaleWhileRevalidate}`;

/** `Server-Timing` with the D1 round trips of the answer (read by the tests and `npm run bench`). */
export const serverTiming = (trips: number) => `d1;desc="${trips} round trips"`;

/** Sets the headers of §12.2 and contract §6 on the finished response. */
export function applyResponseHeaders(c: AppContext): void {
  const rdb = c.get("rdb");
  setStandardHeaders(c.res.headers, {
    settings: c.get("settings"),
    urls: c.get("urls"),
    origin: c.req.header("origin"),
    authenticated: c.get("user") !== null && c.get("user") !== undefined,
    method: c.req.method,
    status: c.res.status,
    allow: c.get("allow"),
    bookmark: rdb?.bookmark(),
    trips: rdb?.trips.count,
    noStore: c.get("noStore"),
  });
}

/**
 * Whether an `If-None-Match` header names `etag` (or, with `wildcard`, `*`). `*` matches any
 * current representation, so it may only be answered once the handler has produced a 200: RFC 9110
 * §13.2.1 — a request that would fail (400, 404, …) ignores its preconditions.
 */
export function matchesEtag(header: string | undefined, etag: string, wildcard = false): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return (wildcard && tag === "*") || tag === etag;
  });
}
