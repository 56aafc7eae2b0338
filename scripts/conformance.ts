/**
 * `npm run test:conformance [-- <case files>]` (`.ci/run` runs it): TEC's own acceptance cases
 * (`tests/restv1/*Cest.php` of The Events Calendar, ported to HTTP and calibrated against a real
 * WordPress + TEC 6.17.2) against this service as users run it — the fidelity gate (issue 33).
 *
 * 1. finds the suite (`findSuite`: `CONFORMANCE_DIR`, else `shared/conformance` above this clone).
 *    It is not copied into the repository: it is replaced as a whole, and its cases are not ours to
 *    edit;
 * 2. `npm start -- --port <free port> --no-demo --persist-to <fresh folder> --var
 *    IMAGE_URL_CHECK:head` (an empty calendar; image URLs checked with HTTP HEAD, as in production
 *    and as the suite's README asks: a case expects a URL that does not answer to be refused);
 * 3. runs the suite's `run.sh` with the `CONF_*` settings of that instance (site time zone and page
 *    size from the worker's settings, the administrator's application password from `.dev.vars`);
 *    arguments are passed on (`-- cases/SingleEventCest.test.mjs`; default: every `cases/*.test.mjs`
 *    by name), and so is `CONF_NAME` (a regex of case names) from the environment;
 * 4. stops the instance. Exit code 0 only when `run.sh` succeeded and its last line reports no failed
 *    case. The server log is `test-output/conformance-server.log`.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { readSettings } from "./lib/config";
import { startInstance } from "./lib/instance";
import { info, sinceStart, step } from "./lib/log";
import { ROOT } from "./lib/paths";
import { exited, exitOnSignals } from "./lib/processes";

/** Settings of the instance under test, over wrangler.toml and `.dev.vars`. */
const VARS = { IMAGE_URL_CHECK: "head" };
const LOG = path.join(ROOT, "test-output", "conformance-server.log");

/**
 * Where the suite is: `CONFORMANCE_DIR`, else `shared/conformance` in the nearest folder above this
 * clone that has one (`../shared/conformance` for a clone beside it), else the workplace's own
 * `/work/shared/conformance` (a clone made elsewhere, as CI's may be).
 */
function findSuite(): string | undefined {
  if (process.env.CONFORMANCE_DIR) return path.resolve(process.env.CONFORMANCE_DIR);
  const candidates: string[] = [];
  for (let dir = path.dirname(ROOT); ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, "shared", "conformance"));
    if (dir === path.dirname(dir)) break;
  }
  candidates.push("/work/shared/conformance");
  return candidates.find((dir) => existsSync(path.join(dir, "run.sh")));
}

const suite = findSuite();
if (!suite || !existsSync(path.join(suite, "run.sh"))) {
  console.error(
    `✗ The acceptance suite was not found (${suite ?? "no shared/conformance above this clone"}): set CONFORMANCE_DIR to its folder.`,
  );
  process.exit(1);
}
info(`suite: ${suite}`);

exitOnSignals();
const settings = readSettings({ overrides: VARS });
const server = await step("npm start (empty calendar, image URLs checked)", () =>
  startInstance({ logFile: LOG, demo: false, vars: VARS }),
);
info(`${server.origin}, state ${server.persistTo}, log ${path.relative(ROOT, LOG)}`);

let summary = "";
let code: number;
try {
  // Every case file by name when none is given: run.sh's default (`node --test cases/`) names a
  // folder, which the Node 22 that npm scripts run with takes for a module, not for its tests.
  const files = process.argv.slice(2);
  if (files.length === 0)
    for (const name of readdirSync(path.join(suite, "cases")).sort())
      if (name.endsWith(".test.mjs")) files.push(`cases/${name}`);
  const run = spawn(path.join(suite, "run.sh"), files, {
    cwd: suite,
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      CONF_TARGET: "ours",
      CONF_ORIGIN: server.origin,
      CONF_ROOT: `/${settings.restPrefix}/${settings.vendor}/events/v1/`,
      CONF_ADMIN: `admin:${server.adminPassword}`,
      CONF_TIMEZONE: settings.siteTimezone,
      CONF_PER_PAGE: String(settings.perPageDefault),
    },
  });
  run.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    process.stdout.write(chunk);
    summary = (summary + chunk).slice(-4096);
  });
  code = await exited(run);
} finally {
  await server.stop();
}

const totals = /(\d+) passed, (\d+) failed, (\d+) skipped\s*$/.exec(summary);
if (code !== 0 || !totals || Number(totals[2]) > 0) {
  console.error(
    `\n✗ Acceptance suite: ${totals ? `${totals[2]} failed` : "no summary line"} (run.sh exit ${code}, ${sinceStart()}; server log ${path.relative(ROOT, LOG)})`,
  );
  process.exit(1);
}
console.log(`\n✓ Acceptance suite: ${totals[0].trim()} (${sinceStart()})`);
