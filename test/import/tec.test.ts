/**
 * Import from a running TEC site (contract §7.9): a fake source serving the original's recorded
 * answers (tec-fixture.ts), this worker as the target.
 */
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { forgetVersion } from "../../src/read-cache/version";
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

/** How the fake source protects events (§4.7), by id: their passwords. */
interface Protection {
  passwords: Record<number, string>;
  /** Whether `wp/v2/tribe_events/{id}?context=edit` gives an editor the password (WordPress does; this service never hands out passwords: 400 for `context=edit`). */
  wpPasswords?: boolean;
}

/** What TEC sends of a protected event to a reader who may not open it (§4.7 blanking table). */
function tecBlanked(e: any): any {
  return {
    ...e,
    description: "",
    excerpt: "",
    cost: "",
    website: "",
    image: false,
    all_day: null,
    show_map: null,
    show_map_link: null,
    hide_from_listings: null,
    sticky: null,
    featured: null,
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
    custom_fields: [],
    cost_details: { currency_symbol: "", currency_position: "", currency_code: "", values: [] },
  };
}

/**
 * A TEC site answering from `pages` (by archive and `page`), recording every request. Protected
 * events are listed blanked; `GET /events/{id}` opens one for `context=edit` with credentials (the
 * source user may edit it) or its `password`, else 403 `event-password-protected`; WordPress's
 * `wp/v2/tribe_events/{id}?context=edit` gives the password to the source user.
 */
function fakeSource(pages: Pages, protection: Protection = { passwords: {} }) {
  const log: Array<{ url: URL; authorization?: string }> = [];
  const events = new Map<number, any>(
    pages.events.flatMap((p) => p.events).map((e: any) => [e.id, structuredClone(e)]),
  );
  const isProtected = (e: any) => protection.passwords[e.id] !== undefined;
  const fetch: FetchLike = async (url, init) => {
    const u = new URL(url);
    log.push({ url: u, authorization: init.headers.authorization });
    if (u.origin !== "http://127.0.0.1:8881") throw new Error(`request left the source: ${url}`);
    const authorized = init.headers.authorization !== undefined;
    const wp = /^\/wp-json\/wp\/v2\/tribe_events\/(\d+)$/.exec(u.pathname);
    if (wp && protection.wpPasswords) {
      const e = events.get(Number(wp[1]));
      if (!e) return Response.json({ code: "rest_post_invalid_id" }, { status: 404 });
      if (!authorized || u.searchParams.get("context") !== "edit")
        return Response.json({ code: "rest_forbidden_context" }, { status: 401 });
      return Response.json({ id: e.id, password: protection.passwords[e.id] ?? "" });
    }
    const single = /\/events\/(\d+)\/?$/.exec(u.pathname);
    if (single && u.pathname.startsWith("/wp-json/tribe/events/v1/")) {
      const e = events.get(Number(single[1]));
      if (!e) return Response.json({ code: "rest-event-not-found" }, { status: 404 });
      const open =
        !isProtected(e) ||
        (authorized && u.searchParams.get("context") === "edit") ||
        u.searchParams.get("password") === protection.passwords[e.id];
      return open
        ? Response.json(e)
        : Response.json({ code: "event-password-protected" }, { status: 403 });
    }
    const kind = u.pathname.split("/").filter(Boolean).pop()!;
    const body = pages[kind]?.[Number(u.searchParams.get("page") ?? "1") - 1];
    if (!body)
      return Response.json({ code: "rest_no_route", message: "No route" }, { status: 404 });
    if (kind !== "events") return Response.json(body);
    const password = u.searchParams.get("password");
    return Response.json({
      ...body,
      events: body.events.map((e: any) =>
        isProtected(e) && password !== protection.passwords[e.id] ? tecBlanked(e) : e,
      ),
    });
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
  options: TecImportOptions & {
    authorization?: string;
    protection?: Protection;
    eventPasswords?: string[];
  } = {},
) {
  const source = fakeSource(pages, options.protection);
  const report = await importTec(
    {
      base: F.SOURCE_ROOT,
      authorization: options.authorization,
      eventPasswords: options.eventPasswords,
      fetch: source.fetch,
    },
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

  it("finds copies made from a language root before global ids were the same in every language", async () => {
    // The source read at its English root; this service used to put the language into global ids.
    const base = F.SOURCE_ROOT.replace("/wp-json/", "/en/wp-json/");
    const pages = JSON.parse(
      JSON.stringify(fixturePages()).replaceAll("8881/wp-json/", "8881/en/wp-json/"),
    ) as Pages;
    const fake = fakeSource(pages);
    const once = () =>
      importTec({ base, fetch: fake.fetch }, target, { retryDelayMs: 1 }).then((r) => r.counts);
    expect((await once()).events.created).toBe(3);
    // What the copies carried then: the source's ids with its language (and as `uid`).
    await env.DB.batch(
      ["events", "venues", "organizers"].map((t) =>
        env.DB.prepare(
          `UPDATE ${t} SET global_id_lineage = replace(global_id_lineage, '127.0.0.1?id=', '127.0.0.1/en?id=')${t === "events" ? ", uid = replace(uid, '127.0.0.1?id=', '127.0.0.1/en?id=')" : ""}`,
        ),
      ),
    );
    forgetVersion();
    const again = await once();
    for (const counts of Object.values(again)) expect(counts.created).toBe(0);
    // Their lineage gains the current form once; then nothing changes.
    for (const counts of Object.values(await once()))
      expect(counts).toMatchObject({ created: 0, updated: 0 });
    const [, ...lineage] = (await imported())["Jazz Night"].global_id_lineage;
    expect(lineage).toEqual([
      expect.stringMatching(/^127\.0\.0\.1\/en\?id=\d+$/),
      lineage[0].replace("/en", ""),
    ]);
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

/** An application password of the source site's user (an editor there). */
const SOURCE_USER = "Basic c291cmNlOnB3";
/** Morning Yoga (id 7) protected at the source; WordPress gives its password to editors. */
const YOGA: Protection = { passwords: { 7: "sun salute" }, wpPasswords: true };
/** Morning Yoga as TEC shows it to whoever may open it. */
const yogaAtSource = () => fixturePages().events[0].events[1];
/** What a blanked event is missing, in the order of the notes. */
const MISSING =
  "the password, description, excerpt, image, all_day, cost, website, show_map, show_map_link, hide_from_listings, sticky, featured, categories, tags, venue, organizer";

/** Every copy by title, as an editor sees it here with `context=edit` (protected ones opened). */
async function edited(): Promise<Record<string, any>> {
  const res = await api(
    `${NS}/events?start_date=2020-01-01&end_date=2030-12-31&per_page=50&status=publish,future,draft,pending,private&context=edit`,
    { headers: ADMIN },
  );
  return Object.fromEntries(res.body.events.map((e: any) => [e.title, e]));
}

/** The status of an anonymous `GET /events/{id}`, with the password if given, and its body. */
const readAs = (id: number, password?: string) =>
  api(`${NS}/events/${id}${password ? `?password=${encodeURIComponent(password)}` : ""}`);

/** The fields of the protected event a reader with its password sees, as the source has them. */
function expectWhole(copy: any, source: any) {
  expect(copy).toMatchObject({
    title: source.title,
    status: source.status,
    description: source.description,
    start_date: source.start_date,
    end_date: source.end_date,
    all_day: source.all_day,
    timezone: source.timezone,
    cost: source.cost,
    show_map: source.show_map,
    show_map_link: source.show_map_link,
    featured: source.featured,
    venue: { venue: source.venue.venue, address: source.venue.address },
    organizer: [{ organizer: source.organizer[0].organizer }],
  });
  expect(copy.cost_details.values).toEqual(source.cost_details.values);
  expect(copy.categories.map((t: any) => t.slug)).toEqual(
    source.categories.map((t: any) => t.slug),
  );
}

describe("TEC import of password-protected events (§4.7)", () => {
  it("copies one whole with its password when the source user may edit it (context=edit, wp/v2 password); a second run writes nothing", async () => {
    const { report, log } = await run(fixturePages(), {
      authorization: SOURCE_USER,
      protection: YOGA,
    });
    expect(report.counts.events).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: 0 });
    expect(report.incomplete).toBe(0);
    expect(report.notes).toEqual([]);
    // The password was read from WordPress's own route, with the source's credentials only.
    expect(log.some((r) => r.url.pathname === "/wp-json/wp/v2/tribe_events/7")).toBe(true);
    expect(log.every((r) => r.authorization === SOURCE_USER)).toBe(true);

    const copy = (await edited())["Morning Yoga"];
    expect((await readAs(copy.id)).body.code).toBe("event-password-protected");
    expect((await readAs(copy.id, "wrong")).body.code).toBe("event-password-protected");
    const opened = await readAs(copy.id, "sun salute");
    expect(opened.status).toBe(200);
    expectWhole(opened.body, yogaAtSource());
    // Listed to the public blanked, as at the source.
    const listed = await api(`${NS}/events?start_date=2020-01-01&end_date=2030-12-31`);
    expect(listed.body.events.find((e: any) => e.id === copy.id)).toMatchObject({
      description: "",
      show_map: null,
    });

    const again = await run(fixturePages(), { authorization: SOURCE_USER, protection: YOGA });
    expect(again.report.counts.events).toEqual({
      created: 0,
      updated: 0,
      unchanged: 3,
      skipped: 0,
    });
  });

  it("opens one with a password given for the import (--event-password), without source credentials", async () => {
    const { report, log } = await run(fixturePages(), {
      protection: YOGA,
      eventPasswords: ["wrong", "sun salute"],
    });
    expect(report.counts.events).toMatchObject({ created: 3 });
    expect(report.incomplete).toBe(0);
    expect(report.notes).toEqual([]);
    expect(log.every((r) => r.authorization === undefined)).toBe(true);
    const copy = (await edited())["Morning Yoga"];
    expectWhole((await readAs(copy.id, "sun salute")).body, yogaAtSource());
    const again = await run(fixturePages(), {
      protection: YOGA,
      eventPasswords: ["wrong", "sun salute"],
    });
    expect(again.report.counts.events).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it("follows the source's password when it changes or goes", async () => {
    await run(fixturePages(), { authorization: SOURCE_USER, protection: YOGA });
    const id = (await edited())["Morning Yoga"].id;
    const changed: Protection = { passwords: { 7: "moon salute" }, wpPasswords: true };
    const second = await run(fixturePages(), { authorization: SOURCE_USER, protection: changed });
    expect(second.report.counts.events).toMatchObject({ updated: 1, unchanged: 2 });
    expect((await readAs(id, "sun salute")).status).toBe(403);
    expect((await readAs(id, "moon salute")).status).toBe(200);

    const open: Protection = { passwords: {}, wpPasswords: true };
    const third = await run(fixturePages(), { authorization: SOURCE_USER, protection: open });
    expect(third.report.counts.events).toMatchObject({ updated: 1, unchanged: 2 });
    expectWhole((await readAs(id)).body, yogaAtSource());
    const fourth = await run(fixturePages(), { authorization: SOURCE_USER, protection: open });
    expect(fourth.report.counts.events).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it("without a way to open it: a draft with its title and dates, and a note naming the password and each field missing; a later run that may open it completes it", async () => {
    const { report } = await run(fixturePages(), { protection: YOGA });
    expect(report.counts.events).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: 0 });
    expect(report.incomplete).toBe(1);
    expect(report.notes).toEqual([
      `event 7 "Morning Yoga" is password protected at the source, which did not open it to this import: imported as a draft with its title and dates; missing: ${MISSING} (import with the application password of a source user who may edit it, or give the event's password with --event-password)`,
    ]);
    const copy = (await edited())["Morning Yoga"];
    const source = yogaAtSource();
    // Held back from the public, and nothing blank presented as the source's.
    expect(copy).toMatchObject({
      status: "draft",
      start_date: source.start_date,
      end_date: source.end_date,
      timezone: source.timezone,
      description: "",
      categories: [],
      venue: [],
      organizer: [],
    });
    expect((await readAs(copy.id)).body.code).toBe("event-not-accessible");
    // The same again: nothing written, the same note.
    const again = await run(fixturePages(), { protection: YOGA });
    expect(again.report.counts.events).toEqual({
      created: 0,
      updated: 0,
      unchanged: 3,
      skipped: 0,
    });
    expect(again.report.incomplete).toBe(1);
    expect(again.report.notes).toEqual([
      `event 7 "Morning Yoga" is password protected at the source, which did not open it to this import: its copy here (event ${copy.id}) keeps its own status and password and what it has of the rest; missing: ${MISSING} (import with the application password of a source user who may edit it, or give the event's password with --event-password)`,
    ]);

    const whole = await run(fixturePages(), { authorization: SOURCE_USER, protection: YOGA });
    expect(whole.report.counts.events).toMatchObject({ created: 0, updated: 1 });
    expect(whole.report.incomplete).toBe(0);
    expectWhole((await readAs(copy.id, "sun salute")).body, source);
  });

  it("a held-back copy in the trash here stays there, with no note of an import", async () => {
    await run(fixturePages(), { protection: YOGA });
    const copy = (await edited())["Morning Yoga"];
    expect(
      (await api(`${NS}/events/${copy.id}`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(200);
    const { report } = await run(fixturePages(), { protection: YOGA });
    expect(report.counts.events).toEqual({ created: 0, updated: 0, unchanged: 2, skipped: 1 });
    expect(report.incomplete).toBe(0);
    expect(report.notes).toEqual([
      `event ${copy.id} "Morning Yoga" is in the trash here: left there`,
    ]);
  });

  it("the fields but not the password (a source that never gives passwords, as this service): a draft with every field, and a note that the password is missing", async () => {
    const noPasswords: Protection = { passwords: { 7: "sun salute" }, wpPasswords: false };
    const { report } = await run(fixturePages(), {
      authorization: SOURCE_USER,
      protection: noPasswords,
    });
    expect(report.counts.events).toMatchObject({ created: 3 });
    expect(report.incomplete).toBe(1);
    expect(report.notes).toEqual([
      'event 7 "Morning Yoga" is password protected at the source, which did not give its password (wp/v2/tribe_events/7: HTTP 404 rest_no_route): imported as a draft with every other field; missing: the password (set it here, or give it with --event-password)',
    ]);
    const copy = (await edited())["Morning Yoga"];
    expectWhole({ ...copy, status: "publish" }, yogaAtSource());
    expect(copy.status).toBe("draft");
    expect((await readAs(copy.id)).body.code).toBe("event-not-accessible");
    const again = await run(fixturePages(), {
      authorization: SOURCE_USER,
      protection: noPasswords,
    });
    expect(again.report.counts.events).toMatchObject({ created: 0, updated: 0, unchanged: 3 });

    const withPassword = await run(fixturePages(), {
      authorization: SOURCE_USER,
      protection: noPasswords,
      eventPasswords: ["sun salute"],
    });
    expect(withPassword.report.counts.events).toMatchObject({ updated: 1, unchanged: 2 });
    expect(withPassword.report.incomplete).toBe(0);
    expectWhole((await readAs(copy.id, "sun salute")).body, yogaAtSource());
  });
});

describe("TEC import: what it refuses", () => {
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
