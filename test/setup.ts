/**
 * Every test starts from an empty, migrated database and the strings of every language in KV.
 * Storage is isolated per test file only (TOOLCHAIN.md gotcha 3), hence `freshStorage()` per test
 * (test/support/isolation.ts). The worker's outbound requests (image URL checks) reach a fake
 * network (test/support/network.ts).
 */
import { afterEach, beforeEach, vi } from "vitest";
import { resetRateLimits } from "../src/http/rate-limit";
import { clearStringsCache } from "../src/i18n";
import { clock, forgetVersion } from "../src/read-cache/version";
import { clock as webhookClock } from "../src/webhooks/clock";
import { freshStorage, settleEdgeCache } from "./support/isolation";
import { installNetwork } from "./support/network";

// Edge-cache writes finish after the response (waitUntil); let them land before the next test.
afterEach(() => settleEdgeCache());
afterEach(() => {
  vi.unstubAllGlobals();
  // Tests that drive the read cache's clock (test/support/clock.ts) or the webhooks' clock
  // (test/webhooks/driven.ts) get the real one back.
  clock.now = () => Date.now();
  webhookClock.now = () => Date.now();
});

beforeEach(async () => {
  await settleEdgeCache();
  // The isolate's strings are forgotten only when KV's may differ from what they were read from.
  if (await freshStorage()) clearStringsCache();
  resetRateLimits();
  // A fresh database is a write from outside the worker: the isolate is told, as after its own.
  forgetVersion();
  installNetwork();
});
