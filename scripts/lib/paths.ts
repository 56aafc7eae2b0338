/**
 * Where things are, relative to the project root (the scripts may be started from any directory).
 */
import path from "node:path";

/** Absolute path of the project root (the folder holding package.json and wrangler.toml). */
export const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Absolute paths of the files the scripts read or write. */
export const PATHS = {
  wranglerToml: path.join(ROOT, "wrangler.toml"),
  devVars: path.join(ROOT, ".dev.vars"),
  /**
   * The reference page's files as the worker's Text modules (wrangler.toml `[[rules]]`), generated
   * by scripts/lib/reference-assets.ts; not in git.
   */
  referenceFilesDir: path.join(ROOT, "src", "root", "reference", "generated"),
  stringsDir: path.join(ROOT, "src", "i18n", "strings"),
  /** The `node` devDependency's binary (Node 22); wrangler refuses the system Node 20. */
  projectNode: path.join(ROOT, "node_modules", "node", "bin", "node"),
  wranglerBin: path.join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"),
} as const;
