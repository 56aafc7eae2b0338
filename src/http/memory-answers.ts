/**
 * Anonymous repeats answered from memory before any routing (contract §6, issue 16): a GET or HEAD
 * without credentials or `x-d1-bookmark`, for a URL this isolate has answered 200 (src/http/known-urls.ts),
 * while the content version it knows is fresh (`CONTENT_VERSION_TTL_MS`, src/http/content-version.ts):
 *
 * - `If-None-Match` naming the current tag → 304;
 * - else the answer kept in the isolate under that tag (src/http/answer-cache.ts) → 200, `X-Cache: HIT`.
 *
 * No parsing, no routing, no database: the answer's headers were worked out when it was stored. The
 * headers are those the app would send for the same request (`setStandardHeaders`); the
 * `Server-Timing` says 0 round trips and there is no `x-d1-bookmark` (README). Anything else goes
 * to the app, whose `serveAnonymousGet` also looks in the Workers Cache API.
 */
import type { Settings } from "../settings";
import { recall, type StoredAnswer } from "./answer-cache";
import { rememberedVersion } from "./content-version";
import { type Deferred, matchesEtag, share } from "./edge-cache";
import { originHeaders, serverTiming, setStandardHeaders } from "./headers";
import { bucketOf, type KnownUrl, knownTag, knownUrl } from "./known-urls";

const NO_TRIPS: [string, string] = ["Server-Timing", serverTiming(0)];

/** Every header of a hit on `answer` for a request without `Origin`. */
function finalHeaders(answer: StoredAnswer, entry: KnownUrl, settings: Settings) {
  const h = new Headers(answer.headers);
  h.set("X-Cache", "HIT");
  setStandardHeaders(h, {
    settings,
    urls: entry.urls,
    authenticated: false,
    method: "GET",
    status: answer.status,
    trips: 0,
  });
  return [...h];
}

/**
 * The answer to `request` from memory, or undefined when the app must answer it.
 * @param ctx where sharing a repeated answer with the Workers Cache API goes (`share`).
 */
export function answerFromMemory(
  request: Request,
  settings: Settings,
  ctx: Deferred,
): Response | undefined {
  const method = request.method;
  if (method !== "GET" && method !== "HEAD") return undefined;
  const h = request.headers;
  if (h.has("authorization") || h.has("x-d1-bookmark")) return undefined;
  const entry = knownUrl(settings, request.url);
  if (!entry?.notModified) return undefined;
  const now = Date.now();
  const version = rememberedVersion(now, settings.contentVersionTtlMs);
  if (version === undefined) return undefined;
  const etag = knownTag(entry, version, bucketOf(entry, now));
  if (!etag) return undefined;
  const origin = h.get("origin");
  if (matchesEtag(h.get("if-none-match") ?? undefined, etag)) {
    const headers = [...entry.notModified, ["ETag", etag], NO_TRIPS];
    if (origin) headers.push(...originHeaders(settings, origin));
    return new Response(null, { status: 304, headers });
  }
  const stored = recall(etag);
  if (!stored) return undefined;
  share(ctx, etag, stored);
  stored.final ??= finalHeaders(stored, entry, settings);
  return new Response(method === "HEAD" ? null : stored.body, {
    status: stored.status,
    headers: origin ? [...stored.final, ...originHeaders(settings, origin)] : stored.final,
  });
}
