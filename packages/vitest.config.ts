/**
 * The packages' own tests (`npm run test:packages`, part of `npm test`): in Node, against a fake
 * of the service in memory — no worker, no network.
 */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "packages",
    root: path.resolve(import.meta.dirname),
    include: ["*/src/**/*.test.ts"],
    environment: "node",
  },
});
