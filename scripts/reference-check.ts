/**
 * `npm run reference:check` (`.ci/run` runs it after the tests): the interactive API reference
 * (contract §7.6) in a real browser, on `npm start`, in every language of the settings.
 *
 * 1. installs Debian's chromium with apt-get when `/usr/bin/chromium` is missing (as root), while
 * 2. `npm start -- --port <free port>` starts the service (migrations, strings, demo calendar);
 * 3. per language, headless Chromium (playwright-core) opens `/{lang}/wp-json/tribe/events/v1/reference`
 *    with every other host refused, and checks it (scripts/lib/reference-page.ts);
 * 4. stops the service. Screenshots and the logs of the service and of apt-get are in `test-output/`.
 * Exit code 1 when anything failed.
 */
import { createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import type { Strings } from "../src/i18n/index";
import { CHROMIUM, CHROMIUM_ARGS, ensureChromium } from "./lib/chromium";
import { readDevVars, readSettings } from "./lib/config";
import { info, seconds, sinceStart, step } from "./lib/log";
import { PATHS, ROOT } from "./lib/paths";
import { exited, exitOnSignals, sleep, spawnGroup, stopGroup } from "./lib/processes";
import { checkReferencePage, type ReferencePageResult } from "./lib/reference-page";

const HOST = "127.0.0.1";
const OUT = path.join(ROOT, "test-output");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200. @throws Error when `npm start` exits or 240 s pass. */
async function waitFor200(url: string, server: { gone: boolean }): Promise<void> {
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline && !server.gone) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(5000) })).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(`${server.gone ? "npm start exited" : "no 200 in time"} (${url})`);
}

exitOnSignals();
mkdirSync(OUT, { recursive: true });
// Screenshots of an earlier run would pass for this one's.
for (const name of readdirSync(OUT))
  if (/^reference-.*\.png$/.test(name)) rmSync(path.join(OUT, name));
const settings = readSettings();
const ns = `${settings.restPrefix}/${settings.vendor}/events/v1`;
const port = await freePort();
const origin = `http://${HOST}:${port}`;
const logFile = path.join(OUT, "reference-check-server.log");
const aptLog = path.join(OUT, "reference-check-apt.log");
const log = createWriteStream(logFile);
const server = spawnGroup("npm", ["start", "--", "--port", String(port)], { cwd: ROOT });
server.stdout?.pipe(log);
server.stderr?.pipe(log);
const state = { gone: false };
void exited(server).then(() => (state.gone = true));

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
    step(`npm start on ${origin}`, () =>
      waitFor200(`${origin}/${settings.defaultLanguage}/${ns}/reference`, state),
    ),
  ]);
  // npm start wrote it to .dev.vars (or found it there): the password of user 1, admin.
  const password = readDevVars().ADMIN_APP_PASSWORD;
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
  // npm start stops its wrangler and workerd on SIGTERM; give it time before anything is killed.
  await stopGroup(server, 20_000);
  log.end();
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
