/**
 * The editor's static files (contract §7.11): its script and styles, bundled by
 * scripts/lib/editor-assets.ts from `./browser/` and the `preact` package, and Preact's licence.
 * Each is a Text module (wrangler.toml `[[rules]]`) generated into `./generated/` and imported
 * dynamically on its first request; this module itself is only ever loaded through the dynamic
 * `import()` of src/index.ts, so API requests load none of it.
 * Served by pathname with a strong ETag of the content (304 on `If-None-Match`); `no-cache` so that
 * a deploy's new script is used at once (a revalidation is a 304 without a body).
 */
import { sha256Hex } from "../http/crypto";
import { matchesEtag } from "../http/headers";
import { EDITOR_ASSETS_PATH } from "./paths";

/** A Text module's namespace: its content is the default export. */
type TextModule = Promise<{ default: string }>;

/**
 * Each file's media type and its Text module, imported on first request for it: a dynamic
 * `import()` of a Text module stays one in the bundle wrangler uploads, so the worker's main module
 * neither holds nor links the editor's files.
 */
const EDITOR_FILES: Record<string, { type: string; load: () => TextModule }> = {
  "editor.js": {
    type: "text/javascript; charset=utf-8",
    load: () => import("./generated/editor.js.txt"),
  },
  "editor.css": {
    type: "text/css; charset=utf-8",
    load: () => import("./generated/editor.css.txt"),
  },
  "preact.LICENSE.txt": {
    type: "text/plain; charset=utf-8",
    load: () => import("./generated/preact.LICENSE.txt.txt"),
  },
};

/** Each file's content and strong ETag (`"` + 32 hex digits of its SHA-256 + `"`), once loaded. */
const loaded = new Map<string, Promise<{ body: string; etag: string }>>();

function load(name: string): Promise<{ body: string; etag: string }> {
  let file = loaded.get(name);
  if (!file) {
    file = EDITOR_FILES[name].load().then(async ({ default: body }) => ({
      body,
      etag: `"${(await sha256Hex(body)).slice(0, 32)}"`,
    }));
    // A failed load is tried again by the next request.
    file.catch(() => loaded.delete(name));
    loaded.set(name, file);
  }
  return file;
}

/**
 * The answer to a GET or HEAD of one of the files, or undefined for another name (the app answers
 * it: 404 `rest_no_route`, §10.1).
 * @example await editorFile(new Request("https://x.test/_editor/editor.js")) // 200, text/javascript
 */
export async function editorFile(request: Request): Promise<Response | undefined> {
  const name = new URL(request.url).pathname.slice(EDITOR_ASSETS_PATH.length);
  if (!Object.hasOwn(EDITOR_FILES, name)) return undefined;
  const { body, etag } = await load(name);
  const headers = {
    "X-Content-Type-Options": "nosniff",
    "Content-Type": EDITOR_FILES[name].type,
    ETag: etag,
    "Cache-Control": "no-cache",
  };
  if (matchesEtag(request.headers.get("if-none-match") ?? undefined, etag))
    return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : body, { headers });
}
