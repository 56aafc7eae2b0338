/**
 * The calendar editor's answers (contract §7.11), loaded by src/index.ts with a dynamic `import()`
 * only for the requests `editorRequest` (./paths.ts) picks: the shell at `/wp-admin/` and
 * `/{lang}/wp-admin/`, and the static files under `/_editor/`. Outside the read cache: the shell
 * is the same for everyone and reads no D1; who is signed in is asked by the page itself.
 */
import type { Settings } from "../settings";
import { editorFile } from "./files";
import { editorRequest } from "./paths";
import { EDITOR_CSP, editorConfig, editorShell } from "./shell";

/** The headers of every shell answer: no script but this origin's, no framing, no sniffing. */
const SHELL_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": EDITOR_CSP,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
  // The strings in it follow KV (contract §1); the page is small.
  "Cache-Control": "no-store",
};

/**
 * The editor's answer to a request, or undefined when it is not one of the editor's (the caller
 * then answers it as any other request: an unknown file is 404 `rest_no_route`).
 * @example await serveEditor(new Request("https://x.test/de/wp-admin/"), env.STRINGS, settings) // the German shell
 */
export async function serveEditor(
  request: Request,
  kv: KVNamespace,
  settings: Settings,
): Promise<Response | undefined> {
  const { pathname } = new URL(request.url);
  const wanted = editorRequest(settings, request.method, pathname);
  if (!wanted) return undefined;
  if (wanted.kind === "file") return editorFile(request);
  // `/wp-admin` and `…/index.php`: the page's one address, so that its links and sign-in's
  // `redirect_to` are always the same.
  const canonical = `${wanted.prefix}/wp-admin/`;
  if (pathname !== canonical)
    return new Response(null, { status: 301, headers: { Location: canonical } });
  const page = editorShell(await editorConfig(kv, settings, wanted.lang, wanted.prefix));
  return new Response(request.method === "HEAD" ? null : page, { headers: SHELL_HEADERS });
}
