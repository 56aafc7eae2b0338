/**
 * Conditional requests and the edge cache for anonymous GETs (contract §6, issues 7 and 16).
 *
 * The ETag is derived from the content version (bumped by every write anonymous readers can see)
 * and the normalized request — never by hashing a body that was built anyway. The same tag keys the
 * isolate's own store (src/http/answer-cache.ts) and the Workers Cache API. With the version in
 * memory (src/http/content-version.ts), 304s and hits touch no database; a miss runs the handler,
 * whose batch reads the version too (one round trip). A stored answer is keyed by the version its data
 * was read at, so none can stand for a later version; a reader sees a write at most
 * `CONTENT_VERSION_TTL_MS` late.
 */
import { eq } from "drizzle-orm";
import type { Next } from "hono";
import { contentVersion } from "../db/schema";
import { keep, recall, type StoredAnswer } from "./answer-cache";
import { learnVersion, rememberedVersion } from "./content-version";
import { type AppContext, requestQuery } from "./context";
import { sha256Hex } from "./crypto";
import { Memo } from "./memo";
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

/** Whether an answer moves with the minute: the query holds relative dates or asks for upcoming things. */
function movesByMinute(query: ParamBag): boolean {
  return Object.entries(query).some(
    ([k, v]) =>
      (TIME_PARAMS.includes(k) && !(typeof v === "string" && ABSOLUTE_DATE.test(v.trim()))) ||
      (k === "only_with_upcoming" && v !== "" && v !== "0" && v !== "false"),
  );
}

/**
 * The clock reading that an answer depends on: the UTC date (the default event window moves daily),
 * or the minute when the query holds relative dates or asks for upcoming things.
 * @param query the parsed query, exactly as the handler reads it (`requestParams`).
 */
export function clockBucket(query: ParamBag, now: Date): string {
  return now.toISOString().slice(0, movesByMinute(query) ? 16 : 10);
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

/** What an entity tag depends on besides the version and the clock: one per request shape. */
interface TagShape {
  /** Language, namespace root, path and the canonical parsed query, one per line. */
  text: string;
  movesByMinute: boolean;
}

/** Longest query string whose shape is remembered (longer ones are parsed every time). */
const MAX_REMEMBERED_SEARCH = 1024;
/** Request shapes by language, namespace root, path and raw query string (issue 16: parsing was ~8% of a hit). */
const shapes = new Memo<TagShape>(1024);
/** Entity tags by their normalized input (a SHA-256 per hit was ~6% of it). */
const tags = new Memo<Promise<string>>(1024);

/** The request's `TagShape`, remembered for short query strings. */
function tagShape(c: AppContext, url: URL): TagShape {
  const make = (): TagShape => {
    const query = requestQuery(c);
    return {
      text: [
        c.get("lang"),
        c.get("urls").namespaceRoot,
        url.pathname.replace(/\/+$/, ""),
        canonical(query),
      ].join("\n"),
      movesByMinute: movesByMinute(query),
    };
  };
  if (url.search.length > MAX_REMEMBERED_SEARCH) return make();
  const key = [c.get("lang"), c.get("urls").namespaceRoot, url.pathname, url.search].join("\n");
  return shapes.get(key, make);
}

/**
 * A strong ETag for an anonymous GET: content version, language, path, clock bucket and the query
 * **as the handler reads it** (issue 20: PHP-style parsing, the last of repeated keys wins), so a
 * tag or cache entry can never stand for an answer with other arguments. The parse and the digest
 * are remembered per request shape and per input, as both are pure functions of them.
 */
export function entityTag(version: number, c: AppContext, now: Date): Promise<string> {
  const url = c.get("url") ?? new URL(c.req.url);
  const shape = tagShape(c, url);
  const bucket = now.toISOString().slice(0, shape.movesByMinute ? 16 : 10);
  const normalized = `${version}\n${shape.text}\n${bucket}`;
  return tags.get(normalized, () => sha256Hex(normalized).then((hex) => `"${hex.slice(0, 40)}"`));
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

/** A 304 for `etag`. */
const notModified = (etag: string) => new Response(null, { status: 304, headers: { ETag: etag } });

/** The answer for a stored copy: its bytes (none for HEAD), marked as a hit. */
function fromStore(method: string, answer: StoredAnswer): Response {
  const res = new Response(method === "HEAD" ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
  res.headers.set("X-Cache", "HIT");
  return res;
}

const edgeCache = (): Cache | undefined =>
  typeof caches !== "undefined" ? (caches as unknown as { default?: Cache }).default : undefined;

/** A stored copy of the answer tagged `etag`: the isolate's own first, then the Workers Cache API. */
async function lookup(etag: string): Promise<StoredAnswer | undefined> {
  const kept = recall(etag);
  if (kept) return kept;
  const cache = edgeCache();
  const hit = cache ? await cache.match(new Request(KEY_HOST + etag.slice(1, -1))) : undefined;
  if (!hit) return undefined;
  const answer: StoredAnswer = {
    status: hit.status,
    headers: [...hit.headers].filter(([name]) => name !== "cache-control"),
    body: await hit.arrayBuffer(),
  };
  keep(etag, answer);
  return answer;
}

/**
 * Middleware body for anonymous GET/HEAD requests (contract §6, issue 16).
 *
 * - While this isolate knows the content version (read less than `CONTENT_VERSION_TTL_MS` ago:
 *   src/http/content-version.ts), a matching `If-None-Match` is a 304 and a stored copy (this
 *   isolate's, else the Workers Cache API's) is served — with no D1 round trip at all.
 * - Otherwise, and for every miss, the handler runs and its first D1 batch also reads the content
 *   version, in the same round trip and snapshot: a miss costs one round trip. The answer is tagged
 *   and stored under the version its data was read at, never under a version it may not reflect.
 * - Requests with an `x-d1-bookmark` always run the handler (read-your-writes).
 */
export async function serveAnonymousGet(c: AppContext, next: Next): Promise<void> {
  const rdb = c.get("rdb");
  const now = Date.now();
  const ifNoneMatch = c.req.header("if-none-match");
  const remembered = c.req.header("x-d1-bookmark")
    ? undefined
    : rememberedVersion(now, c.get("settings").contentVersionTtlMs);
  if (remembered !== undefined) {
    c.set("contentVersion", remembered);
    const etag = await entityTag(remembered, c, new Date(now));
    if (matchesEtag(ifNoneMatch, etag)) {
      c.res = notModified(etag);
      return;
    }
    const stored = await lookup(etag);
    if (stored) {
      c.res = fromStore(c.req.method, stored);
      return;
    }
  }

  rdb.carryVersion();
  await next();
  let version = rdb.versionRead();
  if (c.res.status !== 200) {
    if (version !== undefined) learnVersion(version, now);
    return;
  }
  // A route that reads no data (the index, /doc) made no batch to carry the version.
  version ??=
    (
      await rdb.db
        .select({ version: contentVersion.version })
        .from(contentVersion)
        .where(eq(contentVersion.id, 1))
    )[0]?.version ?? 0;
  learnVersion(version, now);
  const etag = await entityTag(version, c, new Date(now));
  if (matchesEtag(ifNoneMatch, etag, true)) {
    c.res = notModified(etag);
    return;
  }
  c.res.headers.set("ETag", etag);
  c.res.headers.set("X-Cache", "MISS");
  if (c.req.method !== "GET" || !storable(c.res.headers.get("content-type"))) return;
  const headers = new Headers(c.res.headers);
  for (const name of PER_REQUEST) headers.delete(name);
  // The route's `Allow` for anonymous users (§12.2): a hit runs no route middleware to say it.
  const allowed = c.get("allow");
  if (allowed) headers.set("Allow", allowed.join(", "));
  const answer: StoredAnswer = {
    status: c.res.status,
    headers: [...headers],
    body: await c.res.clone().arrayBuffer(),
  };
  keep(etag, answer);
  const cache = edgeCache();
  if (!cache) return;
  const copy = new Response(answer.body, { status: answer.status, headers: answer.headers });
  copy.headers.set("Cache-Control", `public, max-age=${EDGE_TTL}`);
  const put = cache
    .put(new Request(KEY_HOST + etag.slice(1, -1)), copy)
    .catch((err) => console.error("edge cache put failed", err));
  try {
    c.executionCtx.waitUntil(put);
  } catch {
    await put;
  }
}
