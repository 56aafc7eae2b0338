/**
 * Every test starts from an empty, migrated database and the strings of every language in KV.
 * Storage is isolated per test file only (TOOLCHAIN.md gotcha 3), hence the reset per test.
 */
import { afterEach, beforeEach } from "vitest";
import { resetRateLimits } from "../src/http/rate-limit";
import { clearTotals } from "../src/http/totals";
import { clearStringsCache } from "../src/i18n";
import { freshStorage, settleEdgeCache, trackEdgeCachePuts } from "./support/isolation";

trackEdgeCachePuts();

// Edge-cache writes finish after the response (waitUntil); let them land before the next reset().
afterEach(() => settleEdgeCache());

beforeEach(async () => {
  await settleEdgeCache();
  await freshStorage();
  clearStringsCache();
  resetRateLimits();
  clearTotals();
});
