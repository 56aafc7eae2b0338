/**
 * Builds the calendar editor's files (contract §7.11) into `src/editor/generated/` (not in git) as
 * `<name>.txt`, which the worker imports as Text modules (wrangler.toml `[[rules]]`) and serves
 * itself (src/editor/files.ts): `editor.js`, the browser code of `src/editor/browser/` (TSX) with
 * Preact bundled in by esbuild (one ES module, minified, no source map, no network); `editor.css`,
 * the editor's styles; and `preact.LICENSE.txt`, the licence of the bundled library. Run before
 * `wrangler dev` and `wrangler deploy` (wrangler.toml `[build]`, `npm run assets`), by `npm start`
 * and by the tests (test/global-setup.ts).
 *
 * Idempotent: a file is written only when its content differs, so running it while `wrangler dev`
 * watches causes no reload; files no longer built are removed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { ROOT } from "./paths";

/** Where the browser sources are, and where the Text modules go. */
export const EDITOR_DIRS = {
  browser: path.join(ROOT, "src", "editor", "browser"),
  generated: path.join(ROOT, "src", "editor", "generated"),
} as const;

/** What `buildEditorAssets` did. */
export interface EditorAssets {
  /** The Preact version bundled. */
  preactVersion: string;
  /** Served names of the files written because they were new or changed. */
  written: string[];
  /** Names of stale files removed. */
  removed: string[];
  /** Bytes of each served file. */
  sizes: Record<string, number>;
}

function preactDir(): string {
  const require = createRequire(path.join(ROOT, "package.json"));
  try {
    return path.dirname(require.resolve("preact/package.json"));
  } catch {
    throw new Error("preact is not installed: run `npm install` first.");
  }
}

/** The editor's script: `browser/main.tsx` and what it imports, Preact included, as one file. */
async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(EDITOR_DIRS.browser, "main.tsx")],
    bundle: true,
    write: false,
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    jsx: "automatic",
    jsxImportSource: "preact",
    logLevel: "silent",
    absWorkingDir: ROOT,
  });
  return result.outputFiles[0].text;
}

/**
 * Bundles the editor and writes its files into `src/editor/generated/` (`<name>.txt`).
 * @throws Error when preact is missing or the browser code does not compile.
 * @example const { written } = await buildEditorAssets(); // ["editor.js", …] on the first run
 */
export async function buildEditorAssets(): Promise<EditorAssets> {
  const preact = preactDir();
  const files: Record<string, string | Buffer> = {
    "editor.js": await bundle(),
    "editor.css": readFileSync(path.join(EDITOR_DIRS.browser, "editor.css")),
    // The MIT licence asks that its notice go with every copy of the code.
    "preact.LICENSE.txt": readFileSync(path.join(preact, "LICENSE")),
  };
  const dir = EDITOR_DIRS.generated;
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const sizes: Record<string, number> = {};
  for (const [name, content] of Object.entries(files)) {
    const bytes = Buffer.from(content);
    sizes[name] = bytes.length;
    const to = path.join(dir, `${name}.txt`);
    if (existsSync(to) && readFileSync(to).equals(bytes)) continue;
    writeFileSync(to, bytes);
    written.push(name);
  }
  const removed = readdirSync(dir).filter((file) => !(file.replace(/\.txt$/, "") in files));
  for (const name of removed) rmSync(path.join(dir, name), { recursive: true, force: true });
  const { version } = JSON.parse(readFileSync(path.join(preact, "package.json"), "utf8"));
  return { preactVersion: String(version), written, removed, sizes };
}
