/**
 * The editor's month view, term and operations screens (issue 37) in the browser check
 * (scripts/editor-check.ts): every screen opens from the navigation, is screenshot and passes
 * axe-core, in each language; the month view places events on their days and moves between
 * months. The term, webhook and application-password flows are in editor-ops-admin.ts.
 */
import type { Page } from "playwright-core";
import { type EditorRun, inspect } from "./editor-flow";

/** Basic credentials of `admin` for the API calls the check makes itself. */
export const basicAuth = (password: string) =>
  `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`;

/** A request of the run's language's API as `admin`: status and JSON body. */
export async function asAdmin(
  run: EditorRun,
  password: string,
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${run.origin}${run.namespacePath}${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: basicAuth(password),
      ...(init.json === undefined ? {} : { "content-type": "application/json" }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Opens a screen by its navigation link and waits for its heading. */
export async function openNav(run: EditorRun, nav: string): Promise<void> {
  await run.page.getByRole("link", { name: nav, exact: true }).click();
  await run.page.locator("main h1").first().waitFor();
  await run.page.waitForFunction(() => !document.querySelector("main [aria-busy='true']"));
}

/**
 * The screen as it is at 390 px: no sideways scrolling (the page no wider than the viewport).
 * @param screen its name in the problem reported.
 */
export async function fitsPhone(run: EditorRun, screen: string): Promise<void> {
  await run.page.setViewportSize({ width: 390, height: 844 });
  try {
    const wide = await run.page.evaluate(() => document.documentElement.scrollWidth);
    if (wide > 391) run.problems.push(`${screen}: ${wide} px wide at 390 px`);
  } finally {
    await run.page.setViewportSize({ width: 1280, height: 900 });
  }
}

/** The event links in one day's cell of the grid. */
const cellTitles = (page: Page, day: string) =>
  page.locator(`.month-grid td[data-day="${day}"] .month-events a`).allInnerTexts();

/**
 * Every new screen of this slice, opened and inspected: the month (wide and at 390 px, which
 * must show the list of days and not scroll sideways), the category and tag lists and new
 * forms, the webhooks list and new form, the application passwords.
 */
export async function opsScreens(run: EditorRun): Promise<void> {
  const { page, s } = run;
  await openNav(run, s.nav_calendar);
  await inspect(run, "calendar");
  const first = await page.locator(".month-grid tbody td").first().getAttribute("data-day");
  const weekday = new Date(`${first}T00:00:00Z`).getUTCDay();
  // The language's custom (CLDR, through Node's Intl: Sunday in English, Monday in German).
  // (`getWeekInfo()` in newer engines, the `weekInfo` getter in Node 20's V8.)
  type WeekInfo = { firstDay: number };
  const locale = new Intl.Locale(run.lang) as Intl.Locale & {
    getWeekInfo?: () => WeekInfo;
    weekInfo?: WeekInfo;
  };
  const expected = (locale.getWeekInfo?.() ?? locale.weekInfo)!.firstDay % 7;
  if (weekday !== expected)
    run.problems.push(`the month's weeks start on weekday ${weekday}, not ${expected}`);
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await inspect(run, "calendar-phone");
    const grid = await page.locator(".month-grid").isVisible();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    if (grid) run.problems.push("calendar-phone: the grid is shown, not the list of days");
    if (wide > 391) run.problems.push(`calendar-phone: ${wide} px wide at 390 px`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  for (const [nav, screen, create] of [
    [s.nav_categories, "categories", s.new_category],
    [s.nav_tags, "tags", s.new_tag],
    [s.nav_webhooks, "webhooks", s.new_webhook],
  ] as const) {
    await openNav(run, nav);
    await inspect(run, screen);
    await fitsPhone(run, screen);
    await page.getByRole("link", { name: create, exact: true }).click();
    await page.locator("form.record").waitFor();
    await inspect(run, `${screen}-new`);
    await fitsPhone(run, `${screen}-new`);
  }
  await openNav(run, s.nav_app_passwords);
  await inspect(run, "app-passwords");
  await fitsPhone(run, "app-passwords");
  run.seen.push(
    `screens: calendar (weeks from weekday ${weekday}), terms, webhooks, app passwords`,
  );
}

/**
 * The month view in March 2027: an event on the 17th shows in that day's cell only; one from 30
 * March to 2 April in each of its days, in March's grid and in April's (reached with "next"), and
 * its link opens its form. Then 55 events in May 2031 (more than one page of 50) all show.
 * The events are created and deleted through the API.
 */
export async function monthChecks(run: EditorRun, password: string, stamp: string): Promise<void> {
  const { page, s } = run;
  const make = async (title: string, start: string, end: string) => {
    const res = await asAdmin(run, password, "/events", {
      method: "POST",
      json: { title, start_date: start, end_date: end, status: "publish" },
    });
    if (res.status !== 201) throw new Error(`POST /events answered ${res.status}`);
    return res.body.id as number;
  };
  const day = `Month day ${run.lang} ${stamp}`;
  const span = `Month span ${run.lang} ${stamp}`;
  const ids = [
    await make(day, "2027-03-17 10:00:00", "2027-03-17 11:00:00"),
    await make(span, "2027-03-30 18:00:00", "2027-04-02 12:00:00"),
  ];
  try {
    await page.goto(`${run.origin}${run.editorPath}#/calendar/2027-03`);
    await page.locator('.month-grid td[data-day="2027-03-17"] .month-events a').first().waitFor();
    const where: string[] = [];
    for (const d of ["2027-03-16", "2027-03-17", "2027-03-18", "2027-03-30", "2027-03-31"]) {
      const titles = (await cellTitles(page, d)).join(" | ");
      where.push(
        `${d.slice(8)}: ${titles.includes(day) ? "day" : ""}${titles.includes(span) ? "span" : ""}`,
      );
    }
    const expected = ["16: ", "17: day", "18: ", "30: span", "31: span"];
    if (where.join(", ") !== expected.join(", "))
      run.problems.push(`March 2027's cells: ${where.join(", ")}, not ${expected.join(", ")}`);
    await inspect(run, "calendar-events");
    await page.getByRole("link", { name: s.month_next, exact: true }).click();
    await page.waitForURL(/#\/calendar\/2027-04$/);
    await page.locator('.month-grid td[data-day="2027-04-02"] .month-events a').first().waitFor();
    const april = [];
    for (const d of ["2027-04-01", "2027-04-02", "2027-04-03"])
      april.push((await cellTitles(page, d)).some((x) => x.includes(span)));
    if (april.join() !== "true,true,false")
      run.problems.push(`April 2027: the span on the 1st–3rd: ${april.join()}`);
    const heading = (await page.locator("main h1").textContent())?.trim();
    // By keyboard: Enter on "previous" goes back and keeps the focus there, for the next Enter.
    await page.getByRole("link", { name: s.month_previous, exact: true }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/#\/calendar\/2027-03$/);
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.tagName === "A" ? el.textContent?.trim() : el?.tagName;
    });
    if (focused !== s.month_previous) run.problems.push(`after "previous", focus is on ${focused}`);
    await page
      .locator('.month-grid td[data-day="2027-03-17"] .month-events a', { hasText: day })
      .click();
    await page.waitForURL(new RegExp(`#/events/${ids[0]}$`));
    run.seen.push(`month: ${where.join(", ")}; next → "${heading}" with the span on 1–2 April`);
    await pagedMonth(run, stamp, ids, make);
  } finally {
    for (const id of ids)
      await asAdmin(run, password, `/events/${id}?force=true`, { method: "DELETE" });
  }
}

/** 55 events in May 2031 (two pages of 50): the grid shows every one. */
async function pagedMonth(
  run: EditorRun,
  stamp: string,
  ids: number[],
  make: (title: string, start: string, end: string) => Promise<number>,
): Promise<void> {
  const count = 55;
  for (let i = 0; i < count; i += 5)
    ids.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(5, count - i) }, (_, j) => {
          const d = `2031-05-${String(((i + j) % 28) + 1).padStart(2, "0")}`;
          return make(`Paged ${i + j} ${stamp}`, `${d} 09:00:00`, `${d} 10:00:00`);
        }),
      )),
    );
  await run.page.goto(`${run.origin}${run.editorPath}#/calendar/2031-05`);
  await run.page.locator(".month-grid .month-events a").first().waitFor();
  await run.page.waitForFunction(() => !document.querySelector("main [aria-busy='true']"));
  const shown = await run.page
    .locator(".month-grid .month-events a", { hasText: `${stamp}` })
    .count();
  if (shown !== count) run.problems.push(`May 2031 shows ${shown} of ${count} events`);
  run.seen.push(`May 2031: ${shown} of ${count} events shown (two pages of 50)`);
}
