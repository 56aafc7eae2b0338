/**
 * "The limit" for `npm run bench`: a worker on the same runtime (wrangler dev, workerd) that does no
 * work at all, answering with a pre-built JSON body of a requested size.
 *
 *   GET /<bytes>               → 200, `<bytes>` bytes of JSON, `Content-Type: application/json; charset=UTF-8`
 *   GET /<bytes>?status=304    → 304 with an ETag and no body
 *   GET /floor/<bytes>         → "the floor": the same body with the headers the contract puts on an
 *                                anonymous list answer (tec-reference §12.2, contract §6), after the
 *                                least a miss of the real worker must do here: one Workers Cache API
 *                                lookup (a miss) and one D1 round trip (`SELECT 1` through a session)
 *   GET /floor/<bytes>?hit=1   → the same headers, no lookup, no D1: the floor of a hit
 *
 * Bodies are built once per size and kept for the isolate's lifetime.
 */
const bodies = new Map();

/** A JSON text of exactly `size` bytes (ASCII): `{"pad":"xxx…"}`, or `{}` padded with spaces when small. */
function body(size) {
  let text = bodies.get(size);
  if (text === undefined) {
    text =
      size >= 10
        ? `{"pad":"${"x".repeat(size - 10)}"}`
        : size >= 2
          ? "{}".padEnd(size, " ")
          : " ".repeat(size);
    bodies.set(size, text);
  }
  return text;
}

/** The headers of an anonymous list answer (values of the demo calendar's first page). */
const CONTRACT_HEADERS = [
  ["Content-Type", "application/json; charset=UTF-8"],
  ["X-WP-Total", "286"],
  ["X-WP-TotalPages", "24"],
  ["X-TEC-Total", "286"],
  ["X-TEC-TotalPages", "24"],
  [
    "Link",
    '<http://127.0.0.1:8787/wp-json/>; rel="https://api.w.org/", <http://127.0.0.1:8787/wp-json/tribe/events/v1/events/?per_page=12&page=2>; rel="next"',
  ],
  ["Allow", "GET"],
  ["ETag", '"0123456789abcdef0123456789abcdef01234567"'],
  ["X-Cache", "MISS"],
  ["X-Robots-Tag", "noindex"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-TEC-API-VERSION", "v1"],
  ["X-TEC-API-ROOT", "http://127.0.0.1:8787/wp-json/tribe/events/v1/"],
  ["X-TEC-API-ORIGIN", "http://127.0.0.1:8787"],
  [
    "Access-Control-Expose-Headers",
    "X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages, ETag, x-d1-bookmark, Server-Timing, Allow",
  ],
  [
    "Access-Control-Allow-Headers",
    "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, If-None-Match, x-d1-bookmark, X-HTTP-Method-Override",
  ],
  ["Vary", "Origin, X-WP-Nonce"],
  ["Cache-Control", "public, max-age=60, stale-while-revalidate=300"],
  ["Server-Timing", 'd1;desc="1 round trips"'],
];

let lookups = 0;

/** The floor of a miss (module comment): one Cache API lookup, one D1 round trip, the headers. */
async function floor(size, hit, env) {
  if (!hit) {
    await caches.default.match(new Request(`https://floor.invalid/${lookups++}`));
    const session = env.DB.withSession("first-unconstrained");
    await session.batch([session.prepare("SELECT 1")]);
  }
  return new Response(body(size), { headers: CONTRACT_HEADERS });
}

export default {
  fetch(request, env) {
    const url = new URL(request.url);
    const f = /^\/floor\/(\d{1,9})$/.exec(url.pathname);
    if (f) return floor(Number(f[1]), url.searchParams.get("hit") === "1", env);
    const m = /^\/(\d{1,9})$/.exec(url.pathname);
    if (!m)
      return new Response('{"code":"not_found"}', {
        status: 404,
        headers: { "Content-Type": "application/json; charset=UTF-8" },
      });
    if (url.searchParams.get("status") === "304")
      return new Response(null, { status: 304, headers: { ETag: '"static"' } });
    return new Response(body(Number(m[1])), {
      headers: { "Content-Type": "application/json; charset=UTF-8" },
    });
  },
};
