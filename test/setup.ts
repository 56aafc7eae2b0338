/**
 * Every test starts from an empty, migrated database and the strings of every language in KV.
 * Storage is isolated per test file only (TOOLCHAIN.md gotcha 3), hence the reset per test.
 */
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach } from "vitest";
import { forgetAnswers } from "../src/http/answer-cache";
import { forgetVersion } from "../src/http/content-version";
import { resetRateLimits } from "../src/http/rate-limit";
import { clearTotals } from "../src/http/totals";
import { clearStringsCache, stringsKey } from "../src/i18n";
import de from "../src/i18n/strings/de.json";
import en from "../src/i18n/strings/en.json";

// Edge-cache writes finish after the response (waitUntil); let them land before the next reset().
afterEach(() => new Promise((resolve) => setTimeout(resolve, 25)));

beforeEach(async () => {
  await reset();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await env.STRINGS.put(stringsKey("en"), JSON.stringify(en));
  await env.STRINGS.put(stringsKey("de"), JSON.stringify(de));
  clearStringsCache();
  resetRateLimits();
  clearTotals();
  forgetVersion();
  forgetAnswers();
});
