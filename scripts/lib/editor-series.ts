/**
 * The recurring-series scenario of the calendar editor (contract §7.8, contract §7.11), as the issue that
 * asked for the editor describes it: signed in as the administrator, a weekly series (Tuesdays,
 * `COUNT=6`) with one exception is made in the rule builder, whose preview shows 5 occurrences;
 * the third occurrence is moved to Thursday (this occurrence only); anonymously, `GET /events`
 * lists 5 events with the moved one on its new day and `events.ics` has the `RRULE`, the `EXDATE`
 * and a `RECURRENCE-ID` `VEVENT`; a webhook registered before (a receiver started here on
 * 127.0.0.1, which `npm start` allows) gets a delivery naming the series' events, signed with its
 * secret (verified with `standardwebhooks`); "all" from the second renames the series and moves it to 20:00 (the moved occurrence keeps its own dates);
 * "this and following" on the fourth occurrence leaves 3.
 *
 * `seriesScreens` is the other languages' part: the builder, read back from a series' lines, and an
 * occurrence's choice of this / following / all, screenshot and checked by axe.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { anonymous, type EditorRun, eventsList, inspect } from "./editor-flow";

/** One request the receiver got. */
interface Received {
  raw: string;
  headers: Record<string, string>;
}

/** A webhook receiver on 127.0.0.1: it keeps every request and answers 204. */
async function startReceiver(): Promise<{ url: string; got: Received[]; stop: () => void }> {
  const got: Received[] = [];
  const flat = (h: IncomingHttpHeaders) =>
    Object.fromEntries(
      Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
    );
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ raw: Buffer.concat(chunks).toString("utf8"), headers: flat(req.headers) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, got, stop: () => server.close() };
}

/** `YYYY-MM-DD` `days` after `date`. */
const plus = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The first Tuesday at least five weeks from today (inside the default window, in the future). */
function nextTuesday(): string {
  const d = new Date(Date.now() + 35 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((2 - d.getUTCDay() + 7) % 7));
  return d.toISOString().slice(0, 10);
}

/** An API request as the administrator (HTTP Basic with the application password). */
async function asAdmin(
  run: EditorRun,
  password: string,
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${run.origin}${run.namespacePath}${path}`, {
    method: init.method ?? (init.json ? "POST" : "GET"),
    headers: {
      authorization: `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Waits until the form has loaded an event (its title field filled). */
async function formLoaded(run: EditorRun, id: number): Promise<void> {
  await run.page.goto(`${run.origin}${run.editorPath}#/events/${id}`);
  await run.page.waitForFunction(() => {
    const input = document.querySelector<HTMLInputElement>("#event-title-field");
    return input !== null && input.value !== "";
  });
}

/** The preview's list once it shows `count` occurrences and its total line. */
async function previewShows(run: EditorRun, count: number): Promise<string> {
  const { page, s } = run;
  await page
    .locator("#series-preview-status")
    .filter({ hasText: `${s.series_preview_total} ${count}` })
    .waitFor({ timeout: 15_000 });
  const items = await page.locator("ol.series-occurrences li").allInnerTexts();
  if (items.length !== count)
    run.problems.push(`the preview lists ${items.length} occurrences, not ${count}: ${items}`);
  return items.join(", ");
}

/** Makes the series in the builder and returns its id. */
async function createInBuilder(run: EditorRun, title: string, start: string): Promise<number> {
  const { page, s } = run;
  await eventsList(run);
  await page.getByRole("link", { name: s.new_event, exact: true }).click();
  await page.getByLabel(s.field_title, { exact: true }).fill(title);
  await page.getByLabel(s.field_start_date, { exact: true }).fill(start);
  await page.getByLabel(s.field_start_time, { exact: true }).fill("19:00");
  await page.getByLabel(s.field_end_date, { exact: true }).fill(start);
  await page.getByLabel(s.field_end_time, { exact: true }).fill("21:00");
  await page.getByLabel(s.field_timezone, { exact: true }).fill("Europe/Berlin");
  await page.getByLabel(s.series_freq, { exact: true }).selectOption("WEEKLY");
  const tuesday = page.getByRole("checkbox", { name: s.series_weekday_TU, exact: true });
  if (!(await tuesday.isChecked())) run.problems.push("weekly: the start's Tuesday is not checked");
  await page.getByRole("radio", { name: s.series_end_count, exact: true }).check();
  await page.getByLabel(s.series_count, { exact: true }).fill("6");
  await page.getByLabel(s.series_exception_date, { exact: true }).fill(plus(start, 28));
  await page.getByRole("button", { name: s.series_add_exception, exact: true }).click();
  const shown = await previewShows(run, 5);
  run.seen.push(`builder preview: ${shown}`);
  await inspect(run, "series-builder");
  await Promise.all([
    page.waitForURL(/#\/events\/\d+$/, { timeout: 15_000 }),
    page.getByRole("button", { name: s.create, exact: true }).click(),
  ]);
  return Number(/#\/events\/(\d+)$/.exec(page.url())![1]);
}

/** The series' events listed anonymously from its start on. */
async function listed(run: EditorRun, id: number, start: string): Promise<any[]> {
  const q = `/events?series=${id}&start_date=${start}&end_date=${plus(start, 90)}&per_page=50`;
  const res = await anonymous(run, q);
  if (res.status !== 200) run.problems.push(`GET ${q} answered ${res.status}`);
  return res.body?.events ?? [];
}

/** Waits (at most 30 s) for a delivery naming one of `ids`, verified with the webhook's secret. */
async function delivered(
  run: EditorRun,
  got: Received[],
  secret: string,
  ids: number[],
): Promise<void> {
  const webhook = new Webhook(secret);
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    for (const r of got) {
      let payload: { type?: string; data?: { id?: number } };
      try {
        payload = webhook.verify(r.raw, r.headers) as typeof payload;
      } catch (err) {
        run.problems.push(`a delivery does not verify: ${(err as Error).message}`);
        return;
      }
      if (payload.data?.id !== undefined && ids.includes(payload.data.id)) {
        run.seen.push(`webhook: ${payload.type} of event ${payload.data.id}, signature verified`);
        return;
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  run.problems.push(
    `no verified webhook delivery named ${ids.join(", ")} in 30 s (${got.length} got)`,
  );
}

/**
 * The scenario, in the first language's administrator session (on the editor, signed in).
 * @param password the administrator's password (`ADMIN_APP_PASSWORD`).
 */
export async function seriesScenario(run: EditorRun, password: string, stamp: string) {
  const { page, s } = run;
  const receiver = await startReceiver();
  try {
    const hook = await asAdmin(run, password, "/webhooks", {
      json: { url: receiver.url, events: ["*"], description: `Editor series ${stamp}` },
    });
    if (hook.status !== 201) throw new Error(`POST /webhooks answered ${hook.status}`);
    const start = nextTuesday();
    const id = await createInBuilder(run, `Series check ${stamp}`, start);
    const events = await listed(run, id, start);
    if (events.length !== 5) run.problems.push(`the series lists ${events.length} events, not 5`);
    run.seen.push(`created series ${id}: ${events.map((e) => e.start_date.slice(0, 10))}`);

    const third = events[2];
    await formLoaded(run, third.id);
    await inspect(run, "series-occurrence");
    const thursday = plus(third.start_date.slice(0, 10), 2);
    await page.getByLabel(s.field_start_date, { exact: true }).fill(thursday);
    await page.getByLabel(s.field_end_date, { exact: true }).fill(thursday);
    await page.getByRole("radio", { name: s.series_scope_this, exact: true }).check();
    await page.getByRole("button", { name: s.save, exact: true }).click();
    await page.getByRole("status").filter({ hasText: s.saved }).waitFor({ timeout: 15_000 });

    const after = await listed(run, id, start);
    const moved = after.find((e) => e.id === third.id);
    if (after.length !== 5) run.problems.push(`after the move the series lists ${after.length}`);
    if (moved?.start_date !== `${thursday} 19:00:00`)
      run.problems.push(
        `occurrence ${third.id} starts ${moved?.start_date}, not ${thursday} 19:00`,
      );
    if (after.filter((e) => e.start_date.startsWith(thursday)).length !== 1)
      run.problems.push(`not one event on ${thursday}: ${after.map((e) => e.start_date)}`);
    run.seen.push(`moved occurrence ${third.id} to ${moved?.start_date}; 5 listed`);

    const feed = await fetch(
      `${run.origin}${run.namespacePath}/events.ics?series=${id}&start_date=${start}&end_date=${plus(start, 90)}`,
    ).then((r) => r.text());
    const missing = ["RRULE:FREQ=WEEKLY", "EXDATE;TZID=Europe/Berlin", "RECURRENCE-ID"].filter(
      (needle) => !feed.includes(needle),
    );
    for (const needle of missing) run.problems.push(`events.ics has no ${needle}`);
    if (!missing.length) run.seen.push("events.ics: RRULE, EXDATE and a RECURRENCE-ID VEVENT");

    await delivered(run, receiver.got, hook.body.secret, [id, third.id]);

    // "All" from the second: a new title everywhere, and the series moved to 20:00 but for the
    // occurrence moved before, which keeps the dates it set (contract §7.8: an override's own).
    const renamed = `Series check ${stamp} all`;
    await formLoaded(run, after[1].id);
    await page.getByLabel(s.field_title, { exact: true }).fill(renamed);
    await page.getByLabel(s.field_start_time, { exact: true }).fill("20:00");
    await page.getByLabel(s.field_end_time, { exact: true }).fill("22:00");
    await page.getByRole("radio", { name: s.series_scope_all, exact: true }).check();
    await page.getByRole("button", { name: s.save, exact: true }).click();
    await page.getByRole("status").filter({ hasText: s.saved }).waitFor({ timeout: 15_000 });
    const all = await listed(run, id, start);
    const off = all.filter(
      (e) =>
        e.title !== renamed ||
        e.start_date !==
          (e.id === third.id ? `${thursday} 19:00:00` : `${e.start_date.slice(0, 10)} 20:00:00`),
    );
    if (all.length !== 5 || off.length)
      run.problems.push(
        `"all" left ${all.length} events, ${off.map((e) => `${e.id} ${e.title} ${e.start_date}`)}`,
      );
    else run.seen.push(`"all" from the second: 5 renamed, at 20:00 but the moved one`);
    // From the fourth: "this and following" leaves 3, where "this" alone would leave 4.
    const fourth = after[3];
    await formLoaded(run, fourth.id);
    await page.getByRole("radio", { name: s.series_scope_following, exact: true }).check();
    await Promise.all([
      page.waitForURL(/#\/events$/, { timeout: 15_000 }),
      page.getByRole("button", { name: s.series_delete, exact: true }).click(),
    ]);
    const left = await listed(run, id, start);
    if (left.length !== 3)
      run.problems.push(`"this and following" from the fourth left ${left.length}, not 3`);
    run.seen.push(`deleted the fourth and following: ${left.length} left`);
  } finally {
    receiver.stop();
  }
}

/** The series screens of another language: the builder read back, an occurrence's choice. */
export async function seriesScreens(run: EditorRun, password: string, stamp: string) {
  const { page, s } = run;
  const start = nextTuesday();
  const nth = Math.ceil(Number(start.slice(8, 10)) / 7);
  const ordinal = nth > 4 ? -1 : nth;
  const made = await asAdmin(run, password, "/events", {
    json: {
      title: `Series screens ${run.lang} ${stamp}`,
      start_date: `${start} 19:00:00`,
      end_date: `${start} 21:00:00`,
      timezone: "Europe/Berlin",
      // "The second Tuesday" (or whichever the start is): the monthly-by-weekday builder.
      recurrence: [`RRULE:FREQ=MONTHLY;BYDAY=${ordinal}TU;COUNT=4`],
    },
  });
  if (made.status !== 201) throw new Error(`POST /events answered ${made.status}`);
  await formLoaded(run, made.body.id);
  const freq = await page.getByLabel(s.series_freq, { exact: true }).inputValue();
  if (freq !== "MONTHLY") run.problems.push(`the builder reads the series' rule as ${freq}`);
  await previewShows(run, 4);
  await inspect(run, "series-builder");
  const events = await listed(run, made.body.id, start);
  await formLoaded(run, events[1].id);
  await page.getByRole("radio", { name: s.series_scope_following, exact: true }).waitFor();
  await inspect(run, "series-occurrence");
  await asAdmin(run, password, `/events/${made.body.id}?force=true`, { method: "DELETE" });
}
