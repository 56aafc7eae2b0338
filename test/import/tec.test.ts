/**
 * Import from a running TEC site (contract §7.9): a fake source serving the original's recorded
 * answers (tec-fixture.ts), this worker as the target.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FetchLike } from "../../tools/import/client";
import { ImportError } from "../../tools/import/errors";
import { importTec, type TecImportOptions } from "../../tools/import/tec/importer";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import * as F from "./tec-fixture";

type Pages = Record<string, any[]>;

const fixturePages = (): Pages =>
  structuredClone({
    categories: [F.CATEGORIES_PAGE_1, F.CATEGORIES_PAGE_2],
    tags: [F.TAGS],
    venues: [F.VENUES],
    organizers: [F.ORGANIZERS],
    events: [F.EVENTS_PAGE_1, F.EVENTS_PAGE_2],
  });

/** A TEC site answering from `pages` (by archive and `page`), recording every request. */
function fakeSource(pages: Pages) {
  const log: Array<{ url: URL; authorization?: string }> = [];
  const fetch: FetchLike = async (url, init) => {
    const u = new URL(url);
    log.push({ url: u, authorization: init.headers.authorization });
    if (u.origin !== "http://127.0.0.1:8881") throw new Error(`request left the source: ${url}`);
    const kind = u.pathname.split("/").filter(Boolean).pop()!;
    const body = pages[kind]?.[Number(u.searchParams.get("page") ?? "1") - 1];
    return body
      ? Response.json(body)
      : Response.json({ code: "rest_no_route", message: "No route" }, { status: 404 });
  };
  return { fetch, log };
}

const target = {
  base: `${ORIGIN}${NS}`,
  authorization: ADMIN.authorization,
  fetch: ((url, init) => SELF.fetch(url, init)) as FetchLike,
};

async function run(
  pages: Pages = fixturePages(),
  options: TecImportOptions & { authorization?: string } = {},
) {
  const source = fakeSource(pages);
  const report = await importTec(
    { base: F.SOURCE_ROOT, authorization: options.authorization, fetch: source.fetch },
    target,
    { retryDelayMs: 1, ...options },
  );
  return { report, log: source.log };
}

async function imported(): Promise<Record<string, any>> {
  const res = await api(`${NS}/events?start_date=2020-01-01&end_date=2030-12-31&per_page=50`, {
    headers: ADMIN,
  });
  return Object.fromEntries(res.body.events.map((e: any) => [e.title, e]));
}

describe("npm run import -- <TEC namespace root>", () => {
  it("walks every page of every archive and loads everything with its links", async () => {
    const { report, log } = await run();
    expect(report.counts).toEqual({
      categories: { created: 2, updated: 0, unchanged: 0, skipped: 0 },
      tags: { created: 3, updated: 0, unchanged: 0, skipped: 0 },
      venues: { created: 1, updated: 0, unchanged: 0, skipped: 0 },
      organizers: { created: 1, updated: 0, unchanged: 0, skipped: 0 },
      events: { created: 3, updated: 0, unchanged: 0, skipped: 0 },
    });
    // Page 2 of the categories: TEC's link drops the filters; the walk puts them back.
    const categoryPages = log.filter((r) => /\/categories\/?$/.test(r.url.pathname));
    expect(
      categoryPages.map((r) => [
        r.url.searchParams.get("page"),
        r.url.searchParams.get("per_page"),
        r.url.searchParams.get("hide_empty"),
      ]),
    ).toEqual([
      [null, "50", "false"],
      ["2", "50", "false"],
    ]);
    // Page 2 of the events follows the recorded next_rest_url, with past and future events asked for.
    const eventPages = log.filter((r) => /\/events\/?$/.test(r.url.pathname));
    expect(eventPages).toHaveLength(2);
    expect(eventPages[1].url.searchParams.get("page")).toBe("2");
    expect(eventPages[1].url.searchParams.get("start_date")).toBe("1970-01-01 00:00:00");
    // Anonymous: no status asked for (page 2 keeps the `status=publish` TEC wrote into its link), no credentials.
    expect(eventPages.map((r) => [r.url.searchParams.get("status"), r.authorization])).toEqual([
      [null, undefined],
      ["publish", undefined],
    ]);

    const e = await imported();
    expect(Object.keys(e).sort()).toEqual(["Jazz Night", "Morning Yoga", "Winter Market"]);
    expect(e["Jazz Night"]).toMatchObject({
      description: "<p>An evening of <strong>live jazz</strong>.</p>",
      excerpt: "<p>Live jazz</p>",
      slug: "jazz-night",
      start_date: "2026-12-05 19:00:00",
      utc_start_date: "2026-12-06 00:00:00",
      timezone: "America/New_York",
      cost: "$15",
      website: "https://example.com/jazz",
      featured: true,
      show_map: false,
      venue: {
        venue: "Blue Room",
        address: "100 Main St",
        city: "Springfield",
        zip: "62701",
        phone: "+1 555 0100",
        website: "https://blueroom.example.com",
      },
      organizer: [
        { organizer: "Springfield Arts", email: "arts@example.com", phone: "+1 555 0199" },
      ],
    });
    expect(e["Jazz Night"].categories.map((c: any) => c.name)).toEqual(["Music", "Nightlife"]);
    expect(e["Jazz Night"].tags.map((c: any) => c.slug)).toEqual(["jazz", "live"]);
    expect(e["Morning Yoga"]).toMatchObject({
      cost: "Free",
      timezone: "UTC",
      venue: { id: e["Jazz Night"].venue.id },
    });
    expect(e["Morning Yoga"].website).toBe(e["Morning Yoga"].url);
    expect(e["Winter Market"]).toMatchObject({
      all_day: true,
      start_date: "2026-12-12 00:00:00",
      venue: [],
      organizer: [],
    });
    // Found again by the source's global id.
    const byUid = await api(`${NS}/events?uid=${encodeURIComponent("127.0.0.1?id=6")}`, {
      headers: ADMIN,
    });
    expect(byUid.body.events.map((x: any) => x.title)).toEqual(["Jazz Night"]);
  });

  it("creates nothing on a second run, and updates exactly what changed at the source", async () => {
    await run();
    const before = await imported();
    const again = await run();
    for (const counts of Object.values(again.report.counts))
      expect(counts).toMatchObject({ created: 0, updated: 0 });
    expect(again.report.counts.events.unchanged).toBe(3);

    const changed = fixturePages();
    const jazz = changed.events[0].events[0];
    jazz.title = "Jazz Night &#8211; Encore";
    jazz.cost = "$20";
    jazz.cost_details.values = ["20"];
    jazz.tags = jazz.tags.slice(0, 1);
    changed.venues[0].venues[0].phone = "+1 555 0111";
    const third = await run(changed);
    expect(third.report.counts.events).toEqual({
      created: 0,
      updated: 1,
      unchanged: 2,
      skipped: 0,
    });
    expect(third.report.counts.venues).toMatchObject({ created: 0, updated: 1 });
    const after = await imported();
    expect(after["Jazz Night – Encore"]).toMatchObject({
      id: before["Jazz Night"].id,
      cost: "$20",
      venue: { phone: "+1 555 0111" },
    });
    expect(after["Jazz Night – Encore"].tags.map((t: any) => t.slug)).toEqual(["jazz"]);
    expect(after["Morning Yoga"].modified_utc).toBe(before["Morning Yoga"].modified_utc);
    expect((await run(changed)).report.counts.events).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 3,
    });
  });

  it("leaves out images this instance refuses, with a note, and counts them as no change next time", async () => {
    const pages = fixturePages();
    pages.venues[0].venues[0].image = { url: "https://img.example.com/missing.jpg", id: 77 };
    pages.events[0].events[0].image = { url: "https://img.example.com/gone/poster.html", id: 78 };
    const { report } = await run(pages);
    expect(report.counts.venues).toMatchObject({ created: 1 });
    expect(report.counts.events).toMatchObject({ created: 3 });
    expect(report.notes).toEqual([
      expect.stringContaining("image https://img.example.com/missing.jpg"),
      expect.stringContaining("image https://img.example.com/gone/poster.html"),
    ]);
    const again = await run(pages);
    expect(again.report.counts.venues).toMatchObject({ updated: 0, unchanged: 1 });
    expect(again.report.counts.events).toMatchObject({ updated: 0, unchanged: 3 });
  });

  it("reads drafts with the source's application password and sends it to the source only", async () => {
    const pages = fixturePages();
    pages.events[1].events[0].status = "draft";
    const { log } = await run(pages, { authorization: "Basic c291cmNlOnB3" });
    expect(log.every((r) => r.authorization === "Basic c291cmNlOnB3")).toBe(true);
    expect(
      log
        .filter((r) => /\/(events|venues|organizers)\/?$/.test(r.url.pathname))
        .every((r) => r.url.searchParams.get("status") === "publish,future,draft,pending,private"),
    ).toBe(true);
    expect((await imported())["Winter Market"].status).toBe("draft");
    expect(
      (await api(`${NS}/events?start_date=2020-01-01`)).body.events.map((x: any) => x.title),
    ).not.toContain("Winter Market");
  });
});

describe("TEC import: what it refuses", () => {
  it("skips password-protected events (TEC blanks them) instead of publishing them", async () => {
    const pages = fixturePages();
    const yoga = pages.events[0].events[1];
    Object.assign(yoga, {
      description: "",
      all_day: null,
      show_map: null,
      show_map_link: null,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
    });
    const { report } = await run(pages);
    expect(report.counts.events).toMatchObject({ created: 2, skipped: 1 });
    expect(report.notes).toEqual([
      'event 7 "Morning Yoga" is password protected at the source: skipped',
    ]);
    expect(Object.keys(await imported())).not.toContain("Morning Yoga");
  });

  it("never follows a next_rest_url off the source, so credentials stay there", async () => {
    const pages = fixturePages();
    pages.events[0].next_rest_url = "https://evil.example/wp-json/tribe/events/v1/events/?page=2";
    const source = fakeSource(pages);
    const err = await importTec(
      { base: F.SOURCE_ROOT, authorization: "Basic c291cmNlOnB3", fetch: source.fetch },
      target,
      { retryDelayMs: 1 },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/next_rest_url https:\/\/evil\.example\/.* not followed/);
    expect(source.log.every((r) => r.url.origin === "http://127.0.0.1:8881")).toBe(true);
    // A link to another archive of the same site is refused too, and so is a loop.
    pages.events[0].next_rest_url = `${F.SOURCE_ROOT}/venues/?page=2`;
    await expect(run(pages)).rejects.toThrow(/not followed/);
    pages.events[0].next_rest_url = `${F.SOURCE_ROOT}/events/?per_page=50&start_date=1970-01-01+00%3A00%3A00&end_date=2999-12-31+23%3A59%3A59`;
    pages.events[0].total_pages = 5;
    await expect(run(pages)).rejects.toThrow(/loops/);
  });

  it("stops with the source's or this instance's error", async () => {
    const denied: FetchLike = async () =>
      Response.json(
        {
          code: "incorrect_password",
          message: "The provided password is an invalid application password.",
        },
        { status: 401 },
      );
    await expect(
      importTec({ base: F.SOURCE_ROOT, authorization: "Basic eDp5", fetch: denied }, target, {
        retryDelayMs: 1,
      }),
    ).rejects.toThrow(
      /HTTP 401 incorrect_password: .*check the source user and application password/,
    );
    const html: FetchLike = async () => new Response("<html>not an API</html>", { status: 200 });
    await expect(
      importTec({ base: F.SOURCE_ROOT, fetch: html }, target, { retryDelayMs: 1 }),
    ).rejects.toThrow(/no JSON \(is it a TEC namespace root\?\)/);
    const wrongTarget = { ...target, authorization: `Basic ${btoa("admin:wrong")}` };
    const err = await importTec(
      { base: F.SOURCE_ROOT, fetch: fakeSource(fixturePages()).fetch },
      wrongTarget,
      { retryDelayMs: 1 },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err.status).toBe(401);
    expect((await api(`${NS}/events?start_date=2020-01-01`, { headers: ADMIN })).body.total).toBe(
      0,
    );
  });
});
