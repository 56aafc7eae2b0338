import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { rfc5545Service } from "./test/support/rfc5545/oracle";

/** The generated-input suites (see `fuzzApart` for the project they run in). */
const FUZZ = ["test/hardening/fuzz-*.test.ts"];

/** A non-negative number from the environment (the fuzz knobs, test/hardening/support/fuzz.ts). */
function knob(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return value;
}

/**
 * `FUZZ_SCALE`: fraction of the full fuzz depth (0, the default: the sweep and one batch per route
 * and method; 1: `npm run test:fuzz`). `FUZZ_SEED`: the base of every fuzz seed. Handed to the tests
 * with `provide`, at run time: `import.meta.env` is inlined into the transformed module, which
 * Vitest's file-system module cache keeps across runs whatever the environment says next time.
 */
const provide = { fuzzScale: knob("FUZZ_SCALE", 0), fuzzSeed: knob("FUZZ_SEED", 20261123) };

/**
 * Where the fuzz suites run. With `FUZZ_SCALE` set (`npm run test:fuzz`, or a replay command a
 * failure prints), in a project of their own, `fuzz`, so that `--project fuzz` runs them alone; a
 * plain run (`npm test`) keeps them in `api` at scale 0: a second workerd project costs a start of
 * its own (about 9 s here: its runtime, and every module transformed again for it) after the last
 * `api` file.
 */
const fuzzApart = process.env.FUZZ_SCALE !== undefined;

/**
 * Vitest's order (project by project, by name, then longest file first), with the `scripts` project
 * first: its files spend most of their time in wrangler processes of their own, and at the end of
 * the queue they ran on one core while the other had nothing left to do. First, they run beside the
 * workerd files.
 */
class ScriptsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const scripts = (f: TestSpecification) => f.project.name === "scripts";
    return [...sorted.filter(scripts), ...sorted.filter((f) => !scripts(f))];
  }
}

export default defineConfig(async () => {
  // Runs in Node: the same SQL files `wrangler d1 migrations apply` uses.
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "drizzle"));
  /** The worker's tests run inside workerd (the plugin), against the real worker and D1. */
  const inWorkerd = (test: Record<string, unknown>) => ({
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ADMIN_APP_PASSWORD: "test admin password",
            // Webhooks: the key that encrypts their signing secrets, and the deployed
            // default for private targets (a local .dev.vars allows them).
            WEBHOOK_SECRET_KEY: "test webhook secret key",
            WEBHOOK_PRIVATE_TARGETS: "deny",
            // The deployed default, whatever the .dev.vars of `npm start` says (it turns the check
            // off for offline development, which the image tests would then not see).
            IMAGE_URL_CHECK: "head",
          },
          // The independent RFC 5545 expander the series tests compare with (python-dateutil, run
          // here in Node: test/support/rfc5545/oracle.ts).
          serviceBindings: { RFC5545: rfc5545Service },
        },
      }),
    ],
    test: { setupFiles: ["./test/setup.ts"], testTimeout: 30_000, ...test },
  });
  return {
    test: {
      // Copies the reference page's static assets once before any project runs.
      globalSetup: ["./test/global-setup.ts"],
      // Test files share workers (one workerd each): a new workerd and a fresh module graph per file
      // cost more CPU than the tests themselves. test/setup.ts resets storage and module state
      // before every test, so files see nothing of each other.
      isolate: false,
      sequence: { sequencer: ScriptsFirst },
      // Vitest's default (cores - 1) is one worker on the 2-core CI machine; a second workerd keeps
      // both cores busy.
      maxWorkers: Math.max(2, availableParallelism() - 1),
      projects: [
        inWorkerd({
          name: "api",
          include: ["test/**/*.test.ts", "src/**/*.test.ts"],
          // test/e2e runs in Node against `npm start` (npm run test:e2e, its own config).
          exclude: [...(fuzzApart ? FUZZ : []), "test/e2e/**"],
          provide,
        }),
        ...(fuzzApart ? [inWorkerd({ name: "fuzz", include: FUZZ, provide })] : []),
        {
          // The command-line tools' tests and the Node tools' (tools/), in Node (some start
          // wrangler): no workerd.
          test: {
            name: "scripts",
            environment: "node",
            include: ["scripts/**/*.test.ts", "tools/**/*.test.ts"],
            testTimeout: 180_000,
          },
        },
      ],
    },
  };
});
