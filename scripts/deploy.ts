/**
 * `npm run deploy [-- <wrangler deploy options>]`: `wrangler deploy`, after checking that
 * wrangler.toml names real resources. The repository's D1 `database_id` and KV namespace `id` are
 * placeholders (all zeros) until `wrangler d1 create` and `wrangler kv namespace create` print the
 * real ones; `wrangler deploy --dry-run` accepts them, the real deploy fails late and vaguely. This
 * stops first, naming each placeholder and the command that gives its id.
 * Exit code: 1 when a placeholder is left, else wrangler's own.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import { PATHS } from "./lib/paths";

interface Toml {
  d1_databases?: Array<{ binding?: string; database_name?: string; database_id?: string }>;
  kv_namespaces?: Array<{ binding?: string; id?: string }>;
}

const placeholder = (id: string | undefined) => !id || /^[0-]+$/.test(id);
const toml = parseToml(readFileSync(PATHS.wranglerToml, "utf8")) as Toml;
const left = [
  ...(toml.d1_databases ?? [])
    .filter((db) => placeholder(db.database_id))
    .map(
      (db) =>
        `D1 ${db.binding}: database_id is a placeholder — run \`npx wrangler d1 create ${db.database_name}\` and put the printed id into wrangler.toml`,
    ),
  ...(toml.kv_namespaces ?? [])
    .filter((kv) => placeholder(kv.id))
    .map(
      (kv) =>
        `KV ${kv.binding}: id is a placeholder — run \`npx wrangler kv namespace create ${kv.binding}\` and put the printed id into wrangler.toml`,
    ),
];
if (left.length) {
  console.error(
    `✗ wrangler.toml still names placeholder resources:\n${left.map((l) => `  - ${l}`).join("\n")}\n(README: Deploy to Cloudflare)`,
  );
  process.exit(1);
}
const run = spawnSync("wrangler", ["deploy", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
