/**
 * What the editor's shell hands its browser code in the data block `#editor-config` (contract
 * §7.11): written by src/editor/shell.ts, read by src/editor/browser/config.ts. No imports, so that
 * both the worker and the browser code type-check against this one declaration.
 */
export interface EditorConfig {
  /** The page's language (`de`). */
  lang: string;
  /** The API root of that language, a path with trailing slash (`/de/wp-json/`). */
  apiRoot: string;
  /** The events namespace (`tribe/events/v1`). */
  namespace: string;
  /** This page's path (`/de/wp-admin/`): where sign-in sends the user back to. */
  editorPath: string;
  /** WordPress's sign-in page in the language (`/de/wp-login.php`, contract §3.1). */
  loginPath: string;
  /** The REST nonce of the signed-in user (`/wp-admin/admin-ajax.php?action=rest-nonce`). */
  noncePath: string;
  /** The editor in every language: code, the language's own name, path. */
  languages: Array<{ code: string; name: string; path: string }>;
  /** The `editor.*` strings of the language, without the prefix. */
  strings: Record<string, string>;
}
