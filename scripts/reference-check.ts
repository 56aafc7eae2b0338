/**
 * `npm run reference:check` (`.ci/run` runs it after the tests): the interactive API reference
 * (contract §7.6) in a real browser, on `npm start`, in every language of the settings.
 *
 * 1. installs Debian's chromium with apt-get when `/usr/bin/chromium` is missing (as root), while
 * 2. `npm start -- --port <free port> --persist-to <fresh folder>` starts the service (migrations,
 *    strings, demo calendar; scripts/lib/instance.ts), the developer's own state untouched;
 * 3. per language, headless Chromium (playwright-core) opens `/{lang}/wp-json/tribe/events/v1/reference`
 *    with every other host refused, and checks it (scripts/lib/reference-page.ts);
 * 4. stops the service. Screenshots and the logs of the service and of apt-get are in `test-output/`.
 * Exit code 1 when anything failed.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import type { Strings } from "../src/i18n/index";
import { CHROMIUM, CHROMIUM_ARGS, ensureChromium } from "./lib/chromium";
import { readSettings } from "./lib/config";
import { type Instance, startInstance } from "./lib/instance";
import { info, seconds, sinceStart, step } from "./lib/log";
import { PATHS, ROOT } from "./lib/paths";
import { exitOnSignals } from "./lib/processes";
import { checkReferencePage, type ReferencePageResult } from "./lib/reference-page";

const OUT = path.join(ROOT, "test-output");

exitOnSignals();
mkdirSync(OUT, { recursive: true });
// Screenshots of an earlier run would pass for this one's.
for (const name of readdirSync(OUT))
  if (/^reference-.*\.png$/.test(name)) rmSync(path.join(OUT, name));
const settings = readSettings();
const ns = `${settings.restPrefix}/${settings.vendor}/events/v1`;
const logFile = path.join(OUT, "reference-check-server.log");
const aptLog = path.join(OUT, "reference-check-apt.log");
let server: Instance | undefined;
let browser: Browser | undefined;
let authorized = false;
const results: ReferencePageResult[] = [];
let failure: string | undefined;
try {
  await Promise.all([
    step("Chromium", async () => {
      if (await ensureChromium(aptLog))
        info(`installed ${CHROMIUM} with apt-get (log: ${path.relative(ROOT, aptLog)})`);
    }),
    step("npm start (demo calendar, a state of its own)", async () => {
      server = await startInstance({
        logFile,
        probePath: `/${settings.defaultLanguage}/${ns}/reference`,
      });
    }),
  ]);
  if (!server) throw new Error("npm start did not start");
  const origin = server.origin;
  // npm start wrote it to .dev.vars (or found it there): the password of user 1, admin.
  const password = server.adminPassword;
  const admin = password ? { user: "admin", password } : undefined;
  authorized = admin !== undefined;
  if (!admin) info("no ADMIN_APP_PASSWORD in .dev.vars: Authorize is not checked");
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  info(`Chromium ${browser.version()}`);
  for (const lang of settings.languages) {
    const strings = JSON.parse(
      readFileSync(path.join(PATHS.stringsDir, `${lang}.json`), "utf8"),
    ) as Strings;
    const t0 = performance.now();
    const result = await checkReferencePage(browser, {
      origin,
      lang,
      namespacePath: `/${lang}/${ns}`,
      strings,
      outDir: OUT,
      admin,
    });
    const took = seconds(performance.now() - t0);
    console.log(`${result.problems.length ? "✗" : "✓"} Reference page (${lang}) (${took})`);
    for (const line of result.seen) info(line);
    for (const file of result.screenshots) info(`screenshot ${path.relative(ROOT, file)}`);
    for (const problem of result.problems) info(`✗ ${problem}`);
    results.push(result);
  }
} catch (err) {
  failure = err instanceof Error ? err.message : String(err);
} finally {
  await browser?.close();
  await server?.stop();
}

const failed = results.filter((r) => r.problems.length > 0).map((r) => r.lang);
if (failure || failed.length || results.length === 0) {
  console.error(
    `\n✗ Reference page check failed${failure ? `: ${failure}` : ` in ${failed.join(", ")}`} (server log: ${path.relative(ROOT, logFile)})`,
  );
  process.exit(1);
}
console.log(
  `\n✓ Reference page renders offline in ${results.map((r) => r.lang).join(", ")}, Try it out GET /events works${authorized ? ", Authorize works" : ""} (${sinceStart()})`,
);
