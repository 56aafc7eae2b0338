/**
 * `npm run pack:packages [-- --out DIR]`: checks the three packages of `packages/` (one version,
 * the client's; READMEs, changelogs, licenses; `npm publish --dry-run` clean), builds them and
 * writes their tarballs into DIR (default `packed/` in the repository), then prints the folder and
 * the install commands of a site (contract §7.10). Exit code 1 with the list of problems when a
 * package is not ready to publish.
 *
 * @example npm run pack:packages -- --out ../my-site   # then, in ../my-site:
 *   npm install ./tec-edge-client-0.1.0.tgz ./tec-edge-astro-loader-0.1.0.tgz
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { PackError, packPackages } from "./lib/pack";
import { CLIENT } from "./lib/packages";
import { ROOT } from "./lib/paths";

const { values } = parseArgs({ options: { out: { type: "string" } } });
const out = path.resolve(values.out ?? path.join(ROOT, "packed"));

try {
  const packed = await packPackages(out);
  const client = packed.find((p) => p.name === CLIENT)!;
  console.log(`Wrote ${packed.length} tarballs to ${out}:`);
  for (const p of packed)
    console.log(
      `  ${path.basename(p.file)}  (${(p.size / 1024).toFixed(1)} KiB, ${p.files.length} files)`,
    );
  // Relative to the folder they are in: a site that copies them keeps the same command.
  const line = (p: (typeof packed)[number]) =>
    `npm install ${[...new Set([client, p])].map((t) => `./${path.basename(t.file)}`).join(" ")}`;
  console.log(
    `\nIn a site with the tarballs beside its package.json (--out <site> writes them there):`,
  );
  for (const p of packed) console.log(`  ${line(p)}${p === client ? "" : `   # ${p.name}`}`);
  for (const p of packed.filter((t) => t.published))
    console.log(
      `\nNote: ${p.name}@${p.version} is on the registry already; publish a new version.`,
    );
} catch (err) {
  console.error(err instanceof PackError ? err.message : err);
  process.exit(1);
}
