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
import { type AppContext, executionContext } from "./context";
import { answered, entityTag, knowUrl } from "./known-urls";

/** Seconds an entry may sit in the edge cache (it is exact: keyed by content version). */
const EDGE_TTL = 86_400;
/** Host of the synthetic cache keys (never resolved). */
export const KEY_HOST = "https://tec-edge-cache.invalid/";
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

/** Where work that outlives the answer goes (`waitUntil`; awaited where there is no context, e.g. in Node). */
export type Deferred = Pick<ExecutionContext, "waitUntil"> | undefined;

/**
 * Puts a stored answer into the Workers Cache API too, after the response (once per answer): it
 * is being asked for again, so other isolates of the location may want it as well.
 */
export function share(ctx: Deferred, etag: string, answer: StoredAnswer): void {
  if (answer.shared) return;
  answer.shared = true;
  const cache = edgeCache();
  if (!cache) return;
  const copy = new Response(answer.body, { status: answer.status, headers: answer.headers });
  copy.headers.set("Cache-Control", `public, max-age=${EDGE_TTL}`);
  const put = cache
    .put(new Request(KEY_HOST + etag.slice(1, -1)), copy)
    .catch((err) => console.error("edge cache put failed", err));
  if (ctx) ctx.waitUntil(put);
}

/**
 * A stored copy of the answer tagged `etag`: the isolate's own first (shared with the Cache API on
 * this second request for it), then the Workers Cache API's.
 */
async function lookup(c: AppContext, etag: string): Promise<StoredAnswer | undefined> {
  const kept = recall(etag);
  if (kept) {
    share(executionContext(c), etag, kept);
    return kept;
  }
  const cache = edgeCache();
  const hit = cache ? await cache.match(new Request(KEY_HOST + etag.slice(1, -1))) : undefined;
  if (!hit) return undefined;
  const answer: StoredAnswer = {
    status: hit.status,
    headers: [...hit.headers].filter(([name]) => name !== "cache-control"),
    body: await hit.arrayBuffer(),
    shared: true,
  };
  keep(etag, answer);
  return answer;
}

/**
 * Middleware body for anonymous GET/HEAD requests (contract §6, issue 16) that
 * `src/http/memory-answers.ts` could not answer before routing.
 *
 * - While this isolate knows the content version (read less than `CONTENT_VERSION_TTL_MS` ago:
 *   src/http/content-version.ts), a matching `If-None-Match` is a 304 and a stored copy (this
 *   isolate's, else the Workers Cache API's) is served — with no D1 round trip at all.
 * - Otherwise, and for every miss, the handler runs and its first D1 batch also reads the content
 *   version, in the same round trip and snapshot: a miss costs one round trip. The answer is tagged
 *   and kept in the isolate under the version its data was read at, never under a version it may
 *   not reflect; it goes to the Workers Cache API when it is asked for again (`share`).
 * - Requests with an `x-d1-bookmark` always run the handler (read-your-writes).
 */
export async function serveAnonymousGet(c: AppContext, next: Next): Promise<void> {
  const rdb = c.get("rdb");
  const now = c.get("nowMs");
  const ifNoneMatch = c.req.header("if-none-match");
  const entry = knowUrl(c);
  const remembered = c.req.header("x-d1-bookmark")
    ? undefined
    : rememberedVersion(now, c.get("settings").contentVersionTtlMs);
  if (remembered !== undefined) {
    c.set("contentVersion", remembered);
    const etag = await entityTag(entry, remembered, now);
    if (matchesEtag(ifNoneMatch, etag)) {
      c.res = notModified(etag);
      return;
    }
    const stored = await lookup(c, etag);
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
  const etag = await entityTag(entry, version, now);
  answered(entry, c);
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
  // The bytes the handler built (the runtime copied them into the response, so they are kept as
  // they are: nothing writes to them); else the body read once and answered from the same bytes.
  const built = c.get("body");
  let body: ArrayBuffer;
  if (built)
    body =
      built.byteOffset === 0 && built.byteLength === built.buffer.byteLength
        ? built.buffer
        : built.slice().buffer;
  else {
    body = await c.res.arrayBuffer();
    c.res = new Response(body, c.res);
  }
  keep(etag, { status: c.res.status, headers: [...headers], body });
}
