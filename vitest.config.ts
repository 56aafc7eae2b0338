import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** The generated-input suites (issue 9 item 1): project `fuzz`; everything else is project `api`. */
const FUZZ = ["test/hardening/fuzz-*.test.ts"];

export default defineConfig(async () => {
  // Runs in Node: the same SQL files `wrangler d1 migrations apply` uses.
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "drizzle"));
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { TEST_MIGRATIONS: migrations, ADMIN_APP_PASSWORD: "test admin password" },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/setup.ts"],
      testTimeout: 30_000,
      // Test files share workers (one workerd each): a new workerd and a fresh module graph per file
      // cost more CPU than the tests themselves. test/setup.ts resets storage and module state
      // before every test, so files see nothing of each other.
      isolate: false,
      // Vitest's default (cores - 1) is one worker on the 2-core CI machine; a second workerd keeps
      // both cores busy.
      maxWorkers: Math.max(2, availableParallelism() - 1),
      projects: [
        {
          extends: true,
          test: { name: "api", include: ["test/**/*.test.ts", "src/**/*.test.ts"], exclude: FUZZ },
        },
        { extends: true, test: { name: "fuzz", include: FUZZ } },
      ],
    },
  };
});
