/**
 * `npm run test:editor` (`.ci/run` runs it after the reference page's check): the calendar editor
 * (contract §7.11) in headless Chromium on a fresh `npm start`, in every language of the settings.
 *
 * Per language: `/{lang}/wp-admin/` sends a signed-out browser to WordPress's sign-in; signing in
 * as `admin` (`ADMIN_APP_PASSWORD` of `.dev.vars`) comes back to the editor; an event is created
 * with a new venue and a new category, found in the list, read anonymously from
 * `GET /events`, edited, trashed, restored (a draft) and deleted for good; the venues and organizers screens open; signing out ends the
 * session; Tab reaches "New event" with a visible focus and Enter opens the form; at phone width
 * the list and the form have no sideways scrolling. In the first language also: an event titled `<img src=x onerror=alert(1)>` shows as text
 * (no dialog, no image element); from another origin, a form POST and a `fetch` with the session's
 * cookies create nothing; a contributor's
 * "published" event is kept pending by the API, and the administrator's list shows it so. axe-core reports no
 * serious or critical violation on any screen; each is screenshot into `test-output/editor-*.png`.
 * The month view, categories and tags, webhooks and application passwords: scripts/lib/editor-ops*.ts
 * (every screen per language; in the first language their flows, checked through the API).
 * Recurring series (scripts/lib/editor-series.ts): in the first language a weekly series with an
 * exception made in the rule builder (its preview), one occurrence moved, the list, the feed and a
 * signed webhook delivery checked anonymously, "this and following" deleted; in the others the
 * builder read back from a series and an occurrence's choice of this / following / all.
 * Exit code 1 when anything failed.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, ensureChromium } from "./lib/chromium";
import { readSettings } from "./lib/config";
import { type Attacker, attack, startAttacker } from "./lib/editor-attacker";
import { screenshot, watchPage } from "./lib/editor-browser";
import {
  anonymous,
  createEvent,
  deleteOpenEvent,
  type EditorRun,
  editTitle,
  eventsList,
  inspect,
  keyboardAndPhone,
  landsOnSignIn,
  linkedScreens,
  refusedField,
  restoreOpenEvent,
  searchEvents,
  signIn,
  signOut,
  trashOpenEvent,
} from "./lib/editor-flow";
import { opsChecks } from "./lib/editor-ops-admin";
import { contributorSubmits } from "./lib/editor-roles";
import { seriesScenario, seriesScreens } from "./lib/editor-series";
import { type Instance, startInstance } from "./lib/instance";
import { info, seconds, sinceStart, step } from "./lib/log";
import { PATHS, ROOT } from "./lib/paths";
import { exitOnSignals } from "./lib/processes";

const OUT = path.join(ROOT, "test-output");
const XSS = "<img src=x onerror=alert(1)>";

exitOnSignals();
mkdirSync(OUT, { recursive: true });
// Screenshots of an earlier run would pass for this one's.
for (const name of readdirSync(OUT))
  if (/^editor-.*\.png$/.test(name)) rmSync(path.join(OUT, name));
const settings = readSettings();
const ns = `${settings.restPrefix}/${settings.vendor}/events/v1`;
const logFile = path.join(OUT, "editor-check-server.log");
const stamp = Date.now().toString(36);

/** The XSS and CSRF cases, in the first language's session. */
async function safetyCases(run: EditorRun, attacker: Attacker, password: string): Promise<void> {
  const { page } = run;
  await createEvent(run, { title: XSS });
  const rows = await searchEvents(run, "onerror");
  if (!rows.includes(XSS)) run.problems.push(`XSS title not shown as text in the list: ${rows}`);
  if ((await page.locator("main img").count()) > 0)
    run.problems.push("XSS title made an img element");
  run.seen.push(`XSS title shown as text: ${JSON.stringify(rows[0])}`);

  const target = `${run.origin}/${ns}/events`;
  const marker = `CSRF ${stamp}`;
  const attempts = await attack(page, attacker.origin, target, marker);
  const basic = `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`;
  const found = await fetch(
    `${run.origin}/${ns}/events?search=${encodeURIComponent(marker)}&status=publish,future,draft,pending,private&start_date=2000-01-01`,
    { headers: { authorization: basic } },
  ).then((r) => r.json() as Promise<{ total: number }>);
  for (const a of attempts) {
    run.seen.push(
      `CSRF ${a.kind}: ${a.status}, session cookie ${a.cookieSent ? "sent" : "not sent"}`,
    );
    if (a.status !== 0 && a.status < 400) run.problems.push(`CSRF ${a.kind} answered ${a.status}`);
  }
  if (found.total !== 0) run.problems.push(`CSRF created ${found.total} event(s)`);
  await page.goto(`${run.origin}${run.editorPath}`);
  await page.locator("table.list, p.empty").first().waitFor();
}

/** One language's whole flow; the safety and role cases in the first language only. */
async function flow(
  run: EditorRun,
  password: string,
  first?: { attacker: Attacker; browser: Browser },
): Promise<void> {
  await landsOnSignIn(run);
  await signIn(run, "admin", password);
  await eventsList(run, "events");
  await refusedField(run, run.messages.rest_invalid_param.replace("%s", "website"));
  const title = `Editor check ${run.lang} ${stamp}`;
  const venue = `Editor Hall ${run.lang} ${stamp}`;
  const category = `Editor category ${run.lang} ${stamp}`;
  const id = await createEvent(run, { title, venue, category, screen: "event-form" });
  const rows = await searchEvents(run, title);
  if (!rows.includes(title)) run.problems.push(`the list does not show ${title}: ${rows}`);
  const listed = await anonymous(run, `/events?search=${encodeURIComponent(title)}`);
  const event = listed.body?.events?.find((e: { id: number }) => e.id === id);
  if (!event) run.problems.push(`anonymous GET /events does not list event ${id}`);
  else {
    if (event.venue?.venue !== venue)
      run.problems.push(`event ${id} venue: ${JSON.stringify(event.venue)}`);
    if (!event.categories?.some((c: { name: string }) => c.name === category))
      run.problems.push(`event ${id} categories: ${JSON.stringify(event.categories)}`);
    run.seen.push(`anonymous GET /events lists ${id} at ${event.venue?.venue} in ${category}`);
  }
  await editTitle(run, id, `${title} edited`);
  const edited = await anonymous(run, `/events/${id}`);
  if (edited.body?.title !== `${title} edited`)
    run.problems.push(`anonymous GET /events/${id} title: ${edited.body?.title}`);
  await inspect(run, "event-edit");
  await trashOpenEvent(run);
  await inspect(run, "event-trashed");
  const gone = await anonymous(run, `/events/${id}`);
  if (gone.status === 200) run.problems.push(`trashed event ${id} still readable anonymously`);
  run.seen.push(`trashed ${id}: anonymous GET answers ${gone.status} ${gone.body?.code}`);
  await restoreOpenEvent(run);
  const status = await run.page.locator("#event-status").inputValue();
  if (status !== "draft") run.problems.push(`restored event ${id} has status ${status}`);
  await deleteOpenEvent(run);
  const deleted = await anonymous(run, `/events/${id}`);
  if (deleted.status !== 404)
    run.problems.push(`deleted event ${id}: anonymous GET ${deleted.status}`);
  run.seen.push(
    `restored ${id} as ${status}, deleted it for good: ${deleted.status} ${deleted.body?.code}`,
  );
  await linkedScreens(run);
  await keyboardAndPhone(run);
  if (first) {
    await safetyCases(run, first.attacker, password);
    await contributorSubmits(first.browser, run, password, stamp);
  }
  await opsChecks(run, password, stamp, first?.browser);
  // Recurring series: the scenario in the first language, its screens in the others.
  await (first ? seriesScenario : seriesScreens)(run, password, stamp);
  await signOut(run);
}

let server: Instance | undefined;
let browser: Browser | undefined;
let attacker: Attacker | undefined;
const runs: EditorRun[] = [];
let failure: string | undefined;
try {
  await Promise.all([
    step("Chromium", async () => {
      if (await ensureChromium(path.join(OUT, "editor-check-apt.log")))
        info(`installed ${CHROMIUM}`);
    }),
    step("npm start (demo calendar, a state of its own)", async () => {
      server = await startInstance({ logFile, probePath: "/wp-admin/" });
    }),
  ]);
  if (!server) throw new Error("npm start did not start");
  attacker = await startAttacker();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  info(`Chromium ${browser.version()}, another origin at ${attacker.origin}`);
  for (const [i, lang] of settings.languages.entries()) {
    const strings = JSON.parse(readFileSync(path.join(PATHS.stringsDir, `${lang}.json`), "utf8"));
    const context = await browser.newContext({
      locale: lang,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    const watch = watchPage(page);
    const run: EditorRun = {
      page,
      origin: server.origin,
      lang,
      editorPath: `/${lang}/wp-admin/`,
      namespacePath: `/${lang}/${ns}`,
      s: strings.editor,
      messages: strings.messages,
      outDir: OUT,
      problems: [],
      seen: [],
      screenshots: [],
    };
    const t0 = performance.now();
    try {
      await flow(run, server.adminPassword, i === 0 ? { attacker, browser } : undefined);
    } catch (err) {
      run.problems.push(
        `stopped: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`,
      );
      run.screenshots.push(await screenshot(page, OUT, `${lang}-failure`).catch(() => ""));
    }
    run.problems.push(
      ...watch.problems,
      ...watch.dialogs.map((d) => `the page opened a dialog: ${d}`),
    );
    await context.close();
    console.log(
      `${run.problems.length ? "✗" : "✓"} Editor (${lang}) (${seconds(performance.now() - t0)})`,
    );
    for (const line of run.seen) info(line);
    for (const file of run.screenshots.filter(Boolean))
      info(`screenshot ${path.relative(ROOT, file)}`);
    for (const problem of run.problems) info(`✗ ${problem}`);
    runs.push(run);
  }
} catch (err) {
  failure = err instanceof Error ? err.message : String(err);
} finally {
  await browser?.close();
  await attacker?.stop();
  await server?.stop();
}

const failed = runs.filter((r) => r.problems.length > 0).map((r) => r.lang);
if (failure || failed.length || runs.length === 0) {
  console.error(
    `\n✗ Editor check failed${failure ? `: ${failure}` : ` in ${failed.join(", ")}`} (server log: ${path.relative(ROOT, logFile)})`,
  );
  process.exit(1);
}
console.log(
  `\n✓ Editor: sign-in, events, venues, organizers, sign-out in ${runs.map((r) => r.lang).join(", ")}; XSS shown as text; CSRF refused; axe clean (${sinceStart()})`,
);
