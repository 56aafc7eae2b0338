import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  // Runs in Node: the same SQL files `wrangler d1 migrations apply` uses.
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "drizzle"));
  return {
    test: {
      // Copies the reference page's static assets (issue 19) once before any project runs.
      globalSetup: ["./test/global-setup.ts"],
      projects: [
        {
          // The worker's tests, inside workerd against the real worker and D1.
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  ADMIN_APP_PASSWORD: "test admin password",
                  // Webhooks (issue 18): the key that encrypts their signing secrets, and the
                  // deployed default for private targets (a local .dev.vars allows them).
                  WEBHOOK_SECRET_KEY: "test webhook secret key",
                  WEBHOOK_PRIVATE_TARGETS: "deny",
                  // Retries through the real local queue in seconds, not minutes (test/webhooks).
                  WEBHOOK_RETRY_BASE_SECONDS: "1",
                  // Remembered versions do not expire in the middle of a test on a slow machine;
                  // tests that need expiry say so (test/http/read-path.test.ts).
                  CONTENT_VERSION_TTL_MS: "60000",
                },
              },
            }),
          ],
          test: {
            name: "worker",
            setupFiles: ["./test/setup.ts"],
            include: ["test/**/*.test.ts", "src/**/*.test.ts"],
            testTimeout: 30_000,
          },
        },
        {
          // The command-line tools' tests, in Node (they start wrangler).
          test: {
            name: "scripts",
            environment: "node",
            include: ["scripts/**/*.test.ts"],
            testTimeout: 180_000,
          },
        },
      ],
    },
  };
});
