/**
 * Conditional requests and the edge cache for anonymous GETs (contract §6, issue 7).
 *
 * The ETag is derived from the content version (bumped in every write batch) and the normalized
 * request — never by hashing a body that was built anyway — so `If-None-Match` is answered with a 304
 * after one tiny D1 read. The same tag keys the Workers Cache API: a hit is served without touching
 * the data; a miss runs the handler (one more round trip) and stores the answer. No stale answer can
 * outlive a write: the next request sees the new version and so a new key.
 */
import { eq } from "drizzle-orm";
import type { Next } from "hono";
import { contentVersion } from "../db/schema";
import { type AppContext, requestQuery } from "./context";
import { sha256Hex } from "./crypto";
import type { ParamBag } from "./params";

/** Query parameters whose meaning moves with the clock (relative dates, "upcoming"). */
const TIME_PARAMS = [
  "start_date",
  "end_date",
  "starts_before",
  "starts_after",
  "ends_before",
  "ends_after",
  "modified_after",
];
const ABSOLUTE_DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/** Seconds an entry may sit in the edge cache (it is exact: keyed by content version). */
const EDGE_TTL = 86_400;
/** Host of the synthetic cache keys (never resolved). */
const KEY_HOST = "https://tec-edge-cache.invalid/";
/** Headers that depend on the requester, re-added per response by `applyResponseHeaders`. */
const PER_REQUEST = [
  "access-control-allow-origin",
  "access-control-allow-credentials",
  "access-control-allow-methods",
  "vary",
  "x-d1-bookmark",
  "server-timing",
  "set-cookie",
];

/**
 * Media types stored in the edge cache: JSON and the reference page's HTML, both built whole in
 * memory anyway. A streamed feed (text/calendar) would have to be buffered whole to be stored,
 * holding back its first byte and its memory; it, like any other type, still gets its ETag and 304s.
 */
const STORED_TYPES = ["application/json", "text/html"];

/** Whether an answer with this `Content-Type` goes into the edge cache. */
export function storable(contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return STORED_TYPES.includes(type);
}

/**
 * The clock reading that an answer depends on: the UTC date (the default event window moves daily),
 * or the minute when the query holds relative dates or asks for upcoming things.
 * @param query the parsed query, exactly as the handler reads it (`requestParams`).
 */
export function clockBucket(query: ParamBag, now: Date): string {
  const minute = Object.entries(query).some(
    ([k, v]) =>
      (TIME_PARAMS.includes(k) && !(typeof v === "string" && ABSOLUTE_DATE.test(v.trim()))) ||
      (k === "only_with_upcoming" && v !== "" && v !== "0" && v !== "false"),
  );
  return now.toISOString().slice(0, minute ? 16 : 10);
}

/** JSON with object keys sorted at every level: one text per meaning of a parsed query. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A strong ETag for an anonymous GET: content version, language, path, clock bucket and the query
 * **as the handler reads it** (issue 20: PHP-style parsing, the last of repeated keys wins), so a
 * tag or cache entry can never stand for an answer with other arguments.
 */
export async function entityTag(version: number, c: AppContext, now: Date): Promise<string> {
  const url = new URL(c.req.url);
  const query = requestQuery(c);
  const normalized = [
    version,
    c.get("lang"),
    c.get("urls").namespaceRoot,
    url.pathname.replace(/\/+$/, ""),
    canonical(query),
    clockBucket(query, now),
  ].join("\n");
  return `"${(await sha256Hex(normalized)).slice(0, 40)}"`;
}

/**
 * Whether an `If-None-Match` header names `etag` (or, with `wildcard`, `*`).
 * `*` matches any current representation, so it may only be answered once the handler has produced
 * a 200: RFC 9110 §13.2.1 — a request that would fail (400, 404, …) ignores its preconditions.
 */
export function matchesEtag(header: string | undefined, etag: string, wildcard = false): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return (wildcard && tag === "*") || tag === etag;
  });
}

/**
 * Middleware body for anonymous GET/HEAD requests: 304 on a matching `If-None-Match`, a cached copy
 * when the edge cache has one, else the handler's answer (stored for the next request).
 */
export async function serveAnonymousGet(c: AppContext, next: Next): Promise<void> {
  const { db } = c.get("rdb");
  const rows = await db
    .select({ version: contentVersion.version })
    .from(contentVersion)
    .where(eq(contentVersion.id, 1));
  const version = rows[0]?.version ?? 0;
  c.set("contentVersion", version);
  const etag = await entityTag(version, c, new Date());
  if (matchesEtag(c.req.header("if-none-match"), etag)) {
    c.res = new Response(null, { status: 304, headers: { ETag: etag } });
    return;
  }
  const cache =
    typeof caches !== "undefined" ? (caches as unknown as { default?: Cache }).default : undefined;
  const key = new Request(KEY_HOST + etag.slice(1, -1));
  const hit = cache ? await cache.match(key) : undefined;
  if (hit) {
    const res = new Response(c.req.method === "HEAD" ? null : hit.body, hit);
    res.headers.set("X-Cache", "HIT");
    c.res = res;
    return;
  }
  await next();
  if (c.res.status !== 200) return;
  if (matchesEtag(c.req.header("if-none-match"), etag, true)) {
    c.res = new Response(null, { status: 304, headers: { ETag: etag } });
    return;
  }
  c.res.headers.set("ETag", etag);
  c.res.headers.set("X-Cache", "MISS");
  if (!cache || c.req.method !== "GET" || !storable(c.res.headers.get("content-type"))) return;
  const stored = new Response(c.res.clone().body, c.res);
  for (const name of PER_REQUEST) stored.headers.delete(name);
  stored.headers.set("Cache-Control", `public, max-age=${EDGE_TTL}`);
  const put = cache.put(key, stored).catch((err) => console.error("edge cache put failed", err));
  try {
    c.executionCtx.waitUntil(put);
  } catch {
    await put;
  }
}
