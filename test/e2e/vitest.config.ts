/**
 * `npm run test:e2e`: the end-to-end suite (test/e2e) in Node, over HTTP against `npm start` as a
 * user runs it (started once by global-setup.ts on a free port and a temporary `--persist-to`
 * folder). Files run one after another: they share that one server, and the read-after-write
 * checks need no other writer between a write and its reads.
 */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "e2e",
    root: path.resolve(import.meta.dirname, "..", ".."),
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
