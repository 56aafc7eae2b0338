/**
 * Categories, webhooks and application passwords in the editor (issue 37), as the administrator
 * uses them, each checked from outside the browser: the category through the anonymous API, the
 * webhook's ping at a receiver on 127.0.0.1 that verifies its Standard Webhooks signature with the
 * secret the editor showed, the application password with Basic auth against `wp/v2/users/me`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { anonymous, type EditorRun, inspect, signIn } from "./editor-flow";
import { asAdmin, basicAuth, fitsPhone, monthChecks, openNav, opsScreens } from "./editor-ops";

const saved = async (run: EditorRun, text: string) =>
  run.page.getByRole("status").filter({ hasText: text }).waitFor({ timeout: 15_000 });

/**
 * A category created, renamed, found by the list's search and deleted in the editor; the
 * anonymous `GET /categories` sees each state.
 */
export async function categoryFlow(run: EditorRun, stamp: string): Promise<void> {
  const { page, s } = run;
  const name = `Ops category ${stamp}`;
  await openNav(run, s.nav_categories);
  await page.getByRole("link", { name: s.new_category, exact: true }).click();
  await page.getByLabel(s.field_name, { exact: true }).fill(name);
  await page.getByLabel(s.field_description, { exact: true }).fill("<b>bold</b> & plain");
  await Promise.all([
    page.waitForURL(/#\/categories\/\d+$/, { timeout: 15_000 }),
    page.getByRole("button", { name: s.create, exact: true }).click(),
  ]);
  const id = Number(/(\d+)$/.exec(page.url())![1]);
  await page.waitForFunction(() => document.querySelector<HTMLInputElement>("#term-name")?.value);
  const created = await anonymous(run, `/categories/${id}`);
  if (created.body?.name !== name) run.problems.push(`category ${id}: ${created.body?.name}`);
  await page.getByLabel(s.field_name, { exact: true }).fill(`${name} renamed`);
  await page.getByRole("button", { name: s.save, exact: true }).click();
  await saved(run, s.saved);
  await inspect(run, "category-form");
  await fitsPhone(run, "category-form");
  const renamed = await anonymous(run, `/categories/${id}`);
  if (renamed.body?.name !== `${name} renamed`)
    run.problems.push(`renamed category ${id}: ${renamed.body?.name}`);
  await openNav(run, s.nav_categories);
  await page.getByLabel(s.search, { exact: true }).fill(`${stamp} renamed`);
  await page.getByRole("button", { name: s.apply, exact: true }).click();
  await page.waitForFunction(
    (q) => {
      const rows = [...document.querySelectorAll("table.list tbody tr a")];
      return rows.length > 0 && rows.every((a) => a.textContent?.includes(q));
    },
    stamp,
    { timeout: 15_000 },
  );
  const rows = await page.locator("table.list tbody tr a").allInnerTexts();
  if (rows.join() !== `${name} renamed`) run.problems.push(`category search found: ${rows}`);
  await page.getByRole("link", { name: `${name} renamed`, exact: true }).click();
  await page.waitForFunction(() => document.querySelector<HTMLInputElement>("#term-name")?.value);
  await page.getByRole("button", { name: s.delete, exact: true }).click();
  await Promise.all([
    page.waitForURL(/#\/categories$/, { timeout: 15_000 }),
    page.getByRole("button", { name: s.yes_delete, exact: true }).click(),
  ]);
  const gone = await anonymous(run, `/categories?search=${stamp}&hide_empty=false`);
  const left = (gone.body?.categories ?? []).map((c: { id: number }) => c.id);
  if (left.includes(id) || (await anonymous(run, `/categories/${id}`)).status === 200)
    run.problems.push(`deleted category ${id} is still listed anonymously`);
  run.seen.push(`category ${id}: created, renamed (anonymous GET agrees), found, deleted`);
}

/** A receiver on 127.0.0.1 keeping each request's headers and body. */
async function startReceiver() {
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = String(v);
      received.push({ headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, stop: () => server.close() };
}

/** Polls `check` every half second for up to `ms`. */
async function until(check: () => Promise<boolean> | boolean, ms = 30_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/**
 * A webhook registered in the editor for the receiver; the secret shown once; "send a ping"
 * reaches the receiver with a valid signature; the delivery log shows it; deactivated; deleted.
 */
export async function webhookFlow(run: EditorRun, password: string): Promise<void> {
  const { page, s } = run;
  const receiver = await startReceiver();
  try {
    await openNav(run, s.nav_webhooks);
    await page.getByRole("link", { name: s.new_webhook, exact: true }).click();
    // Refused first: the API's message for `url` beside the field, nothing created.
    await page.getByLabel(s.field_url, { exact: true }).fill("not a web address");
    await page.getByRole("button", { name: s.create, exact: true }).click();
    const beside =
      (await page.locator("#webhook-url-error").textContent({ timeout: 15_000 })) ?? "";
    if (!beside) run.problems.push("no message beside the refused webhook URL");
    await page.getByLabel(s.field_url, { exact: true }).fill(receiver.url);
    await page.getByRole("button", { name: s.create, exact: true }).click();
    const secretField = page.getByRole("textbox", { name: s.webhook_secret, exact: true });
    await secretField.waitFor({ timeout: 15_000 });
    const secret = await secretField.inputValue();
    if (!secret.startsWith("whsec_")) run.problems.push(`the secret shown is ${secret}`);
    await inspect(run, "webhook-created");
    await page.getByRole("link", { name: s.webhook_open, exact: true }).click();
    await page.waitForURL(/#\/webhooks\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    if ((await page.content()).includes(secret)) run.problems.push("the secret is shown again");
    await page.getByRole("button", { name: s.ping, exact: true }).click();
    await saved(run, s.pinged);
    const pinged = await until(() => receiver.received.length > 0);
    let type = "";
    try {
      const first = receiver.received[0];
      type = (new Webhook(secret).verify(first.body, first.headers) as { type: string }).type;
    } catch (err) {
      run.problems.push(
        `the ping did not verify: ${pinged ? (err as Error).message : "none came"}`,
      );
    }
    if (pinged && type !== "ping") run.problems.push(`the receiver got ${type}, not a ping`);
    const logged = await until(async () => {
      await page.getByRole("button", { name: s.refresh, exact: true }).click();
      const row = page.locator("table.deliveries tbody tr", { hasText: "ping" });
      const answer =
        (await row
          .first()
          .locator("td.answer")
          .textContent({ timeout: 1000 })
          .catch(() => "")) ?? "";
      return answer.trim() === "204";
    });
    if (!logged) run.problems.push("the delivery log does not show the ping answered 204");
    await inspect(run, "webhook");
    await fitsPhone(run, "webhook");
    await page.getByRole("button", { name: s.deactivate, exact: true }).click();
    await saved(run, s.saved);
    const stored = await asAdmin(run, password, `/webhooks/${id}`);
    if (stored.body?.status !== "disabled")
      run.problems.push(`deactivated: ${stored.body?.status}`);
    await page.getByRole("button", { name: s.delete, exact: true }).click();
    await Promise.all([
      page.waitForURL(/#\/webhooks$/, { timeout: 15_000 }),
      page.getByRole("button", { name: s.yes_delete, exact: true }).click(),
    ]);
    const deleted = await asAdmin(run, password, `/webhooks/${id}`);
    if (deleted.status !== 404) run.problems.push(`deleted webhook ${id}: ${deleted.status}`);
    run.seen.push(
      `webhook ${id}: a bad URL refused ("${beside}" beside the field), secret shown once, ping ${type ? "verified" : "missing"} at the receiver, logged ${logged}, deactivated, deleted (${deleted.status})`,
    );
  } finally {
    receiver.stop();
  }
}

/**
 * An application password created in the editor (shown once) signs in with Basic auth, is
 * revoked one by one and then refused (401); two more go with "revoke all".
 */
export async function appPasswordFlow(run: EditorRun, stamp: string): Promise<void> {
  const { page, s } = run;
  const me = (pw: string) =>
    fetch(`${run.origin}/${run.lang}/wp-json/wp/v2/users/me`, {
      headers: { authorization: `Basic ${Buffer.from(`admin:${pw}`).toString("base64")}` },
    }).then((r) => r.status);
  const create = async (name: string) => {
    await page.getByLabel(s.field_app_name, { exact: true }).fill(name);
    await page.getByRole("button", { name: s.add_app_password, exact: true }).click();
    await page.locator("table.list td", { hasText: name }).first().waitFor({ timeout: 15_000 });
    return page.locator("#new-app-password").inputValue();
  };
  await openNav(run, s.nav_app_passwords);
  const name = `Ops ${stamp}`;
  const password = await create(name);
  await inspect(run, "app-password-created");
  await fitsPhone(run, "app-password-created");
  const before = await me(password);
  await page.getByRole("button", { name: `${s.revoke}: ${name}`, exact: true }).click();
  await page.getByRole("button", { name: s.yes_revoke, exact: true }).click();
  await saved(run, s.revoked);
  const after = await me(password);
  if (before !== 200 || after !== 401)
    run.problems.push(`application password: ${before} before revoking, ${after} after`);
  if (await page.locator("#new-app-password").count())
    run.problems.push("the revoked password is still shown");
  const more = [await create(`${name} a`), await create(`${name} b`)];
  await page.getByRole("button", { name: s.revoke_all, exact: true }).click();
  await page.getByRole("button", { name: s.yes_revoke, exact: true }).click();
  await saved(run, s.revoked);
  await page.locator("p.empty").waitFor();
  const all = await Promise.all(more.map(me));
  if (all.join() !== "401,401") run.problems.push(`after revoke all: ${all.join()}`);
  run.seen.push(
    `application password: ${before} with it, ${after} once revoked; revoke all: ${all}`,
  );
}

/**
 * An editor (every capability but `manage_options`) has no webhooks in the navigation, and the
 * webhooks screen, reached by its address, shows the API's refusal.
 */
export async function editorSeesNoWebhooks(
  browser: Browser,
  admin: EditorRun,
  password: string,
  stamp: string,
): Promise<void> {
  const username = `editor-${stamp}`;
  const login = `Editor ${stamp} pass`;
  const res = await fetch(`${admin.origin}/${admin.lang}/wp-json/wp/v2/users`, {
    method: "POST",
    headers: { authorization: basicAuth(password), "content-type": "application/json" },
    body: JSON.stringify({
      username,
      email: `${username}@example.org`,
      password: login,
      name: "Eddie Editor",
      roles: ["editor"],
    }),
  });
  if (res.status !== 201) throw new Error(`POST /wp/v2/users answered ${res.status}`);
  const context = await browser.newContext({ locale: admin.lang });
  const page = await context.newPage();
  const run: EditorRun = { ...admin, page };
  try {
    await page.goto(`${run.origin}${run.editorPath}`);
    await page.waitForURL(/\/wp-login\.php/, { timeout: 15_000 });
    await signIn(run, username, login);
    const nav = await page.getByRole("link", { name: run.s.nav_webhooks, exact: true }).count();
    if (nav !== 0) run.problems.push("an editor's navigation offers webhooks");
    await page.goto(`${run.origin}${run.editorPath}#/webhooks`);
    const alert = (await page.getByRole("alert").textContent({ timeout: 15_000 }))?.trim();
    if (alert !== run.messages.rest_forbidden)
      run.problems.push(`an editor on the webhooks screen sees "${alert}"`);
    await inspect(run, "webhooks-refused");
    run.seen.push(`an editor: no webhooks in the navigation; the screen says "${alert}"`);
  } finally {
    await context.close();
  }
}

/**
 * This slice's part of `npm run test:editor`, in a signed-in administrator's run: every new screen
 * in each language; with `browser` (the first language) also the month's placement and paging, the
 * category, webhook and application-password flows and an editor's view of webhooks.
 */
export async function opsChecks(
  run: EditorRun,
  password: string,
  stamp: string,
  browser?: Browser,
): Promise<void> {
  await opsScreens(run);
  if (!browser) return;
  await monthChecks(run, password, stamp);
  await categoryFlow(run, stamp);
  await webhookFlow(run, password);
  await appPasswordFlow(run, stamp);
  await editorSeesNoWebhooks(browser, run, password, stamp);
}
