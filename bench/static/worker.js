/**
 * "The limit" for `npm run bench`: a worker on the same runtime (wrangler dev, workerd) that does no
 * work at all, answering with a pre-built JSON body of a requested size.
 *
 *   GET /<bytes>               → 200, `<bytes>` bytes of JSON, `Content-Type: application/json; charset=UTF-8`
 *   GET /<bytes>?status=304    → 304 with an ETag and no body
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

export default {
  fetch(request) {
    const url = new URL(request.url);
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
