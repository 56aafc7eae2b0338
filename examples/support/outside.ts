/**
 * A site outside the repository, as its developer has it (contract §7.10): a copy of an example in
 * a temporary folder, the packages installed from their tarballs with the command their README
 * gives, everything else from the registry, and a shell whose `PATH` knows nothing of this
 * repository but, where asked, the Node that runs the build.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PATHS, ROOT } from "../../scripts/lib/paths";

/** Whether `file` is `dir` or inside it. */
export const inside = (dir: string, file: string) => {
  const rel = path.relative(dir, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/**
 * The environment of a shell outside the repository: no `npm_*` or Vitest variables of the run
 * around us, no `PATH` entry inside the repository (`npm run` put its `node_modules/.bin`, and so
 * its Node 22, first), and `nodeDir` first when given.
 */
export function outsideEnv(nodeDir?: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(npm_|VITEST|INIT_CWD$|NODE_ENV$|NODE_OPTIONS$|TEST$)/i.test(k),
    ),
  );
  const entries = (process.env.PATH ?? "").split(path.delimiter);
  const outside = entries.filter((p) => p && !inside(ROOT, path.resolve(p)));
  env.PATH = [...(nodeDir ? [nodeDir] : []), ...outside].join(path.delimiter);
  env.ASTRO_TELEMETRY_DISABLED = "1";
  return env;
}

/** The folder of the repository's Node 22 (the `node` devDependency), for Astro's builds. */
export const REPOSITORY_NODE = path.dirname(PATHS.projectNode);

/** Runs a command in `cwd`; its output is kept for the error message when it fails. */
export function run(
  cwd: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${command} ${args.join(" ")} in ${cwd} exited ${code}:\n${out}`)),
    );
  });
}

/** Copies `examples/<name>` without its installs and build output into `<into>/<name>`. */
export function copyExample(name: string, into: string): string {
  const from = path.join(ROOT, "examples", name);
  const to = path.join(into, name);
  const skip = new Set(["node_modules", "dist", "_site", ".astro", ".cache"]);
  cpSync(from, to, {
    recursive: true,
    filter: (src) => !skip.has(path.basename(src)) || path.dirname(src) !== from,
  });
  return to;
}

/**
 * The tarballs a package's README installs from (`npm install ./a.tgz ./b.tgz` in its first code
 * block), as arguments for npm.
 * @throws Error when the README has no such line.
 */
export function readmeInstall(packageDir: string): string[] {
  const readme = readFileSync(path.join(ROOT, "packages", packageDir, "README.md"), "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const line = block.split("\n").find((l) => l.startsWith("npm install ./"));
  if (!line) throw new Error(`packages/${packageDir}/README.md has no "npm install ./…" line`);
  return line.split("#")[0].trim().split(/\s+/).slice(2);
}

/**
 * What ties a site to the repository after its install, in words (empty when nothing does): a
 * `file:` link or path into the repository in its `package.json` or lockfile, or a `@tec-edge`
 * package that is a link or resolves outside the site.
 */
export function tiesToRepository(site: string, names: string[]): string[] {
  const problems: string[] = [];
  for (const file of ["package.json", "package-lock.json"]) {
    const text = readFileSync(path.join(site, file), "utf8");
    if (text.includes(ROOT)) problems.push(`${file} names the repository (${ROOT})`);
    for (const [, spec] of text.matchAll(/"file:([^"]+)"/g))
      if (!inside(site, path.resolve(site, spec))) problems.push(`${file}: file:${spec}`);
  }
  const require = createRequire(path.join(site, "package.json"));
  for (const name of names) {
    const dir = path.join(site, "node_modules", name);
    if (!existsSync(dir) || lstatSync(dir).isSymbolicLink())
      problems.push(`node_modules/${name} is missing or a link`);
    const resolved = realpathSync(require.resolve(`${name}/package.json`));
    if (!inside(site, resolved)) problems.push(`${name} resolves to ${resolved}`);
  }
  return problems;
}

/**
 * The lowest Node an `engines.node` range of the form `>=X[.Y[.Z]]` allows: `>=18` → `18.0.0`.
 * @throws Error for any other form (the test would not know which Node to try).
 */
export function engineFloor(range: string): string {
  const m = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!m) throw new Error(`engines.node "${range}" is not of the form >=X.Y.Z`);
  return `${m[1]}.${m[2] ?? 0}.${m[3] ?? 0}`;
}

/**
 * Installs Node `version` from the registry (the `node` package, as the repository gets its
 * Node 22) into `<into>/node-<version>` and answers the folder of its binary.
 */
export async function installNode(version: string, into: string): Promise<string> {
  const dir = path.join(into, `node-${version}`);
  mkdirSync(dir, { recursive: true });
  await run(
    dir,
    "npm",
    ["install", `node@${version}`, "--no-audit", "--no-fund", "--loglevel=error"],
    outsideEnv(),
  );
  return path.join(dir, "node_modules", "node", "bin");
}
