import { describe, expect, it } from "vitest";
import { api, NS, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedOrganizer, seedTerm, seedUser, seedVenue } from "../support/factories";

describe("GET /events: window, order and paging", () => {
  it("lists upcoming events from yesterday on, in start order, with the default window echoed", async () => {
    await seedEvent({ title: "Too old", start: day(-2) });
    const b = await seedEvent({ title: "Later", start: day(3, "09:00:00") });
    const a = await seedEvent({ title: "Yesterday", start: day(-1, "08:00:00") });
    const c = await seedEvent({
      title: "Same start, newer post",
      start: day(3, "09:00:00"),
      postDate: "2026-02-01 00:00:00",
    });
    await seedEvent({ title: "Beyond two years", start: day(800) });
    const res = await api(`${NS}/events`);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: any) => e.id)).toEqual([a, b, c]);
    expect(res.body.total).toBe(3);
    expect(res.body.total_pages).toBe(1);
    expect(Object.keys(res.body)).toEqual(["events", "rest_url", "total", "total_pages"]);
    const start = `${day(-1, "00:00:00")}`;
    const rest = new URL(res.body.rest_url);
    expect(rest.pathname).toBe(`${NS}/events/`);
    expect([...rest.searchParams.keys()]).toEqual([
      "page",
      "per_page",
      "start_date",
      "end_date",
      "status",
    ]);
    expect(rest.searchParams.get("start_date")).toBe(start);
    expect(rest.searchParams.get("per_page")).toBe("12");
    expect(rest.searchParams.get("status")).toBe("publish");
    expect(res.body.rest_url).toContain(
      `start_date=${start.replace(" ", "+").replaceAll(":", "%3A")}`,
    );
  });

  it("pages with next/previous URLs, totals in headers and a Link header", async () => {
    for (let i = 0; i < 5; i++) await seedEvent({ title: `E${i}`, start: day(i + 1) });
    const first = await api(`${NS}/events?per_page=2`);
    expect(first.body.events).toHaveLength(2);
    expect(first.body.total).toBe(5);
    expect(first.body.total_pages).toBe(3);
    expect(first.headers.get("x-tec-total")).toBe("5");
    expect(first.headers.get("x-tec-totalpages")).toBe("3");
    expect(first.headers.get("x-wp-total")).toBe("5");
    expect(first.headers.get("x-wp-totalpages")).toBe("3");
    expect(first.body.previous_rest_url).toBeUndefined();
    const next = new URL(first.body.next_rest_url);
    expect([...next.searchParams.keys()].at(-1)).toBe("page");
    expect(next.searchParams.get("page")).toBe("2");
    expect(first.headers.get("link")).toContain(`<${first.body.next_rest_url}>; rel="next"`);
    expect(first.headers.get("access-control-expose-headers")).toMatch(/X-WP-Total/);

    const second = await api(
      new URL(first.body.next_rest_url).pathname + new URL(first.body.next_rest_url).search,
    );
    expect(second.body.events.map((e: any) => e.title)).toEqual(["E2", "E3"]);
    expect(new URL(second.body.previous_rest_url).searchParams.has("page")).toBe(false);
    const third = await api(`${NS}/events?per_page=2&page=3`);
    expect(third.body.events.map((e: any) => e.title)).toEqual(["E4"]);
    expect(third.body.next_rest_url).toBeUndefined();
    expect(new URL(third.body.previous_rest_url).searchParams.get("page")).toBe("2");
  });

  it("clamps per_page to PER_PAGE_MAX", async () => {
    const res = await api(`${NS}/events?per_page=500`);
    expect(res.status).toBe(200);
    expect(new URL(res.body.rest_url).searchParams.get("per_page")).toBe("50");
  });

  it("answers an empty calendar with 200, total 0 and no next/previous", async () => {
    const res = await api(`${NS}/events`);
    expect(res.body).toMatchObject({ events: [], total: 0, total_pages: 0 });
    expect(res.body.next_rest_url).toBeUndefined();
  });
});

describe("GET /events: date filters (§6.2)", () => {
  const seedJanFirst = async () => {
    await seedEvent({ title: "Dec 31", start: "2017-12-31 17:00:00", end: "2017-12-31 18:00:00" });
    await seedEvent({
      title: "Jan 1 16:00",
      start: "2018-01-01 16:00:00",
      end: "2018-01-01 16:30:00",
    });
    await seedEvent({
      title: "Jan 1 20:00",
      start: "2018-01-01 20:00:00",
      end: "2018-01-01 20:30:00",
    });
    await seedEvent({ title: "Jan 2", start: "2018-01-02 10:00:00", end: "2018-01-02 11:00:00" });
  };
  const titles = (res: any) => res.body.events.map((e: any) => e.title);

  it("rounds start_date/end_date to whole days unless strict_dates", async () => {
    await seedJanFirst();
    const q = "start_date=2018-01-01%2015:00:00&end_date=2018-01-01%2018:00:00";
    const inclusive = await api(`${NS}/events?${q}`);
    expect(titles(inclusive)).toEqual(["Jan 1 16:00", "Jan 1 20:00"]);
    const rest = new URL(inclusive.body.rest_url).searchParams;
    expect([rest.get("start_date"), rest.get("end_date")]).toEqual([
      "2018-01-01 00:00:00",
      "2018-01-01 23:59:59",
    ]);
    const strict = await api(`${NS}/events?${q}&strict_dates=true`);
    expect(titles(strict)).toEqual(["Jan 1 16:00"]);
  });

  it("applies starts_after/ends_before with end-of-day rounding and drops the default window", async () => {
    await seedJanFirst();
    expect(titles(await api(`${NS}/events?starts_after=2017-12-31`))).toEqual([
      "Jan 1 16:00",
      "Jan 1 20:00",
      "Jan 2",
    ]);
    expect(titles(await api(`${NS}/events?ends_before=2018-01-01`))).toEqual([
      "Dec 31",
      "Jan 1 16:00",
      "Jan 1 20:00",
    ]);
    expect(
      titles(await api(`${NS}/events?starts_before=2018-01-01&starts_after=2017-12-30`)),
    ).toEqual(["Dec 31", "Jan 1 16:00", "Jan 1 20:00"]);
    const rest = new URL((await api(`${NS}/events?starts_after=2017-12-31`)).body.rest_url)
      .searchParams;
    expect(rest.has("start_date")).toBe(false);
    expect(rest.get("starts_after")).toBe("2017-12-31 23:59:59");
  });

  it("accepts relative phrases and Unix timestamps", async () => {
    await seedEvent({ title: "Tomorrow", start: day(1) });
    await seedEvent({ title: "In ten days", start: day(10) });
    expect(titles(await api(`${NS}/events?start_date=tomorrow&end_date=%2B3%20days`))).toEqual([
      "Tomorrow",
    ]);
    const ts = Math.floor(Date.now() / 1000) + 5 * 86400;
    expect(titles(await api(`${NS}/events?start_date=${ts}`))).toEqual(["In ten days"]);
  });

  it("ignores every date filter with include, ordering by post date", async () => {
    const old = await seedEvent({
      title: "Old",
      start: "2001-01-01 10:00:00",
      postDate: "2025-01-02 00:00:00",
    });
    const soon = await seedEvent({ title: "Soon", start: day(2), postDate: "2025-01-01 00:00:00" });
    const res = await api(`${NS}/events?include=${old},${soon}`);
    expect(res.body.events.map((e: any) => e.id)).toEqual([soon, old]);
    expect(new URL(res.body.rest_url).searchParams.get("include")).toBe(`${old},${soon}`);
  });
});

describe("GET /events: filters (§6.3)", () => {
  it("filters by category (id, slug or name), tag, venue, organizer, featured and search, echoing them", async () => {
    const music = await seedTerm("tribe_events_cat", "Live Music", { slug: "live-music" });
    const art = await seedTerm("tribe_events_cat", "Art");
    const outdoor = await seedTerm("post_tag", "Outdoor");
    const hall = await seedVenue({ title: "Hall" });
    const org = await seedOrganizer({ title: "Org" });
    const jazz = await seedEvent({
      title: "Jazz Night",
      start: day(1),
      termIds: [music, outdoor],
      venueId: hall,
      featured: true,
    });
    const paint = await seedEvent({
      title: "Painting",
      content: "<p>Bring brushes</p>",
      start: day(2),
      termIds: [art],
      organizerIds: [org],
    });
    const ids = async (q: string) =>
      (await api(`${NS}/events?${q}`)).body.events.map((e: any) => e.id);
    expect(await ids(`categories=${music}`)).toEqual([jazz]);
    expect(await ids("categories=live-music,art")).toEqual([jazz, paint]);
    expect(await ids("categories=Live%20Music")).toEqual([jazz]);
    expect(await ids("tags=outdoor")).toEqual([jazz]);
    expect(await ids("categories=art&tags=outdoor")).toEqual([]);
    expect(await ids(`venue=${hall}`)).toEqual([jazz]);
    expect(await ids(`organizer=${org}`)).toEqual([paint]);
    expect(await ids("featured=true")).toEqual([jazz]);
    expect(await ids("featured=false")).toEqual([paint]);
    expect(await ids("search=brush")).toEqual([paint]);
    expect(await ids("search=jazz%20night")).toEqual([jazz]);
    expect(await ids("search=jazz%20brush")).toEqual([]);
    const rest = new URL(
      (await api(`${NS}/events?categories=live-music&tags=outdoor&featured=1`)).body.rest_url,
    ).searchParams;
    expect([rest.get("categories"), rest.get("tags"), rest.get("featured")]).toEqual([
      "live-music",
      "outdoor",
      "1",
    ]);
  });

  it("never lists events hidden from listings", async () => {
    await seedEvent({ title: "Hidden", start: day(1), hidden: true });
    const shown = await seedEvent({ title: "Shown", start: day(1) });
    expect((await api(`${NS}/events`)).body.events.map((e: any) => e.id)).toEqual([shown]);
  });

  it("answers in one D1 round trip anonymously (two with credentials), whatever the page size", async () => {
    for (let i = 0; i < 30; i++)
      await seedEvent({ title: `E${i}`, start: day(1 + (i % 5)), venueId: null });
    // Anonymous: one batch holds the content version, the page and its links.
    expect(roundTrips(await api(`${NS}/events?per_page=50`))).toBe(1);
    expect(
      roundTrips(await api(`${NS}/events?per_page=50&categories=nothing-yet-but-checked`)),
    ).toBe(1);
    const editor = await seedUser("editor");
    expect(roundTrips(await api(`${NS}/events?per_page=50`, { headers: editor.headers }))).toBe(2);
  });
});

describe("GET /events: languages (contract §1)", () => {
  it("serves the same data under /en/, /de/ and unprefixed, with URLs in the request's language", async () => {
    await seedEvent({ title: "Jazz", start: day(1) });
    const plain = await api(`${NS}/events`);
    const en = await api(`/en${NS}/events`);
    const de = await api(`/de${NS}/events`);
    expect(de.body.total).toBe(1);
    expect(de.body.events[0].rest_url).toBe(
      `http://calendar.test/de${NS}/events/${de.body.events[0].id}`,
    );
    expect(de.body.events[0].url).toBe("http://calendar.test/de/event/jazz/");
    expect(en.body.rest_url.startsWith(`http://calendar.test/en${NS}/events/`)).toBe(true);
    const strip = (body: any) =>
      JSON.parse(
        JSON.stringify(body)
          .replaceAll("/de/", "/")
          .replaceAll("/en/", "/")
          .replaceAll("calendar.test/de", "calendar.test")
          .replaceAll("calendar.test/en", "calendar.test"),
      );
    expect(strip(de.body)).toEqual(strip(plain.body));
    expect(strip(en.body)).toEqual(strip(plain.body));
  });
});
