/**
 * Every test starts from an empty, migrated database and the strings of every language in KV.
 * Storage is isolated per test file only (TOOLCHAIN.md gotcha 3), hence `freshStorage()` per test
 * (test/support/isolation.ts). The worker's outbound requests (image URL checks) reach a fake
 * network (test/support/network.ts).
 */
import { afterEach, beforeEach, vi } from "vitest";
import { forgetAnswers } from "../src/http/answer-cache";
import { forgetVersion } from "../src/http/content-version";
import { resetRateLimits } from "../src/http/rate-limit";
import { clearTotals } from "../src/http/totals";
import { clearStringsCache } from "../src/i18n";
import { freshStorage, settleEdgeCache } from "./support/isolation";
import { installNetwork } from "./support/network";

// Edge-cache writes finish after the response (waitUntil); let them land before the next test.
afterEach(() => settleEdgeCache());
afterEach(() => {
  vi.unstubAllGlobals();
});

beforeEach(async () => {
  await settleEdgeCache();
  await freshStorage();
  clearStringsCache();
  resetRateLimits();
  clearTotals();
  forgetVersion();
  forgetAnswers();
  installNetwork();
});
