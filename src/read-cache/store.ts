/**
 * Where anonymous answers are kept (docs: caching), both keyed by the entity tag
 * (src/read-cache/key.ts):
 *
 * 1. the isolate's memory: bounded in bytes, least recently used out first; a hit costs no
 *    subrequest at all;
 * 2. the Workers Cache API of the location: an answer goes there when it is asked for again (a
 *    second request for it in this isolate), not when it is made, so answers asked for once (a build
 *    walking the pages, a one-off query) cost no cache write.
 *
 * An entry is exact for its key, so entries are never invalidated: a new key simply stops using them.
 */
import { Memo } from "../lib/memo";

/**
 * An answer as kept: status, the headers that do not depend on the requester (no CORS origin,
 * `Server-Timing`, `X-Cache`, `x-d1-bookmark`), and the body.
 */
export interface StoredAnswer {
  status: number;
  headers: Array<[string, string]>;
  body: ArrayBuffer;
  /** Whether it was put into the Cache API too. */
  shared?: boolean;
}

/** Where work that outlives the answer goes (`waitUntil`); undefined: awaited by nobody. */
export type Deferred = Pick<ExecutionContext, "waitUntil"> | undefined;

/** Bytes kept per isolate (workers have 128 MB). */
const MAX_BYTES = 16 * 1024 * 1024;
/** Larger answers are left to the Cache API only. */
const MAX_ENTRY_BYTES = 1024 * 1024;
/** Seconds an entry may stay in the Cache API (it is exact, so only space limits it). */
const EDGE_TTL = 86_400;
/** Host of the Cache API keys (never resolved). */
export const KEY_HOST = "https://tec-edge-cache.invalid/";

/** The answer's own `Cache-Control`, beside the Cache API's. */
const ANSWER_CACHE_CONTROL = "x-answer-cache-control";

const memory = new Memo<StoredAnswer>(MAX_BYTES, (answer) => answer.body.byteLength);

const edgeCache = (): Cache | undefined =>
  typeof caches !== "undefined" ? (caches as unknown as { default?: Cache }).default : undefined;

const cacheRequest = (tag: string) => new Request(KEY_HOST + tag.slice(1, -1));

/** Puts an answer into the Cache API after the response (once per answer). */
function share(tag: string, answer: StoredAnswer, ctx: Deferred): void {
  if (answer.shared) return;
  answer.shared = true;
  const cache = edgeCache();
  if (!cache) return;
  const copy = new Response(answer.body, { status: answer.status, headers: answer.headers });
  // The Cache API reads Cache-Control as its own expiry: the answer's is kept beside it.
  copy.headers.set(ANSWER_CACHE_CONTROL, copy.headers.get("cache-control") ?? "");
  copy.headers.set("Cache-Control", `public, max-age=${EDGE_TTL}`);
  const put = cache
    .put(cacheRequest(tag), copy)
    .catch((err) => console.error("read cache: Cache API put failed", err));
  ctx?.waitUntil(put);
}

/**
 * The answer kept under `tag`: the isolate's (then shared with the Cache API, since it is asked for
 * again), else the Cache API's (then kept in the isolate too); undefined on a miss.
 */
export async function match(tag: string, ctx: Deferred): Promise<StoredAnswer | undefined> {
  const kept = memory.find(tag);
  if (kept) {
    share(tag, kept, ctx);
    return kept;
  }
  const cache = edgeCache();
  const hit = cache ? await cache.match(cacheRequest(tag)) : undefined;
  if (!hit) return undefined;
  const headers = [...hit.headers].filter(
    ([name]) => name !== "cache-control" && name !== ANSWER_CACHE_CONTROL,
  );
  const sent = hit.headers.get(ANSWER_CACHE_CONTROL);
  if (sent) headers.push(["cache-control", sent]);
  const answer: StoredAnswer = {
    status: hit.status,
    headers,
    body: await hit.arrayBuffer(),
    shared: true,
  };
  put(tag, answer);
  return answer;
}

/** Keeps an answer in the isolate under `tag` (answers above 1 MiB are not kept). */
export function put(tag: string, answer: StoredAnswer): void {
  if (answer.body.byteLength <= MAX_ENTRY_BYTES) memory.set(tag, answer);
}

/** Forgets what the isolate keeps (tests that compare with an empty store). */
export function clearMemory(): void {
  memory.clear();
}
