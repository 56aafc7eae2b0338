/**
 * Serves the reference page's static files (./assets.ts) from the worker itself:
 * each is a Text module of the bundle (wrangler.toml `[[rules]]`, generated into `./generated/` by
 * scripts/lib/reference-assets.ts). Answered by the pathname alone, after the worker's method
 * override and `?rest_route=` (src/index.ts) and outside the read cache, for anyone, with a strong
 * ETag of the content (304 on `If-None-Match`) and a day of caching; any other name or method under
 * the path is the app's 404 `rest_no_route`, as for any unknown path.
 *
 * Not Workers static assets: their router runs in front of every request of the worker, API
 * requests included (about 0.3 ms and 300 µs of CPU each, locally).
 */
import { sha256Hex } from "../../http/crypto";
import { matchesEtag } from "../../http/headers";
import { REFERENCE_ASSETS_PATH, type ReferenceFile } from "./assets";
import referenceCss from "./generated/reference.css.txt";
import referenceJs from "./generated/reference.js.txt";
import swaggerUiCss from "./generated/swagger-ui.css.txt";
import licence from "./generated/swagger-ui.LICENSE.txt.txt";
import notice from "./generated/swagger-ui.NOTICE.txt.txt";
import bundleLicence from "./generated/swagger-ui-bundle.js.LICENSE.txt.txt";
import swaggerUiBundle from "./generated/swagger-ui-bundle.js.txt";

const TEXT = "text/plain; charset=utf-8";
const CSS = "text/css; charset=utf-8";
const JS = "text/javascript; charset=utf-8";

/** Each file's content and media type. */
const FILES: Record<ReferenceFile, { body: string; type: string }> = {
  "swagger-ui.css": { body: swaggerUiCss, type: CSS },
  "reference.css": { body: referenceCss, type: CSS },
  "swagger-ui-bundle.js": { body: swaggerUiBundle, type: JS },
  "reference.js": { body: referenceJs, type: JS },
  "swagger-ui.LICENSE.txt": { body: licence, type: TEXT },
  "swagger-ui.NOTICE.txt": { body: notice, type: TEXT },
  "swagger-ui-bundle.js.LICENSE.txt": { body: bundleLicence, type: TEXT },
};

/** Entity tags by file, worked out on first use. */
const tags = new Map<string, Promise<string>>();

/**
 * The answer to a GET or HEAD of one of the files, or undefined for anything else under or
 * outside `REFERENCE_ASSETS_PATH` (the app answers it: 404 `rest_no_route`, §10.1).
 * @example await referenceFile(new Request("https://x.test/_reference/reference.js")) // 200, text/javascript
 */
export async function referenceFile(request: Request): Promise<Response | undefined> {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(REFERENCE_ASSETS_PATH)) return undefined;
  const name = pathname.slice(REFERENCE_ASSETS_PATH.length);
  if (!Object.hasOwn(FILES, name)) return undefined;
  const file = FILES[name as ReferenceFile];
  let tag = tags.get(name);
  if (!tag) {
    tag = sha256Hex(file.body).then((hex) => `"${hex.slice(0, 32)}"`);
    tags.set(name, tag);
  }
  const etag = await tag;
  const headers = {
    "X-Content-Type-Options": "nosniff",
    "Content-Type": file.type,
    ETag: etag,
    "Cache-Control": "public, max-age=86400",
  };
  if (matchesEtag(request.headers.get("if-none-match") ?? undefined, etag))
    return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : file.body, { headers });
}
