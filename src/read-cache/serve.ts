/**
 * The read cache (docs: caching; contract §6): the one path by which an anonymous GET or HEAD is
 * answered from a cache, and by which its answer is tagged and kept. The worker calls `serve` for
 * every request, before routing:
 *
 * ```
 * request ─┬─ not an anonymous GET/HEAD ───────────────────────────────► app
 *          └─ shape (URL → language, base, path, parsed query; remembered per URL)
 *             ├─ version remembered (< CONTENT_VERSION_TTL_MS) and no x-d1-bookmark:
 *             │    tag = digest(version, deployment, settings, strings, shape, clock bucket)
 *             │    ├─ If-None-Match names it ──────────────────────────► 304
 *             │    └─ store.match(tag): isolate, then Cache API ───────► 200 X-Cache: HIT
 *             └─ else: app (its first D1 batch also reads the version: one round trip)
 *                  └─ 200: tag from the version read ─┬─ If-None-Match ► 304
 *                                                      └─ store.put ───► 200 X-Cache: MISS
 * ```
 *
 * `READ_CACHE=off` keeps the tags and 304s but never looks anything up or keeps anything, and the
 * handlers then never read stored renderings: the full path, which the differential test compares
 * with (test/read-cache).
 */
import { sendsNonce } from "../http/auth";
import { matchesEtag, originHeaders, serverTiming, setStandardHeaders } from "../http/headers";
import { keptStrings, loadStrings, type Strings } from "../i18n";
import type { Bindings, Settings } from "../settings";
import {
  entityTag,
  type KeyFacts,
  type RequestShape,
  settingsDigest,
  settingsDigestOf,
  shapeOf,
  stringsDigest,
} from "./key";
import { type Deferred, match, put, type StoredAnswer } from "./store";
import { clock, learnVersion, rememberedVersion } from "./version";

/** What `serve` and the app tell each other about one request (`ticketOf`). */
export interface Ticket {
  /** Whether caches are on (`READ_CACHE`); off, handlers take the full path. */
  readonly cached: boolean;
  /** The content version remembered when `serve` looked (a miss), if any. */
  readonly expected?: number;
  /**
   * The request as the key has it: language, URL builders, and the parsed query the handler's
   * arguments come from (the same object).
   */
  readonly shape: RequestShape;
  /** Set by the app: the content version the answer's data was read at. */
  version?: number;
  /** Set by the app: the body as the handler built it (kept without reading the response back). */
  body?: Uint8Array<ArrayBuffer>;
}

const tickets = new WeakMap<Request, Ticket>();

/** The ticket of a request `serve` handed to the app (none for other requests). */
export const ticketOf = (request: Request): Ticket | undefined => tickets.get(request);

/**
 * Media types kept: JSON and the reference page's HTML, both built whole in memory anyway. A
 * streamed feed (text/calendar) would have to be buffered whole; it still gets its tag and 304s.
 */
const KEPT_TYPES = ["application/json", "text/html"];

/** Headers that depend on the requester or on how the answer was served, not kept. */
const PER_REQUEST = [
  "access-control-allow-origin",
  "access-control-allow-methods",
  "x-d1-bookmark",
  "server-timing",
  "set-cookie",
  "x-cache",
  "date",
];

/** Digests of loaded strings, by the strings object (one per language and period: src/i18n). */
const stringsDigests = new WeakMap<Strings, string>();

/** What every key of this request shares: the code, the settings and the strings. */
async function keyFacts(
  env: Bindings,
  settings: Settings,
  shape: RequestShape,
): Promise<Omit<KeyFacts, "version"> & { strings: Strings }> {
  const strings = await loadStrings(env.STRINGS, shape.lang);
  let digest = stringsDigests.get(strings);
  if (digest === undefined) {
    digest = await stringsDigest(strings);
    stringsDigests.set(strings, digest);
  }
  return {
    strings,
    deployment: env.CF_VERSION_METADATA?.id ?? "",
    settingsDigest: settingsDigestOf(settings) ?? (await settingsDigest(settings)),
    stringsDigest: digest,
  };
}

/** A 304 for `tag`, with the headers the app sends on every answer. */
function notModified(
  request: Request,
  settings: Settings,
  shape: RequestShape,
  tag: string,
  served: { trips: number; bookmark?: string | null },
): Response {
  const headers = new Headers({ ETag: tag });
  setStandardHeaders(headers, {
    settings,
    urls: shape.urls,
    origin: request.headers.get("origin") ?? undefined,
    authenticated: false,
    method: request.method,
    status: 304,
    trips: served.trips,
    bookmark: served.bookmark,
  });
  return new Response(null, { status: 304, headers });
}

/** A kept answer, served: its headers, and those of this requester. */
function fromStore(request: Request, settings: Settings, answer: StoredAnswer): Response {
  const headers = new Headers(answer.headers);
  const origin = request.headers.get("origin");
  if (origin) for (const [name, value] of originHeaders(settings, origin)) headers.set(name, value);
  headers.set("Server-Timing", serverTiming(0));
  headers.set("Date", new Date().toUTCString());
  headers.set("X-Cache", "HIT");
  return new Response(request.method === "HEAD" ? null : answer.body, {
    status: answer.status,
    headers,
  });
}

/** Whether the app's answer may be tagged and kept: a 200 that any cache may store. */
const cacheable = (res: Response) =>
  res.status === 200 && (res.headers.get("cache-control") ?? "").startsWith("public");

/**
 * Answers `request` from the read cache, or through `run` (the app) and keeps the answer.
 * @param ctx where work after the answer goes (sharing with the Cache API).
 */
export async function serve(
  request: Request,
  env: Bindings,
  ctx: Deferred,
  settings: Settings,
  run: (request: Request) => Response | Promise<Response>,
): Promise<Response> {
  if (
    (request.method !== "GET" && request.method !== "HEAD") ||
    request.headers.has("authorization")
  )
    return run(request);
  const shape = shapeOf(settings, request.url);
  // A nonce may make the request a signed-in browser's (cookie authentication, contract §3.1).
  if (!shape || sendsNonce(request.headers, shape.query)) return run(request);
  const cached = settings.readCache;
  const now = clock.now();
  const facts = await keyFacts(env, settings, shape);
  const ifNoneMatch = request.headers.get("if-none-match") ?? undefined;

  let expected: number | undefined;
  if (cached && !request.headers.has("x-d1-bookmark")) {
    const version = rememberedVersion(now, settings.contentVersionTtlMs);
    expected = version;
    if (version !== undefined) {
      const tag = await entityTag(shape, { version, ...facts }, now);
      if (matchesEtag(ifNoneMatch, tag))
        return notModified(request, settings, shape, tag, { trips: 0 });
      const stored = await match(tag, ctx);
      if (stored) return fromStore(request, settings, stored);
    }
  }

  const ticket: Ticket = { shape, cached, expected };
  tickets.set(request, ticket);
  const res = await run(request);
  if (ticket.version !== undefined) learnVersion(ticket.version, now);
  if (ticket.version === undefined || !cacheable(res)) return res;

  const tag = await entityTag(shape, { version: ticket.version, ...facts }, now);
  // `*` matches any current answer, so it is only answered once the handler made a 200 (RFC 9110 §13.2.1).
  if (matchesEtag(ifNoneMatch, tag, true)) {
    await res.body?.cancel();
    const trips = Number(
      /(\d+) round trips/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? 0,
    );
    return notModified(request, settings, shape, tag, {
      trips,
      bookmark: res.headers.get("x-d1-bookmark"),
    });
  }
  res.headers.set("ETag", tag);
  res.headers.set("X-Cache", "MISS");
  const type = (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!cached || request.method !== "GET" || !KEPT_TYPES.includes(type)) return res;
  // Strings read again while the app answered (src/i18n: once a period) may be in the answer: it is
  // not kept under the key of the strings read before.
  if (keptStrings(shape.lang) !== facts.strings) return res;

  const headers = new Headers(res.headers);
  for (const name of PER_REQUEST) headers.delete(name);
  let body: ArrayBuffer;
  const built = ticket.body;
  if (built)
    // The runtime copied the handler's bytes into the response; nothing writes to them any more.
    body =
      built.byteOffset === 0 && built.byteLength === built.buffer.byteLength
        ? built.buffer
        : built.slice().buffer;
  else {
    body = await res.arrayBuffer();
    put(tag, { status: res.status, headers: [...headers], body });
    return new Response(body, res);
  }
  put(tag, { status: res.status, headers: [...headers], body });
  return res;
}
