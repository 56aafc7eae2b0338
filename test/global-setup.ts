/**
 * Runs in Node once before the test pool starts: wrangler.toml `[assets]` names `.assets/`, which
 * wrangler's `[build]` fills only for `wrangler dev` and `deploy` (issue 19).
 */
import { buildReferenceAssets } from "../scripts/lib/reference-assets";

export default function setup(): void {
  buildReferenceAssets();
}
