/**
 * The packages of `packages/` are ready to publish and to install as their READMEs say
 * (contract §7.10): one version, the client's; the loader and the Eleventy helper depend on exactly
 * that client; each README starts with its install commands; changelogs, licenses, repository and
 * access are there. `npm run pack:packages` refuses to pack on any of these; this test says it in
 * `npm test` already. The tarballs themselves are installed and built with by
 * `npm run test:examples` (examples/examples.test.ts).
 */
import { describe, expect, it } from "vitest";
import { fileListProblems, pointedAt } from "./pack";
import { packageProblems, readWorkspace, tarballName, type Workspace } from "./packages";

/** The repository's packages with `change` applied to a deep copy. */
function changed(change: (ws: Workspace) => void): Workspace {
  const ws = structuredClone(readWorkspace());
  change(ws);
  return ws;
}
const pkg = (ws: Workspace, dir: string) => ws.packages.find((p) => p.dir === dir)!;

describe("the packages as published", () => {
  it("are ready: one version, exact client dependencies, READMEs, changelogs, licenses", () => {
    expect(packageProblems(readWorkspace())).toEqual([]);
  });

  it("share the client's version, and depend on exactly that client", () => {
    const ws = readWorkspace();
    const version = pkg(ws, "client").manifest.version;
    for (const p of ws.packages) expect(p.manifest.version, p.dir).toBe(version);
    for (const dir of ["astro-loader", "eleventy"])
      expect(pkg(ws, dir).manifest.dependencies?.["@tec-edge/client"]).toBe(version);
  });

  it("name npm's tarball files", () => {
    expect(tarballName("@tec-edge/astro-loader", "0.1.0")).toBe("tec-edge-astro-loader-0.1.0.tgz");
  });
});

describe("the check finds", () => {
  it("a package of another version, or a dependency on another client", () => {
    const problems = packageProblems(
      changed((ws) => {
        pkg(ws, "eleventy").manifest.version = "0.2.0";
        pkg(ws, "astro-loader").manifest.dependencies!["@tec-edge/client"] = "^0.1.0";
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^packages\/eleventy: version 0\.2\.0, not the client's 0\.1\.0$/),
        expect.stringMatching(/^packages\/astro-loader: depends on @tec-edge\/client \^0\.1\.0/),
      ]),
    );
  });

  it("a bumped client whose READMEs, changelogs and dependents still say the old version", () => {
    const problems = packageProblems(
      changed((ws) => (pkg(ws, "client").manifest.version = "0.2.0")),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "packages/astro-loader: version 0.1.0, not the client's 0.2.0",
        'packages/client: CHANGELOG.md has no "## 0.2.0" entry',
        'packages/client: README.md does not start with "npm install ./tec-edge-client-0.2.0.tgz"',
        "packages/client/README.md names a tarball of version 0.1.0, not 0.2.0",
        "README.md names a tarball of version 0.1.0, not 0.2.0",
      ]),
    );
  });

  it("a README that does not start with both install commands", () => {
    const problems = packageProblems(
      changed((ws) => {
        const loader = pkg(ws, "astro-loader");
        loader.readme = loader.readme!.replace("./tec-edge-client-0.1.0.tgz ", "");
        const client = pkg(ws, "client");
        client.readme = `# @tec-edge/client\n\nA typed client.\n\n${client.readme!.slice(19)}`;
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'packages/astro-loader: README.md does not start with "npm install ./tec-edge-client-0.1.0.tgz ./tec-edge-astro-loader-0.1.0.tgz"',
        'packages/client: README.md does not start with "npm install @tec-edge/client"',
      ]),
    );
  });

  it("what npm publish needs: license, access, repository, engines", () => {
    const problems = packageProblems(
      changed((ws) => {
        const m = pkg(ws, "eleventy").manifest;
        delete m.publishConfig;
        m.repository = "github:tec-edge/tec-edge";
        m.engines = { node: ">=20" };
        pkg(ws, "astro-loader").license = undefined;
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'packages/eleventy: publishConfig.access is not "public"',
        expect.stringMatching(/^packages\/eleventy: repository must be/),
        "packages/eleventy: engines.node differs from the client's (it needs no more)",
        "packages/astro-loader: LICENSE is missing or differs from the client's",
      ]),
    );
  });

  it("a tarball without a file the manifest points at, or with a test", () => {
    const { manifest } = pkg(readWorkspace(), "client");
    expect(pointedAt(manifest)).toEqual(
      expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/node.js", "package.json"]),
    );
    const files = ["package.json", "README.md", "LICENSE", "dist/index.js", "src/sync.test.ts"];
    expect(fileListProblems(manifest, files)).toEqual(
      expect.arrayContaining([
        "@tec-edge/client: CHANGELOG.md is not in the tarball",
        "@tec-edge/client: dist/node.d.ts is not in the tarball",
        "@tec-edge/client: src/sync.test.ts should not be in the tarball",
      ]),
    );
  });
});
