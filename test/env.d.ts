import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../src/settings";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      /** Workers static assets (wrangler.toml `[assets]`): the worker itself never reads it. */
      ASSETS: Fetcher;
    }
  }
}
