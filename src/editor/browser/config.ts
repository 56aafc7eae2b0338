/**
 * What the shell hands the editor (src/editor/shell.ts `EditorConfig`): read once from the data
 * block `#editor-config`. `t(key)` is the editor's string `editor.<key>` in the page's language.
 */

import type { EditorConfig } from "../config-shape";

/** The shell's configuration. */
export type Config = EditorConfig;

const block = document.getElementById("editor-config");

/** The page's configuration. */
export const config: Config = JSON.parse(block?.textContent || "{}");

/**
 * The editor string `key` in the page's language (the key itself when missing, so a gap shows).
 * @example t("save") // "Speichern" on /de/wp-admin/
 */
export const t = (key: string): string => config.strings?.[key] ?? key;
