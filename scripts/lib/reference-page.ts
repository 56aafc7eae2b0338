/**
 * The reference page (contract §7.6) as a person sees it, in one language, driven through playwright-core:
 * rendered offline (every request that is not for the server under test is refused and reported),
 * with the strings file's title and intro, the `GET /events` operation and the `Event` schema, a
 * working "Try it out" of `GET /events`, and "Authorize" with an application password (drafts
 * listed). Screenshots go to the output directory.
 */
import path from "node:path";
import type { Browser, Locator, Page, Response } from "playwright-core";
import { type Strings, text } from "../../src/i18n/index";
import { REFERENCE_PAGE_FILES, referenceAsset } from "../../src/root/reference/assets";

/** What one language's check found. */
export interface ReferencePageResult {
  lang: string;
  /** Everything that went wrong; empty when the page passed. */
  problems: string[];
  /** Lines for the log: what was seen. */
  seen: string[];
  /** Screenshots written. */
  screenshots: string[];
}

/** Where to look: the origin of the server, its namespace path (`/en/wp-json/tribe/events/v1`). */
export interface ReferencePageTarget {
  origin: string;
  lang: string;
  namespacePath: string;
  strings: Strings;
  outDir: string;
  /** An administrator's application password, to check "Authorize" (skipped without). */
  admin?: { user: string; password: string };
}

/** Watches a page for what must not happen: errors in the console, failed or foreign requests. */
function watch(page: Page, origin: string) {
  const problems: string[] = [];
  const assets = new Map<string, number>();
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`uncaught error in the page: ${err.message}`));
  page.on("requestfailed", (r) =>
    problems.push(`request failed: ${r.method()} ${r.url()} (${r.failure()?.errorText})`),
  );
  page.on("response", (r: Response) => {
    const url = new URL(r.url());
    if (url.origin === origin && url.pathname.startsWith(referenceAsset("")))
      assets.set(url.pathname, r.status());
    if (r.status() >= 400)
      problems.push(`HTTP ${r.status()} for ${r.request().method()} ${r.url()}`);
  });
  return { problems, assets };
}

/** What "Execute" of an operation sent and got. */
interface Execution {
  url: string;
  status: number;
  /** The status the page shows in its live response. */
  shown: string | undefined;
  events: Array<{ status?: string }>;
  total: number | undefined;
  basicAuth: boolean;
}

/** Presses "Execute" in an operation block (in "Try it out" mode) and waits for its answer. */
async function execute(page: Page, block: Locator, path: string): Promise<Execution> {
  const [answer] = await Promise.all([
    page.waitForResponse(
      (r) => new URL(r.url()).pathname === path && r.request().method() === "GET",
      { timeout: 30_000 },
    ),
    block.locator("button.execute").click(),
  ]);
  const body = (await answer.json()) as { events?: Array<{ status?: string }>; total?: number };
  const status = block.locator(".live-responses-table tr.response .response-col_status").first();
  await status.waitFor({ timeout: 10_000 });
  return {
    url: answer.url(),
    status: answer.status(),
    shown: (await status.textContent())?.trim(),
    events: Array.isArray(body.events) ? body.events : [],
    total: body.total,
    basicAuth: (answer.request().headers().authorization ?? "").startsWith("Basic "),
  };
}

/** The operations of an OpenAPI document whose `security` has no empty (anonymous) requirement. */
async function credentialedOperations(docUrl: string): Promise<number> {
  type Operation = { responses?: unknown; security?: Array<Record<string, unknown>> };
  const doc = (await (await fetch(docUrl)).json()) as {
    paths: Record<string, Record<string, Operation>>;
    security?: Array<Record<string, unknown>>;
  };
  return Object.values(doc.paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => op && typeof op === "object" && op.responses)
    .filter((op) => !(op.security ?? doc.security ?? []).some((r) => Object.keys(r).length === 0))
    .length;
}

/**
 * Opens `{namespacePath}/reference` in a new browser context and checks it; never throws (a
 * timeout or a crash is a problem in the result, with a screenshot of the moment).
 */
export async function checkReferencePage(
  browser: Browser,
  target: ReferencePageTarget,
): Promise<ReferencePageResult> {
  const { origin, lang, namespacePath, strings, outDir } = target;
  const result: ReferencePageResult = { lang, problems: [], seen: [], screenshots: [] };
  const shot = (name: string) => {
    const file = path.join(outDir, `reference-${lang}${name}.png`);
    result.screenshots.push(file);
    return file;
  };
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: lang,
  });
  const foreign: string[] = [];
  // Offline, as on a machine without internet: only the server under test answers.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    foreign.push(url);
    return route.abort("internetdisconnected");
  });
  const page = await context.newPage();
  const watched = watch(page, origin);
  const url = `${origin}${namespacePath}/reference`;
  try {
    await page.goto(url, { waitUntil: "load" });
    const title = text(strings, "reference.title");
    if ((await page.title()) !== title)
      result.problems.push(`title is "${await page.title()}", not "${title}"`);
    const intro = text(strings, "reference.intro");
    if ((await page.locator(".reference-header p").first().textContent()) !== intro)
      result.problems.push("the intro is not the strings file's reference.intro");

    const events = page
      .locator(".opblock.opblock-get")
      .filter({ has: page.locator('.opblock-summary-path[data-path="/events"]') })
      .first();
    await events.waitFor({ state: "visible", timeout: 30_000 });
    const schema = page.locator("#model-Event");
    await schema.waitFor({ state: "visible", timeout: 10_000 });
    result.seen.push(
      `${url}: title "${title}", ${await page.locator(".opblock").count()} operations, ${await page.locator(".models .model-container").count()} schemas, GET /events and Event visible`,
    );
    // A padlock only where credentials are needed: none on a public read, one on a write.
    const createEvents = page
      .locator(".opblock.opblock-post")
      .filter({ has: page.locator('.opblock-summary-path[data-path="/events"]') })
      .first();
    const padlock = ".opblock-summary .authorization__btn";
    const locks = {
      read: await events.locator(padlock).count(),
      write: await createEvents.locator(padlock).count(),
      all: await page.locator(padlock).count(),
      // What `/doc` says: the operations anonymous callers may not use (no `{}` requirement).
      needed: await credentialedOperations(`${origin}${namespacePath}/doc`),
    };
    if (locks.read !== 0) result.problems.push("GET /events shows a padlock; anyone may read it");
    if (locks.write !== 1) result.problems.push("POST /events shows no padlock");
    if (locks.all !== locks.needed)
      result.problems.push(
        `${locks.all} padlocks, but ${locks.needed} operations of /doc need credentials`,
      );
    result.seen.push(
      `padlocks: ${locks.read} on GET /events, ${locks.write} on POST /events, ${locks.all} in all; /doc: ${locks.needed} operations need credentials`,
    );
    await page.screenshot({ path: shot("") });
    await page.screenshot({ path: shot("-full"), fullPage: true });

    // "Try it out": GET /events with the defaults the page fills in, sent by the browser.
    await events.locator(".opblock-summary").first().click();
    const pageArg = text(strings, "args.events.page");
    await events.getByText(pageArg, { exact: true }).first().waitFor({ timeout: 10_000 });
    await events.locator("button.try-out__btn").click();
    const eventsPath = `${namespacePath}/events`;
    const anonymous = await execute(page, events, eventsPath);
    if (anonymous.status !== 200 || anonymous.events.length === 0)
      result.problems.push(
        `Try it out GET /events answered ${anonymous.status} with ${anonymous.events.length} events`,
      );
    if (anonymous.shown !== "200")
      result.problems.push(`the page shows status ${anonymous.shown} for GET /events`);
    result.seen.push(
      `Try it out GET ${anonymous.url.replace(origin, "")} → ${anonymous.status}, ${anonymous.events.length} of ${anonymous.total} events, status ${anonymous.shown} shown`,
    );
    await events.screenshot({ path: shot("-try-events") });

    if (target.admin) {
      // "Authorize" (HTTP Basic, application password), then drafts: only a signed-in request may
      // list them, so a 200 full of drafts proves that the page sent the credentials.
      await page.locator(".auth-wrapper button.authorize").click();
      const basic = page.locator(".modal-ux .auth-container").filter({ hasText: "Basic" }).first();
      await basic.locator("input[type=text]").first().fill(target.admin.user);
      await basic.locator("input[type=password]").first().fill(target.admin.password);
      await basic.locator("button.authorize").click();
      await page.locator(".modal-ux button.btn-done").first().click();
      await events.locator('tr[data-param-name="status"] input').fill("draft");
      const drafts = await execute(page, events, eventsPath);
      const statuses = new Set(drafts.events.map((e) => e.status));
      if (!drafts.basicAuth)
        result.problems.push("Authorize: the request carried no Basic credentials");
      if (
        drafts.status !== 200 ||
        drafts.events.length === 0 ||
        statuses.size !== 1 ||
        !statuses.has("draft")
      )
        result.problems.push(
          `Authorize + GET /events?status=draft answered ${drafts.status} with ${drafts.events.length} events (${[...statuses].join(", ")})`,
        );
      result.seen.push(
        `Authorize (Basic, application password of ${target.admin.user}) + GET /events?status=draft → ${drafts.status}, ${drafts.events.length} drafts`,
      );
    }
  } catch (err) {
    result.problems.push(err instanceof Error ? err.message.split("\n")[0] : String(err));
    await page.screenshot({ path: shot("-failed"), fullPage: true }).catch(() => {});
  }
  for (const name of [...REFERENCE_PAGE_FILES.styles, ...REFERENCE_PAGE_FILES.scripts]) {
    const status = watched.assets.get(referenceAsset(name));
    if (status !== 200)
      result.problems.push(`asset ${referenceAsset(name)}: ${status ?? "never loaded"}`);
  }
  result.problems.push(...watched.problems, ...foreign.map((u) => `request to another host: ${u}`));
  await context.close();
  return result;
}
