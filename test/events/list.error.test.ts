import { describe, expect, it } from "vitest";
import { api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedVenue } from "../support/factories";

/** Asserts the WordPress `rest_invalid_param` envelope naming exactly `params`. */
async function expectInvalid(query: string, params: string[]) {
  const res = await api(`${NS}/events?${query}`);
  expect(res.status, query).toBe(400);
  expect(res.body.code).toBe("rest_invalid_param");
  expect(res.body.message).toBe(`Invalid parameter(s): ${params.join(", ")}`);
  expect(Object.keys(res.body.data.params)).toEqual(params);
  expect(res.body.data.status).toBe(400);
  return res;
}

describe("GET /events: bad input → 400 rest_invalid_param (§10.2)", () => {
  it("rejects bad page and per_page values like the original", async () => {
    const res = await expectInvalid("per_page=abc", ["per_page"]);
    expect(res.body).toEqual({
      code: "rest_invalid_param",
      message: "Invalid parameter(s): per_page",
      data: { status: 400, params: { per_page: "Invalid parameter." }, details: [] },
    });
    for (const bad of ["0", "-1", "foo", "foo bar", "1.5"])
      await expectInvalid(`page=${encodeURIComponent(bad)}`, ["page"]);
  });

  it("rejects dates it cannot read instead of guessing", async () => {
    await expectInvalid("start_date=not-a-date", ["start_date"]);
    await expectInvalid("start_date=before%20my%20birthday&ends_after=soonish", [
      "start_date",
      "ends_after",
    ]);
  });

  it("rejects empty search and strict_dates, non-boolean featured, unknown statuses", async () => {
    await expectInvalid("search=", ["search"]);
    await expectInvalid("strict_dates=", ["strict_dates"]);
    const res = await expectInvalid("featured=yes", ["featured"]);
    expect(res.body.data.params.featured).toBe("featured is not of type boolean.");
    await expectInvalid("status=foo", ["status"]);
    await expectInvalid("status=any", ["status"]);
  });

  it("rejects references to things that do not exist", async () => {
    const venue = await seedVenue({ title: "Hall" });
    const event = await seedEvent({ title: "E", start: day(1) });
    await expectInvalid("categories=missing", ["categories"]);
    await expectInvalid("tags=nope,also-nope", ["tags"]);
    await expectInvalid("venue=foo", ["venue"]);
    await expectInvalid(`venue=${event}`, ["venue"]);
    await expectInvalid(`organizer=${venue}`, ["organizer"]);
    await expectInvalid("include=foo-bar,23", ["include"]);
    await expectInvalid(`post_parent=${venue}`, ["post_parent"]);
    await expectInvalid("geoloc_lat=100&geoloc_lng=0", ["geoloc_lat"]);
  });

  it("answers a page past the end with 404 event-archive-page-not-found", async () => {
    await seedEvent({ title: "Only", start: day(1) });
    const res = await api(`${NS}/events?page=2`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: "event-archive-page-not-found",
      message: "The requested event archive page does not exist",
      data: { status: 404 },
    });
  });

  it("words errors in the request's language", async () => {
    const res = await api(`/de${NS}/events?page=0`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("rest_invalid_param");
    expect(res.body.message).toBe("Ungültige(r) Parameter: page");
    expect(res.body.data.params.page).toBe("Ungültiger Parameter.");
  });
});

describe("routing errors → 404 rest_no_route", () => {
  it.each([
    ["GET", `${NS}/nope`],
    ["GET", `${NS}/events/foo`],
    ["GET", `/fr${NS}/events`],
    ["GET", "/somewhere/else"],
    ["PATCH", `${NS}/events`],
  ])("%s %s", async (method, path) => {
    const res = await api(path, { method });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: "rest_no_route",
      message: "No route was found matching the URL and request method.",
      data: { status: 404 },
    });
  });
});
