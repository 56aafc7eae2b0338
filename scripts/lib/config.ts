/**
 * The settings the local worker will run with: wrangler.toml `[vars]`, overridden by `.dev.vars`
 * (as `wrangler dev` does), validated by the worker's own `parseSettings`.
 */
import { existsSync, readFileSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import { parseSettings, type Settings } from "../../src/settings";
import { PATHS } from "./paths";

/**
 * The `[vars]` table of wrangler.toml, values as TOML gives them (wrangler passes non-strings to the
 * worker as JSON values; `parseSettings` reads them with `String()`).
 * @throws Error when the file is missing or is not valid TOML (the parser's message names line and column).
 */
export function readWranglerVars(file: string = PATHS.wranglerToml): Record<string, unknown> {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const vars = doc.vars;
  if (vars === undefined) return {};
  if (typeof vars !== "object" || vars === null || Array.isArray(vars))
    throw new Error(`${file}: [vars] must be a table`);
  return vars as Record<string, unknown>;
}

/**
 * Parses a `.dev.vars` (dotenv) file: `KEY=value` lines, `#` comments, optional `export `, values
 * optionally in single or double quotes (double quotes understand `\n`). Missing file → `{}`.
 */
export function readDevVars(file: string = PATHS.devVars): Record<string, string> {
  if (!existsSync(file)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    let value = m[2];
    const quoted = /^(["'])(.*)\1$/.exec(value);
    if (quoted) value = quoted[1] === '"' ? quoted[2].replace(/\\n/g, "\n") : quoted[2];
    else value = value.replace(/\s+#.*$/, "");
    out[m[1]] = value;
  }
  return out;
}

/**
 * The validated settings of the local worker (`[vars]` + `.dev.vars` + `overrides`, the
 * `npm start -- --var NAME:VALUE` settings, in that order as `wrangler dev` applies them), or of
 * the deployed one when `remote` (only `[vars]`; its secrets are not known here).
 * @throws SettingsError naming the first bad variable (message as the worker would log it).
 */
export function readSettings(
  options: { remote?: boolean; overrides?: Record<string, string> } = {},
): Settings {
  const vars = readWranglerVars();
  return parseSettings(
    options.remote ? vars : { ...vars, ...readDevVars(), ...(options.overrides ?? {}) },
  );
}
