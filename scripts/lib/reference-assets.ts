/**
 * Writes the reference page's files (contract §7.6) into `src/root/reference/generated/` (not in git) as
 * `<name>.txt`, which the worker imports as Text modules (wrangler.toml `[[rules]]`) and serves
 * itself (src/root/reference/files.ts): Swagger UI's script and styles from the `swagger-ui-dist`
 * package with its licence files, and the page's own script and styles from
 * `src/root/reference/browser/`. Run before `wrangler dev` and `wrangler deploy` (wrangler.toml
 * `[build]`), by `npm start` and by the tests (test/global-setup.ts). (Not Workers static assets:
 * their router runs in front of every request, API requests included.)
 *
 * Idempotent and quick: a file is written only when its content differs, so running it while
 * `wrangler dev` watches the directory causes no reload; files no longer listed are removed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { REFERENCE_FILES } from "../../src/root/reference/assets";
import { PATHS, ROOT } from "./paths";

/** What `buildReferenceAssets` did. */
export interface ReferenceAssets {
  /** The directory the files are in (`src/root/reference/generated`). */
  dir: string;
  /** The swagger-ui-dist version copied. */
  swaggerUiVersion: string;
  /** Names (as served) of the files written because they were new or changed. */
  written: string[];
  /** Names of stale files removed. */
  removed: string[];
}

function swaggerUiDir(): string {
  const require = createRequire(path.join(ROOT, "package.json"));
  try {
    return path.dirname(require.resolve("swagger-ui-dist/package.json"));
  } catch {
    throw new Error("swagger-ui-dist is not installed: run `npm install` first.");
  }
}

/** Every file of the directory: served name → absolute source path. */
function sources(swaggerUi: string): Record<string, string> {
  const own = path.join(ROOT, "src", "root", "reference", "browser");
  const out: Record<string, string> = {
    // Section 4 of the Apache License 2.0: the licence and NOTICE travel with the copied files.
    "swagger-ui.LICENSE.txt": path.join(swaggerUi, "LICENSE"),
    "swagger-ui.NOTICE.txt": path.join(swaggerUi, "NOTICE"),
    "swagger-ui-bundle.js.LICENSE.txt": path.join(swaggerUi, "swagger-ui-bundle.js.LICENSE.txt"),
  };
  for (const name of REFERENCE_FILES)
    out[name] ??= path.join(name.startsWith("swagger-ui") ? swaggerUi : own, name);
  return out;
}

/**
 * Copies the reference page's files into `src/root/reference/generated/` (`<name>.txt`).
 * @throws Error when swagger-ui-dist is not installed or a source file is missing.
 * @example const { written } = buildReferenceAssets(); // ["swagger-ui.css", …] on the first run, [] after
 */
export function buildReferenceAssets(): ReferenceAssets {
  const swaggerUi = swaggerUiDir();
  const dir = PATHS.referenceFilesDir;
  mkdirSync(dir, { recursive: true });
  const files = sources(swaggerUi);
  const written: string[] = [];
  for (const [name, from] of Object.entries(files)) {
    if (!existsSync(from)) throw new Error(`reference page asset ${name}: ${from} is missing`);
    const content = readFileSync(from);
    const to = path.join(dir, `${name}.txt`);
    if (existsSync(to) && readFileSync(to).equals(content)) continue;
    writeFileSync(to, content);
    written.push(name);
  }
  const removed = readdirSync(dir).filter((file) => !(file.replace(/\.txt$/, "") in files));
  for (const name of removed) rmSync(path.join(dir, name), { recursive: true, force: true });
  const { version } = JSON.parse(readFileSync(path.join(swaggerUi, "package.json"), "utf8"));
  return { dir, swaggerUiVersion: String(version), written, removed };
}
