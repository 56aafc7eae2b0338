/**
 * The npm packages of `packages/` as a project outside the repository gets them (contract §7.10):
 * what their manifests, READMEs and changelogs must say for `npm publish` and for installing from
 * the tarballs `npm run pack:packages` writes. One version for all three: the client's, which the
 * Astro loader and the Eleventy helper depend on exactly.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./paths";

/** The folders of `packages/`, the client first (the others depend on it). */
export const PACKAGE_DIRS = ["client", "astro-loader", "eleventy"] as const;
export type PackageDir = (typeof PACKAGE_DIRS)[number];

/** The client's npm name: the one package the others depend on. */
export const CLIENT = "@tec-edge/client";

/** What the checks read of a `package.json`. */
export interface Manifest {
  name: string;
  version: string;
  license?: string;
  private?: boolean;
  repository?: { type?: string; url?: string; directory?: string } | string;
  engines?: { node?: string };
  publishConfig?: { access?: string };
  dependencies?: Record<string, string>;
  main?: string;
  types?: string;
  exports?: unknown;
}

/** One package as it is in the repository. */
export interface PackageSource {
  dir: PackageDir;
  manifest: Manifest;
  /** README.md, CHANGELOG.md and LICENSE; `undefined` when the file is missing. */
  readme?: string;
  changelog?: string;
  license?: string;
}

/** The packages and what they are checked against. */
export interface Workspace {
  /** The root `package.json` (its `repository` is the packages' one). */
  root: Manifest;
  /** The root README.md (its tarball names must carry the packages' version). */
  rootReadme: string;
  packages: PackageSource[];
}

const readIfThere = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : undefined);
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Manifest;

/** Reads the packages of the repository at `root` (default: this one). */
export function readWorkspace(root = ROOT): Workspace {
  return {
    root: readJson(path.join(root, "package.json")),
    rootReadme: readFileSync(path.join(root, "README.md"), "utf8"),
    packages: PACKAGE_DIRS.map((dir) => {
      const at = (file: string) => path.join(root, "packages", dir, file);
      return {
        dir,
        manifest: readJson(at("package.json")),
        readme: readIfThere(at("README.md")),
        changelog: readIfThere(at("CHANGELOG.md")),
        license: readIfThere(at("LICENSE")),
      };
    }),
  };
}

/**
 * The file `npm pack` writes for a package: `@tec-edge/client`, `0.1.0` →
 * `tec-edge-client-0.1.0.tgz`.
 */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

/**
 * The tarballs a site installs for a package, in the order of its README's install line: the
 * client's, then the package's own (installed together, the client's dependency is met without
 * the registry).
 */
export function tarballsFor(manifest: Manifest, version: string): string[] {
  const own = tarballName(manifest.name, version);
  return manifest.name === CLIENT ? [own] : [tarballName(CLIENT, version), own];
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Everything that keeps the packages from being published or installed as their READMEs say, in
 * words (empty when all is well): versions that differ from the client's, a dependency on another
 * client version, a missing README install line, CHANGELOG entry, LICENSE or field, and tarball
 * names of another version in any README.
 */
export function packageProblems(ws: Workspace): string[] {
  const problems: string[] = [];
  const client = ws.packages.find((p) => p.manifest.name === CLIENT);
  if (!client) return [`no package is named ${CLIENT}`];
  const version = client.manifest.version;
  const rootRepo = typeof ws.root.repository === "object" ? ws.root.repository.url : undefined;
  if (!rootRepo) problems.push("the root package.json has no repository.url");

  for (const { dir, manifest: m, readme, changelog, license } of ws.packages) {
    const where = `packages/${dir}`;
    const say = (what: string) => problems.push(`${where}: ${what}`);
    if (m.version !== version) say(`version ${m.version}, not the client's ${version}`);
    if (m.name !== CLIENT && m.dependencies?.[CLIENT] !== version)
      say(`depends on ${CLIENT} ${m.dependencies?.[CLIENT] ?? "(none)"}, not ${version}`);
    if (m.private) say("is private");
    if (m.license !== "MIT") say(`license ${m.license}, not MIT`);
    if (license !== client.license || !license?.startsWith("MIT License"))
      say("LICENSE is missing or differs from the client's");
    if (m.publishConfig?.access !== "public") say('publishConfig.access is not "public"');
    if (!m.engines?.node) say("engines.node is missing");
    const repo = typeof m.repository === "object" ? m.repository : undefined;
    if (repo?.type !== "git" || repo.url !== rootRepo || repo.directory !== where)
      say(`repository must be {type: "git", url: ${rootRepo}, directory: ${where}}`);
    if (!changelog || !new RegExp(`^## \\[?${literal(version)}\\]?(\\s|$)`, "m").test(changelog))
      say(`CHANGELOG.md has no "## ${version}" entry`);
    // The README starts with the install commands: from the registry, and from the tarballs.
    const install = tarballsFor(m, version).map((t) => `./${t}`);
    const head = /^# .*\n+```sh\n([\s\S]*?)```/.exec(readme ?? "")?.[1] ?? "";
    if (!new RegExp(`^npm install ${literal(m.name)}(\\s|$)`, "m").test(head))
      say(`README.md does not start with "npm install ${m.name}"`);
    if (!head.includes(`npm install ${install.join(" ")}`))
      say(`README.md does not start with "npm install ${install.join(" ")}"`);
  }
  if (
    client.manifest.engines?.node !==
    ws.packages.find((p) => p.dir === "eleventy")?.manifest.engines?.node
  )
    problems.push("packages/eleventy: engines.node differs from the client's (it needs no more)");

  // Tarball names in any README carry this version.
  const texts: [string, string][] = [
    ["README.md", ws.rootReadme],
    ...ws.packages.map((p): [string, string] => [`packages/${p.dir}/README.md`, p.readme ?? ""]),
  ];
  const named = /tec-edge-(?:client|astro-loader|eleventy)-(\d+\.\d+\.\d+[^\s/]*?)\.tgz/g;
  for (const [file, text] of texts)
    for (const [, v] of text.matchAll(named))
      if (v !== version) problems.push(`${file} names a tarball of version ${v}, not ${version}`);
  return [...new Set(problems)];
}
