import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

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
      globalSetup: ["./test/global-setup.ts"],
      setupFiles: ["./test/setup.ts"],
      include: ["test/**/*.test.ts", "src/**/*.test.ts"],
      testTimeout: 30_000,
    },
  };
});
