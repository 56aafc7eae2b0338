import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../src/settings";

declare module "vitest" {
  /** What vitest.config.ts hands the fuzz suites (`inject`). */
  export interface ProvidedContext {
    /** `FUZZ_SCALE`: fraction of the full fuzz depth; 0, the sweep and one batch. */
    fuzzScale: number;
    /** `FUZZ_SEED`: the base of every fuzz seed. */
    fuzzSeed: number;
  }
}

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
