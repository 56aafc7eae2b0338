/**
 * The editor's HTML shell (contract §7.11): one page per language that loads the editor's script
 * and styles (./files.ts) and hands them, in a JSON data block (`<script type="application/json">`,
 * which no browser executes, so the strict Content-Security-Policy allows it), the editor's strings
 * of that language (`editor.*`, KV strings as the API's messages) and where to find the API,
 * sign-in and sign-out (contract §3.1). Everything else happens in the browser through the public
 * REST API.
 */
import { escapeUTF8 } from "entities";
import { loadStrings, type Strings, text } from "../i18n";
import type { Settings } from "../settings";
import type { EditorConfig } from "./config-shape";
import { EDITOR_ASSETS_PATH } from "./paths";

export type { EditorConfig } from "./config-shape";

/** The shell's Content-Security-Policy: nothing but this origin's files, nothing inline. */
export const EDITOR_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' https: data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** JSON that cannot end the `<script>` element it sits in (`<` escaped). */
const dataBlock = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** HTML text escaping, also for attribute values in quotes (`entities`). */
const escapeHtml = escapeUTF8;

function editorStrings(strings: Strings): Record<string, string> {
  const section = strings.editor;
  const out: Record<string, string> = {};
  if (section && typeof section === "object")
    for (const [key, value] of Object.entries(section))
      if (typeof value === "string") out[key] = value;
  return out;
}

/**
 * The shell's configuration for one language.
 * @param prefix the language's path prefix (`""` for the default language, else `/de`).
 */
export async function editorConfig(
  kv: KVNamespace,
  settings: Settings,
  lang: string,
  prefix: string,
): Promise<EditorConfig> {
  const strings = await loadStrings(kv, lang);
  const languages = await Promise.all(
    settings.languages.map(async (code) => ({
      code,
      name: text(await loadStrings(kv, code), "reference.language"),
      path: `/${code}/wp-admin/`,
    })),
  );
  return {
    lang,
    apiRoot: `${prefix}/${settings.restPrefix}/`,
    namespace: `${settings.vendor}/events/v1`,
    editorPath: `${prefix}/wp-admin/`,
    loginPath: `${prefix}/wp-login.php`,
    noncePath: "/wp-admin/admin-ajax.php?action=rest-nonce",
    languages,
    strings: editorStrings(strings),
  };
}

/**
 * The shell page (`text/html`) for a configuration.
 * @example editorShell(await editorConfig(env.STRINGS, settings, "de", "/de"))
 */
export function editorShell(config: EditorConfig): string {
  const title = escapeHtml(config.strings.title ?? "");
  const asset = (name: string) => `${EDITOR_ASSETS_PATH}${name}`;
  return `<!doctype html>
<html lang="${escapeHtml(config.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title}</title>
<link rel="stylesheet" href="${asset("editor.css")}">
</head>
<body>
<div id="app"><p class="boot">${escapeHtml(config.strings.loading ?? "")}</p></div>
<noscript><p>${escapeHtml(config.strings.noscript ?? "")}</p></noscript>
<script type="application/json" id="editor-config">${dataBlock(config)}</script>
<script type="module" src="${asset("editor.js")}"></script>
</body>
</html>
`;
}
