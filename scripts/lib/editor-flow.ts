/**
 * The calendar editor (contract §7.11) as a person uses it, in one language, through
 * playwright-core: each step a function of an `EditorRun`, found by the labels of that language's
 * strings (`editor.*`), so a missing label or a wrong language fails the step. Every screen is
 * screenshot and checked by axe-core (scripts/lib/editor-browser.ts).
 */
import type { Locator, Page } from "playwright-core";
import { screenshot, seriousViolations } from "./editor-browser";

/** One language's run: the page, where the server is, the editor's strings of that language. */
export interface EditorRun {
  page: Page;
  origin: string;
  lang: string;
  /** `/de/wp-admin/`. */
  editorPath: string;
  /** `/de/wp-json/tribe/events/v1`. */
  namespacePath: string;
  /** The `editor` section of the language's strings file. */
  s: Record<string, string>;
  /** Its `messages` section: the API's error messages. */
  messages: Record<string, string>;
  outDir: string;
  problems: string[];
  seen: string[];
  screenshots: string[];
}

/** Screenshot and axe check of the screen as it is now. */
export async function inspect(run: EditorRun, screen: string): Promise<void> {
  run.screenshots.push(await screenshot(run.page, run.outDir, `${run.lang}-${screen}`));
  for (const v of await seriousViolations(run.page)) run.problems.push(`${screen}: ${v}`);
}

/** The inline "create" box whose field has this label, and its button. */
function inlineCreate(page: Page, label: string): { input: Locator; add: Locator } {
  const box = page
    .locator(".inline-create")
    .filter({ has: page.getByLabel(label, { exact: true }) });
  return { input: box.getByLabel(label, { exact: true }), add: box.getByRole("button") };
}

/** An anonymous GET of the API (no cookie, no credentials): status and JSON body. */
export async function anonymous(
  run: EditorRun,
  path: string,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${run.origin}${run.namespacePath}${path}`);
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Opens the editor signed out: it must send the browser to sign-in, naming itself as the way back. */
export async function landsOnSignIn(run: EditorRun): Promise<void> {
  await run.page.goto(`${run.origin}${run.editorPath}`);
  await run.page.waitForURL(/\/wp-login\.php/, { timeout: 15_000 });
  const back = new URL(run.page.url()).searchParams.get("redirect_to") ?? "";
  if (!back.startsWith(run.editorPath))
    run.problems.push(`sign-in's redirect_to is ${back}, not ${run.editorPath}`);
  await run.page.waitForSelector('input[name="log"]');
  await inspect(run, "signin");
  run.seen.push(`signed out: sent to ${new URL(run.page.url()).pathname}`);
}

/** Signs in on WordPress's form (`log`, `pwd`) and waits for the editor with the user's name. */
export async function signIn(run: EditorRun, user: string, password: string): Promise<void> {
  const { page } = run;
  await page.fill('input[name="log"]', user);
  await page.fill('input[name="pwd"]', password);
  await Promise.all([
    page.waitForURL((url) => url.pathname === run.editorPath, { timeout: 15_000 }),
    page.locator('form [type="submit"]').first().click(),
  ]);
  await page.getByRole("link", { name: run.s.sign_out }).waitFor({ timeout: 15_000 });
  run.seen.push(`signed in: ${(await page.locator(".user").textContent())?.trim()}`);
}

/** The events list, with the first page shown. */
export async function eventsList(run: EditorRun, screen?: string): Promise<void> {
  const { page } = run;
  await page.getByRole("link", { name: run.s.nav_events, exact: true }).click();
  await page.locator("table.list, p.empty").first().waitFor();
  if (screen) await inspect(run, screen);
}

/**
 * Creates an event in the form with a new venue and a new category (both created inline), and
 * returns its id (from the address the editor goes to).
 */
export async function createEvent(
  run: EditorRun,
  fields: { title: string; venue?: string; category?: string; screen?: string },
): Promise<number> {
  const { page, s } = run;
  await eventsList(run);
  await page.getByRole("link", { name: s.new_event, exact: true }).click();
  await page.getByLabel(s.field_title, { exact: true }).fill(fields.title);
  if (fields.venue) {
    const venue = inlineCreate(page, s.new_venue);
    await venue.input.fill(fields.venue);
    await venue.add.click();
    await page.waitForFunction(
      (name) =>
        document.querySelector<HTMLSelectElement>("#event-venue")?.selectedOptions[0]?.text ===
        name,
      fields.venue,
    );
  }
  if (fields.category) {
    const category = inlineCreate(page, s.new_category);
    await category.input.fill(fields.category);
    await category.add.click();
    await page.getByRole("checkbox", { name: fields.category, checked: true }).waitFor();
  }
  if (fields.screen) await inspect(run, fields.screen);
  await Promise.all([
    page.waitForURL(/#\/events\/\d+$/, { timeout: 15_000 }),
    page.getByRole("button", { name: s.create, exact: true }).click(),
  ]);
  const id = Number(/#\/events\/(\d+)$/.exec(page.url())![1]);
  await page.getByLabel(s.field_title, { exact: true }).waitFor();
  run.seen.push(`created event ${id}: ${fields.title}`);
  return id;
}

/**
 * A create the API refuses: a website that is not a URL. The API's message (in the page's
 * language) is shown above the form and its `data.params` message beside the field; nothing is
 * created (the form stays a new event's).
 * @param expected the language's `messages.rest_invalid_param` filled with `website`.
 */
export async function refusedField(run: EditorRun, expected: string): Promise<void> {
  const { page, s } = run;
  await eventsList(run);
  await page.getByRole("link", { name: s.new_event, exact: true }).click();
  await page.getByLabel(s.field_title, { exact: true }).fill(`Refused ${run.lang}`);
  await page.getByLabel(s.field_website, { exact: true }).fill("not a web address");
  await page.getByRole("button", { name: s.create, exact: true }).click();
  const beside = page.locator("#event-website-error");
  await beside.waitFor({ timeout: 15_000 });
  const summary = (await page.getByRole("alert").textContent())?.trim();
  if (summary !== expected)
    run.problems.push(`refused create says "${summary}", not "${expected}"`);
  const field = (await beside.textContent())?.trim();
  if (!field) run.problems.push("no message beside the refused website field");
  if (!/#\/events\/new$/.test(page.url()))
    run.problems.push(`refused create went to ${page.url()}`);
  await inspect(run, "event-refused");
  run.seen.push(`refused create: "${summary}", beside the website field: "${field}"`);
}

/** Searches the events list and returns the rows' link texts. */
export async function searchEvents(run: EditorRun, search: string): Promise<string[]> {
  const { page, s } = run;
  await eventsList(run);
  await page.getByLabel(s.search, { exact: true }).fill(search);
  await page.getByRole("button", { name: s.apply, exact: true }).click();
  await page.waitForFunction(
    (q) => {
      const rows = [...document.querySelectorAll("table.list tbody tr a")];
      return rows.length > 0 && rows.every((a) => a.textContent?.toLowerCase().includes(q));
    },
    search.toLowerCase(),
    { timeout: 15_000 },
  );
  return page.locator("table.list tbody tr a").allInnerTexts();
}

/** Opens an event's form, changes its title, saves, and waits for "saved". */
export async function editTitle(run: EditorRun, id: number, title: string): Promise<void> {
  const { page, s } = run;
  await page.goto(`${run.origin}${run.editorPath}#/events/${id}`);
  const field = page.getByLabel(s.field_title, { exact: true });
  await page.waitForFunction(() => {
    const input = document.querySelector<HTMLInputElement>("#event-title-field");
    return input !== null && input.value !== "";
  });
  await field.fill(title);
  await page.getByRole("button", { name: s.save, exact: true }).click();
  await page.getByRole("status").filter({ hasText: s.saved }).waitFor({ timeout: 15_000 });
  run.seen.push(`edited event ${id}: ${title}`);
}

/** Trashes the open event and waits for the editor to say so. */
export async function trashOpenEvent(run: EditorRun): Promise<void> {
  const { page, s } = run;
  await page.getByRole("button", { name: s.trash, exact: true }).click();
  await page.getByRole("status").filter({ hasText: s.trashed }).waitFor({ timeout: 15_000 });
}

/** Restores the trashed event on screen (as a draft) and waits for the form to come back. */
export async function restoreOpenEvent(run: EditorRun): Promise<void> {
  const { page, s } = run;
  await page.getByRole("button", { name: s.restore, exact: true }).click();
  await page.getByRole("status").filter({ hasText: s.restored }).waitFor({ timeout: 15_000 });
  await page.getByLabel(s.field_title, { exact: true }).waitFor();
}

/** Deletes the open event for good (asking first) and waits for the list. */
export async function deleteOpenEvent(run: EditorRun): Promise<void> {
  const { page, s } = run;
  await page.getByRole("button", { name: s.delete_forever, exact: true }).click();
  await Promise.all([
    page.waitForURL(/#\/events$/, { timeout: 15_000 }),
    page.getByRole("button", { name: s.yes_delete, exact: true }).click(),
  ]);
}

/** The venues and organizers screens: each list, and the form of the first item. */
export async function linkedScreens(run: EditorRun): Promise<void> {
  const { page, s } = run;
  for (const [nav, screen] of [
    [s.nav_venues, "venues"],
    [s.nav_organizers, "organizers"],
  ] as const) {
    await page.getByRole("link", { name: nav, exact: true }).click();
    await page.locator("table.list, p.empty").first().waitFor();
    await inspect(run, screen);
    const first = page.locator("table.list tbody tr a").first();
    if ((await first.count()) === 0) continue;
    await first.click();
    await page.waitForFunction(() => {
      const input = document.querySelector<HTMLInputElement>("form.record input");
      return input !== null && input.value !== "";
    });
    await inspect(run, `${screen.slice(0, -1)}-form`);
    if (screen === "venues") await venueCoordinates(run);
  }
}

/**
 * On the open venue form: coordinates typed in are saved and read back anonymously from the API
 * (issue 37 item 4: no map, no geocoder).
 */
async function venueCoordinates(run: EditorRun): Promise<void> {
  const { page, s } = run;
  const id = Number(/#\/venues\/(\d+)/.exec(page.url())?.[1]);
  await page.getByLabel(s.field_geo_lat, { exact: true }).fill("52.52");
  await page.getByLabel(s.field_geo_lng, { exact: true }).fill("13.405");
  await page.getByRole("button", { name: s.save, exact: true }).click();
  await page.getByText(s.saved, { exact: true }).waitFor();
  const venue = (await fetch(`${run.origin}${run.namespacePath}/venues/${id}`).then((r) =>
    r.json(),
  )) as {
    geo_lat?: number;
    geo_lng?: number;
  };
  if (venue.geo_lat !== 52.52 || venue.geo_lng !== 13.405)
    run.problems.push(`venue ${id} coordinates not saved: ${venue.geo_lat}, ${venue.geo_lng}`);
  else run.seen.push(`venue ${id} coordinates typed in and read back: 52.52, 13.405`);
}

/**
 * Keyboard and phone: from the top of the list, Tab reaches "New event" with a visible focus ring
 * and Enter opens the form; at 390 px the list and the form are one column without sideways
 * scrolling (screenshots `events-phone`, `event-form-phone`).
 */
export async function keyboardAndPhone(run: EditorRun): Promise<void> {
  const { page, s } = run;
  await eventsList(run);
  await page.locator("body").focus();
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(
      (label) => document.activeElement?.textContent?.trim() === label,
      s.new_event,
    );
  }
  if (!reached) run.problems.push("Tab does not reach the New event link");
  const ring = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement as Element);
    return `${style.outlineStyle} ${style.outlineWidth}`;
  });
  if (ring.startsWith("none") || ring.endsWith(" 0px"))
    run.problems.push(`no visible focus: ${ring}`);
  await page.keyboard.press("Enter");
  await page.getByLabel(s.field_title, { exact: true }).waitFor();
  run.seen.push(`keyboard: Tab reaches "${s.new_event}" (focus ${ring}), Enter opens the form`);
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    for (const screen of ["event-form-phone", "events-phone"]) {
      if (screen === "events-phone") await eventsList(run);
      await inspect(run, screen);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (wide > 391) run.problems.push(`${screen}: ${wide} px wide at 390 px`);
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

/**
 * Signs out with the editor's link: WordPress's signed-out page, and the editor asks to sign in
 * again. An editor left open in another tab of the same browser finds out at its next request
 * (its nonce is refused, 403 `rest_cookie_invalid_nonce`) and goes to sign-in too.
 */
export async function signOut(run: EditorRun): Promise<void> {
  const { page } = run;
  const other = await page.context().newPage();
  await other.goto(`${run.origin}${run.editorPath}`);
  await other.locator("table.list, p.empty").first().waitFor({ timeout: 15_000 });
  await Promise.all([
    page.waitForURL(/loggedout=true/, { timeout: 15_000 }),
    page.getByRole("link", { name: run.s.sign_out }).click(),
  ]);
  await page.goto(`${run.origin}${run.editorPath}`);
  await page.waitForURL(/\/wp-login\.php/, { timeout: 15_000 });
  await Promise.all([
    other.waitForURL(/\/wp-login\.php/, { timeout: 15_000 }),
    other.getByRole("link", { name: run.s.nav_venues, exact: true }).click(),
  ]);
  await other.close();
  run.seen.push(
    "signed out: the editor asks to sign in again, and so does one open in another tab",
  );
}
