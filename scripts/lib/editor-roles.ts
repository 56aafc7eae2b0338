/**
 * Roles in the calendar editor as the API enforces them (contract §7.11, §9.2): a contributor
 * created for the run signs in, submits an event as "published", and the API keeps it pending
 * review (§8.2: what a contributor publishes becomes `pending`); the administrator's list, filtered
 * by that status, shows it. The editor decides nothing: it shows what the API answered.
 */
import type { Browser } from "playwright-core";
import { watchPage } from "./editor-browser";
import { createEvent, type EditorRun, inspect, searchEvents, signIn, signOut } from "./editor-flow";

/**
 * Creates a contributor with a login password through `POST /wp/v2/users` (as `admin`), lets them
 * submit an event in a browser of their own, and checks its status on both sides.
 * @param admin the administrator's run, signed in, on the editor.
 */
export async function contributorSubmits(
  browser: Browser,
  admin: EditorRun,
  adminPassword: string,
  stamp: string,
): Promise<void> {
  const username = `contributor-${stamp}`;
  const password = `Contributor ${stamp} pass`;
  const res = await fetch(`${admin.origin}/${admin.lang}/wp-json/wp/v2/users`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`admin:${adminPassword}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({
      username,
      email: `${username}@example.org`,
      password,
      name: "Casey Contributor",
      roles: ["contributor"],
    }),
  });
  if (res.status !== 201) throw new Error(`POST /wp/v2/users answered ${res.status}`);

  const context = await browser.newContext({ locale: admin.lang });
  const page = await context.newPage();
  const watch = watchPage(page);
  const run: EditorRun = { ...admin, page, problems: admin.problems, seen: admin.seen };
  try {
    await page.goto(`${run.origin}${run.editorPath}`);
    await page.waitForURL(/\/wp-login\.php/, { timeout: 15_000 });
    await signIn(run, username, password);
    const title = `Submitted ${stamp}`;
    const id = await createEvent(run, { title });
    const status = await page.locator("#event-status").inputValue();
    if (status !== "pending")
      run.problems.push(`a contributor's "published" event ${id} is ${status}, not pending`);
    await inspect(run, "contributor-form");
    run.seen.push(`contributor submitted ${id}: the API kept it ${status}`);
    await signOut(run);

    // The administrator's list, by status: the submission waits for review there.
    await admin.page.goto(`${admin.origin}${admin.editorPath}`);
    await admin.page.getByLabel(admin.s.filter_status, { exact: true }).selectOption("pending");
    const rows = await searchEvents(admin, title);
    const row = admin.page.locator("table.list tbody tr", { hasText: title });
    const shown = (await row.locator(".status").textContent())?.trim();
    if (!rows.includes(title) || shown !== admin.s.status_pending)
      run.problems.push(`the administrator's list shows ${title} as ${shown}`);
    run.seen.push(`the administrator sees it as "${shown}"`);
  } finally {
    run.problems.push(...watch.problems, ...watch.dialogs.map((d) => `dialog: ${d}`));
    await context.close();
  }
}
