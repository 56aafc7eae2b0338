/**
 * Which requests are the calendar editor's (contract §7.11), decided from the path alone so that
 * src/index.ts can send them to the editor's module — loaded with a dynamic `import()` — and every
 * other request never loads it. Kept tiny: every request of the worker passes through
 * `editorRequest`.
 */
import type { Settings } from "../settings";

/** URL path of the editor's static files (script, styles, licences), with trailing slash. */
export const EDITOR_ASSETS_PATH = "/_editor/";

/** What an editor request asks for: the shell in a language, or one of the static files. */
export type EditorRequest = { kind: "shell"; lang: string; prefix: string } | { kind: "file" };

/**
 * The editor request a method and path make, or undefined for every other request: GET or HEAD of
 * `/wp-admin/` (the default language) or `/{lang}/wp-admin/` (with or without the trailing slash,
 * or as `…/wp-admin/index.php`, as WordPress answers it), or of a file under `EDITOR_ASSETS_PATH`.
 * Other `wp-admin` paths (`admin-ajax.php`, `authorize-application.php`) are the app's.
 * @example editorRequest(settings, "GET", "/de/wp-admin/") // { kind: "shell", lang: "de", prefix: "/de" }
 */
export function editorRequest(
  settings: Settings,
  method: string,
  pathname: string,
): EditorRequest | undefined {
  if (method !== "GET" && method !== "HEAD") return undefined;
  if (pathname.startsWith(EDITOR_ASSETS_PATH)) return { kind: "file" };
  const m = /^(?:\/([^/]+))?\/wp-admin(?:\/|\/index\.php)?$/.exec(pathname);
  if (!m) return undefined;
  if (m[1] === undefined) return { kind: "shell", lang: settings.defaultLanguage, prefix: "" };
  return settings.languages.includes(m[1])
    ? { kind: "shell", lang: m[1], prefix: `/${m[1]}` }
    : undefined;
}
