/**
 * `npm run assets`: writes the reference page's static files into `src/root/reference/generated/` (see
 * scripts/lib/reference-assets.ts). wrangler runs it before `wrangler dev` and `wrangler deploy`
 * (wrangler.toml `[build]`). Exit code 1 when swagger-ui-dist is not installed.
 */
import path from "node:path";
import { ROOT } from "./lib/paths";
import { buildReferenceAssets } from "./lib/reference-assets";

try {
  const { dir, swaggerUiVersion, written, removed } = buildReferenceAssets();
  const changes = [
    written.length ? `${written.length} written` : "",
    removed.length ? `${removed.length} removed` : "",
  ].filter(Boolean);
  console.log(
    `✓ Reference page assets (swagger-ui ${swaggerUiVersion}) in ${path.relative(ROOT, dir)}: ${changes.join(", ") || "up to date"}`,
  );
} catch (err) {
  console.error(`✗ ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
