/**
 * `npm run assets` (after the reference page's): bundles the calendar editor's files into
 * `src/editor/generated/` (scripts/lib/editor-assets.ts). wrangler runs it before `wrangler dev`
 * and `wrangler deploy` (wrangler.toml `[build]`). Exit code 1 when the browser code does not build.
 */
import { buildEditorAssets } from "./lib/editor-assets";

try {
  const { preactVersion, written, removed, sizes } = await buildEditorAssets();
  const changes = [
    written.length ? `${written.length} written` : "",
    removed.length ? `${removed.length} removed` : "",
  ].filter(Boolean);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `✓ Editor assets (preact ${preactVersion}; editor.js ${kb(sizes["editor.js"])}, editor.css ${kb(sizes["editor.css"])}) in src/editor/generated: ${changes.join(", ") || "up to date"}`,
  );
} catch (err) {
  console.error(`✗ ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
