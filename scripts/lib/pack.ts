/**
 * `npm run pack:packages`: the tarballs of `packages/` as `npm publish` would upload them, checked
 * first (contract §7.10): the manifests, READMEs and changelogs (packages.ts), then
 * `npm publish --dry-run` of each, which must warn about nothing but the missing login, and the
 * tarballs' file lists, which must hold every file the manifests point at and no test. `dist/` is built first
 * (`tsc -b packages`; each package's `prepack` does the same for an `npm publish` by hand).
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
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
  /** This version is on the registry already: the next publish needs a new one. */
  published: boolean;
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

/** What npm printed and how it exited. */
interface NpmRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs npm in `root` on the packages in `dirs` (`--workspace packages/…`); a failure is answered. */
async function npm(root: string, args: string[], dirs: readonly string[]): Promise<NpmRun> {
  const workspaces = dirs.flatMap((dir) => ["--workspace", `packages/${dir}`]);
  try {
    const options = { cwd: root, env: npmEnv(), maxBuffer: 64 * 1024 * 1024 };
    const { stdout, stderr } = await exec("npm", [...args, ...workspaces, "--json"], options);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const { code, stdout, stderr } = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof code !== "number") throw err;
    return { code, stdout: stdout ?? "", stderr: stderr ?? "" };
  }
}

/** What `npm pack --json` says of one tarball. */
interface NpmPacked {
  name: string;
  version: string;
  filename: string;
  files: { path: string }[];
  size: number;
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
 * What `npm publish --dry-run` of one package objects to, in words: any warning but the missing
 * login (`npm auto-corrected some errors in your package.json`, …) and any error but a version
 * already on the registry, which is reported through `published` instead (packing it for a local
 * install is still right; publishing it again needs a new version).
 */
async function publishProblems(root: string, dir: string, name: string, published: Set<string>) {
  const dry = await npm(
    root,
    ["publish", "--dry-run", "--ignore-scripts", "--loglevel=warn"],
    [dir],
  );
  const lines = dry.stderr.split("\n");
  const problems = lines
    .filter((line) => /^npm warn/.test(line) && !/requires you to be logged in/.test(line))
    .map((line) => `${name}: npm publish --dry-run: ${line}`);
  if (dry.code !== 0 && /previously published versions/.test(dry.stderr)) published.add(name);
  else if (dry.code !== 0)
    problems.push(
      `${name}: npm publish --dry-run failed: ${lines.filter((l) => /^npm error/.test(l)).join(" ")}`,
    );
  return problems;
}

/**
 * Checks the packages and writes their tarballs into `out` (created when missing).
 * @param root the repository (default: this one).
 * @returns the tarballs, the client's first.
 * @throws PackError naming every problem found (nothing is written into `out` then); Error when
 *   npm or tsc cannot run.
 */
export async function packPackages(out: string, root = ROOT): Promise<Packed[]> {
  const ws = readWorkspace(root);
  const problems = packageProblems(ws);
  if (problems.length) throw new PackError(problems);

  // Built here, so that npm's own run of `prepack` (its banner on stdout) is not needed.
  await exec(path.join(root, "node_modules", ".bin", "tsc"), ["-b", "packages"], { cwd: root });
  const staging = mkdtempSync(path.join(tmpdir(), "tec-pack-"));
  try {
    const args = ["pack", "--ignore-scripts", "--loglevel=warn", "--pack-destination", staging];
    const run = await npm(root, args, PACKAGE_DIRS);
    if (run.code !== 0) throw new Error(`npm pack failed:\n${run.stderr}`);
    const packed = JSON.parse(run.stdout) as NpmPacked[];
    const published = new Set<string>();
    for (const { dir, manifest } of ws.packages) {
      problems.push(...(await publishProblems(root, dir, manifest.name, published)));
      const files = packed.find((p) => p.name === manifest.name)?.files.map((f) => f.path);
      problems.push(...fileListProblems(manifest, files ?? []));
    }
    if (problems.length) throw new PackError(problems);

    const dir = path.resolve(out);
    mkdirSync(dir, { recursive: true });
    return ws.packages.map(({ manifest }) => {
      const p = packed.find((t) => t.name === manifest.name)!;
      copyFileSync(path.join(staging, p.filename), path.join(dir, p.filename));
      return {
        name: p.name,
        version: p.version,
        file: path.join(dir, p.filename),
        files: p.files.map((f) => f.path),
        size: p.size,
        published: published.has(p.name),
      };
    });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
