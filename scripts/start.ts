/**
 * `npm start [-- --port 8787] [--no-demo] [--persist-to DIR] [--var NAME:VALUE …]`: the one command
 * from a fresh clone to the service on http://127.0.0.1:8787 with a demo calendar in it (or, with
 * `--no-demo`, an empty one to import into). `--persist-to DIR` keeps the local D1 and KV in DIR
 * instead of `.wrangler/state` (every wrangler command of the steps below and `wrangler dev` get it),
 * so that a second instance (e.g. the end-to-end suite's, test/e2e) runs from the same clone without
 * touching the first one's. `--var NAME:VALUE` (repeatable) sets one setting for this run only, over
 * wrangler.toml and `.dev.vars` (wrangler dev's own `--var`), e.g. `--var IMAGE_URL_CHECK:head` for
 * the acceptance suite (scripts/conformance.ts).
 *
 * 1. validates the settings (wrangler.toml `[vars]` + `.dev.vars`) with the worker's `parseSettings`;
 * 2. makes sure `.dev.vars` has an `ADMIN_APP_PASSWORD` (random, written once) and shows it, and
 *    what webhooks need locally: a random `WEBHOOK_SECRET_KEY` and `WEBHOOK_PRIVATE_TARGETS=allow`
 *    (receivers on this machine); their queue is wrangler's local Queues, nothing to set up;
 * 3. applies the local D1 migrations, then seeds the demo calendar if the calendar is empty (unless
 *    `--no-demo`), and loads the KV strings (same code as `npm run strings:load`). The wrangler
 *    commands of these steps run one after another (scripts/lib/wrangler.ts): run at once, they
 *    made the first start fail now and then with `database is locked: SQLITE_BUSY`;
 * 4. starts `wrangler dev`, waits for the first 200, prints the URLs (the calendar editor's with the
 *    administrator's sign-in), and stays in the foreground.
 * Ctrl-C / SIGTERM stop wrangler and its workerd (their whole process group) before exiting.
 * Exit code 1 when a step fails (bad setting, port taken, wrangler error), else wrangler's own.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { type Settings, SettingsError } from "../src/settings";
import { readSettings } from "./lib/config";
import { startDevServer } from "./lib/dev-server";
import { ensureAdminPassword, ensureImageUrlCheck, ensureWebhookVars } from "./lib/dev-vars";
import { info, sinceStart, step, warn } from "./lib/log";
import { applyMigrations } from "./lib/migrations";
import { exited, exitOnSignals, portFree, stopAll } from "./lib/processes";
import { describeSeed, seedDemo } from "./lib/seed";
import { languageWarnings, putLanguageFiles, readLanguageFiles } from "./lib/strings";
import { localState } from "./lib/wrangler";

const HOST = "127.0.0.1";

function fail(message: string): never {
  console.error(`\n${message}`);
  process.exit(1);
}

const USAGE = `Usage: npm start [-- --port 8787] [--no-demo] [--persist-to DIR] [--var NAME:VALUE …]

  --port <n>          where wrangler dev listens on 127.0.0.1 (default 8787)
  --no-demo           start with an empty calendar (migrations and strings as usual); an existing
                      calendar is never touched either way
  --persist-to <dir>  keep the local D1 database and KV strings in <dir> (created if missing)
                      instead of .wrangler/state, e.g. for a second instance from the same clone
  --var <NAME:VALUE>  one setting for this run only, over wrangler.toml and .dev.vars (repeatable),
                      e.g. --var IMAGE_URL_CHECK:head`;

let port: number;
let demo: boolean;
/** `--var` settings: over wrangler.toml and `.dev.vars`, for this run only. */
const cliVars: Record<string, string> = {};
try {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8787" },
      demo: { type: "boolean", default: true },
      "persist-to": { type: "string" },
      var: { type: "string", multiple: true, default: [] },
      help: { type: "boolean", short: "h", default: false },
    },
    allowNegative: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  port = Number(values.port);
  demo = values.demo;
  for (const pair of values.var) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/s.exec(pair);
    if (!m) throw new Error(`--var takes NAME:VALUE, got ${pair}`);
    cliVars[m[1]] = m[2];
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`--port must be a TCP port, got ${values.port}`);
  const persistTo = values["persist-to"];
  if (persistTo !== undefined) {
    if (!persistTo.trim()) throw new Error("--persist-to needs a folder");
    // npm runs scripts in the project root; a relative folder means one relative to where the
    // command was typed (INIT_CWD), as the user expects.
    localState.persistTo = path.resolve(process.env.INIT_CWD ?? process.cwd(), persistTo);
  }
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(2);
}
exitOnSignals("Stopping wrangler dev…");

const webhookVars = ensureWebhookVars();
let settings: Settings;
try {
  settings = readSettings({ overrides: cliVars });
} catch (err) {
  if (err instanceof SettingsError)
    fail(
      `✗ ${err.message}\n  Fix it in wrangler.toml [vars] (or .dev.vars, which overrides it locally).`,
    );
  fail(`✗ ${err instanceof Error ? err.message : String(err)}`);
}
const admin = ensureAdminPassword();
const imageCheck = ensureImageUrlCheck();
if (cliVars.IMAGE_URL_CHECK !== undefined)
  Object.assign(imageCheck, { value: cliVars.IMAGE_URL_CHECK, created: false });
for (const [name, value] of Object.entries(cliVars)) info(`--var ${name}=${value} (this run only)`);
if (localState.persistTo) info(`Local state (D1, KV) in ${localState.persistTo}`);
console.log(
  `✓ Settings valid (site time zone ${settings.siteTimezone}, languages ${settings.languages.join(", ")})`,
);
info(
  `Admin application password: ${admin.password}${admin.created ? " (new, saved in .dev.vars)" : " (from .dev.vars)"}`,
);
info(
  imageCheck.value === "off"
    ? `Image URLs are checked by their file extension only (IMAGE_URL_CHECK=off${imageCheck.created ? ", new" : ""} in .dev.vars; "head" checks them as production does)`
    : `Image URLs are checked with an HTTP HEAD (IMAGE_URL_CHECK=${imageCheck.value} in .dev.vars)`,
);
if (webhookVars.length) info(`Webhooks: added ${webhookVars.join(" and ")} to .dev.vars`);
if (!(await portFree(HOST, port)))
  fail(
    `✗ Port ${port} on ${HOST} is in use: is another \`npm start\` or \`npm run dev\` running? Stop it or use \`npm start -- --port <n>\`.`,
  );

try {
  const database = (async () => {
    const applied = await step("Applying D1 migrations (local)", () => applyMigrations(false));
    info(applied.length ? `applied ${applied.join(", ")}` : "already up to date");
    if (!demo) {
      info("--no-demo: no demo calendar (import one with `npm run import`)");
      return;
    }
    // A database created by this very call is empty: the seed can skip its content query.
    const justCreated = applied.some((file) => file.startsWith("0000_"));
    const seeded = await step("Seeding the demo calendar if empty (local)", () =>
      seedDemo({ justCreated }),
    );
    for (const line of describeSeed(seeded)) info(line);
  })();
  // Started together, but their wrangler commands queue up (runWrangler): migrations, seed, strings.
  const strings = (async () => {
    const files = readLanguageFiles();
    for (const line of languageWarnings(files, settings.languages)) warn(line);
    const langs = await step("Loading strings into KV (local)", () => putLanguageFiles(files));
    info(langs.map((l) => `strings:${l}`).join(", "));
  })();
  await Promise.all([database, strings]);
} catch (err) {
  await stopAll();
  fail(`✗ ${err instanceof Error ? err.message : String(err)}`);
}

const origin = `http://${HOST}:${port}`;
const ns = `${settings.restPrefix}/${settings.vendor}/events/v1`;
const probe = `${origin}/${settings.defaultLanguage}/${ns}/events`;
let server: Awaited<ReturnType<typeof startDevServer>>;
try {
  server = await step(`Starting wrangler dev on ${origin}`, () =>
    startDevServer({
      host: HOST,
      port,
      probeUrl: probe,
      persistTo: localState.persistTo,
      vars: cliVars,
    }),
  );
} catch (err) {
  await stopAll();
  fail(`✗ ${err instanceof Error ? err.message : String(err)}`);
}

if (server.status === 200) console.log(`\n✓ Ready in ${sinceStart()}: ${origin}`);
else
  warn(
    `The worker answers ${server.status} at ${probe} (wrangler keeps running and reloads on save):\n    ${server.body.slice(0, 300)}`,
  );
const rows: Array<[string, string]> = [
  ...settings.languages.map((lang): [string, string] => [
    `Events (${lang})`,
    `${origin}/${lang}/${ns}/events`,
  ]),
  [`Events (default, ${settings.defaultLanguage})`, `${origin}/${ns}/events`],
  ["iCalendar feed", `${origin}/${ns}/events.ics`],
  ...settings.languages.map((lang): [string, string] => [
    `API reference (${lang})`,
    `${origin}/${lang}/${ns}/reference`,
  ]),
  ["Current user", `${origin}/${settings.restPrefix}/wp/v2/users/me`],
];
const width = Math.max(...rows.map(([label]) => label.length));
for (const [label, url] of rows) info(`${label.padEnd(width)}  ${url}`);
info(`Try: curl -u admin:${admin.password} ${origin}/${settings.restPrefix}/wp/v2/users/me`);
// The calendar editor (contract §7.11): what a newcomer opens first, and how to sign in to it.
info(`Calendar editor: ${origin}/wp-admin/  (German: ${origin}/de/wp-admin/)`);
info(`Sign in as: admin / ${admin.password}`);
console.log("Press Ctrl-C to stop. Requests are logged below.\n");

// wrangler stopped by itself (a crash, or a signal not sent by us): take its workerd with it.
const code = await exited(server.child);
await stopAll();
process.exit(code);
