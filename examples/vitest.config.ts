/**
 * `npm run test:examples`: the packages installed outside the repository from their tarballs and
 * the example sites built with them against `npm start` (examples.test.ts), which
 * test/e2e/global-setup.ts starts on a free port with a temporary `--persist-to` and stops after.
 */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "examples",
    root: path.resolve(import.meta.dirname, ".."),
    include: ["examples/*.test.ts"],
    environment: "node",
    globalSetup: ["test/e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
