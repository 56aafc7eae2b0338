/**
 * `npm run pack:packages`: the tarballs of `packages/` as `npm publish` would upload them, checked
 * first (contract §7.10): the manifests, READMEs and changelogs (packages.ts), then
 * `npm publish --dry-run`, which must warn about nothing but the missing login, and whose file
 * lists must hold every file the manifests point at and no test. `dist/` is built first
 * (`tsc -b packages`; each package's `prepack` does the same for an `npm publish` by hand).
 */
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { type Manifest, PACKAGE_DIRS, packageProblems, readWorkspace } from "./packages";
import { ROOT } from "./paths";

const exec = promisify(execFile);

/** One tarball written. */
export interface Packed {
  name: string;
  version: string;
  /** Absolute path of the `.tgz`. */
  file: string;
  /** Paths inside the package (`dist/index.js`, …). */
  files: string[];
  /** Bytes of the tarball. */
  size: number;
}

/** The packages are not fit to publish; `problems` says why, one line each. */
export class PackError extends Error {
  constructor(readonly problems: string[]) {
    super(`the packages are not ready to publish:\n  ${problems.join("\n  ")}`);
    this.name = "PackError";
  }
}

/** The environment without the `npm_*` variables of an `npm run` around us (e.g. its loglevel). */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

/** Runs npm in `root` on every package (`--workspace packages/…`); stdout parsed as JSON. */
async function npm(root: string, args: string[]): Promise<{ json: unknown; stderr: string }> {
  const workspaces = PACKAGE_DIRS.flatMap((dir) => ["--workspace", `packages/${dir}`]);
  const { stdout, stderr } = await exec("npm", [...args, ...workspaces, "--json"], {
    cwd: root,
    env: npmEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
  return { json: JSON.parse(stdout), stderr };
}

/** Every file a manifest points at (`main`, `types`, the targets of `exports`), without `./`. */
export function pointedAt(manifest: Manifest): string[] {
  const out = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value === "string") out.add(value.replace(/^\.\//, ""));
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk([manifest.main, manifest.types, manifest.exports]);
  return [...out];
}

/** What is wrong with one package's file list as `npm publish` would upload it. */
export function fileListProblems(manifest: Manifest, files: string[]): string[] {
  const have = new Set(files);
  const needed = ["package.json", "README.md", "CHANGELOG.md", "LICENSE", ...pointedAt(manifest)];
  return [
    ...needed
      .filter((f) => !have.has(f))
      .map((f) => `${manifest.name}: ${f} is not in the tarball`),
    ...files
      .filter((f) => /\.test\.|\.tsbuildinfo$|(^|\/)node_modules\//.test(f))
      .map((f) => `${manifest.name}: ${f} should not be in the tarball`),
  ];
}

/**
 * Checks the packages and writes their tarballs into `out` (created when missing).
 * @param root the repository (default: this one).
 * @returns the tarballs, the client's first.
 * @throws PackError naming every problem found before anything is written; Error when npm fails.
 */
export async function packPackages(out: string, root = ROOT): Promise<Packed[]> {
  const ws = readWorkspace(root);
  const problems = packageProblems(ws);
  if (problems.length) throw new PackError(problems);

  // Built here, so that npm's own run of `prepack` (its banner on stdout) is not needed.
  await exec(path.join(root, "node_modules", ".bin", "tsc"), ["-b", "packages"], { cwd: root });
  const dry = await npm(root, ["publish", "--dry-run", "--ignore-scripts", "--loglevel=warn"]);
  const warnings = dry.stderr
    .split("\n")
    .filter((line) => /^npm warn/.test(line) && !/requires you to be logged in/.test(line));
  problems.push(...warnings.map((w) => `npm publish --dry-run: ${w}`));
  const lists = dry.json as Record<string, { files: { path: string }[] }>;
  for (const { manifest } of ws.packages)
    problems.push(
      ...fileListProblems(manifest, lists[manifest.name]?.files.map((f) => f.path) ?? []),
    );
  if (problems.length) throw new PackError(problems);

  const dir = path.resolve(out);
  mkdirSync(dir, { recursive: true });
  const packed = await npm(root, [
    "pack",
    "--ignore-scripts",
    "--loglevel=warn",
    "--pack-destination",
    dir,
  ]);
  const order = ws.packages.map((p) => p.manifest.name);
  return (
    packed.json as {
      name: string;
      version: string;
      filename: string;
      files: { path: string }[];
      size: number;
    }[]
  )
    .map((p) => ({
      name: p.name,
      version: p.version,
      file: path.join(dir, p.filename),
      files: p.files.map((f) => f.path),
      size: p.size,
    }))
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
}
