import { describe, expect, it } from "vitest";
import { ADMIN } from "../support/api";
import { day } from "../support/dates";
import { seedEvent } from "../support/factories";
import { feed } from "./support";

/** A bad feed request is answered like `GET /events`: the WordPress JSON envelope, not a broken calendar. */
async function expectInvalid(
  query: string,
  params: string[],
  headers: Record<string, string> = {},
) {
  const res = await feed(`?${query}`, headers);
  expect(res.status, query).toBe(400);
  expect(res.headers.get("content-type")).toBe("application/json; charset=UTF-8");
  const body = JSON.parse(res.text);
  expect(body.code).toBe("rest_invalid_param");
  expect(Object.keys(body.data.params)).toEqual(params);
  if (!headers.authorization) expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("etag")).toBeNull();
  return body;
}

describe("GET /events.ics: bad input → 400 like /events (§10.2)", () => {
  it("validates page and per_page although it ignores them", async () => {
    await expectInvalid("per_page=abc", ["per_page"]);
    await expectInvalid("page=0", ["page"]);
  });

  it("rejects unreadable dates and modified_after, unknown statuses and empty search", async () => {
    await expectInvalid("start_date=not-a-date", ["start_date"]);
    await expectInvalid("modified_after=whenever", ["modified_after"]);
    await expectInvalid("status=foo", ["status"], ADMIN);
    await expectInvalid("search=", ["search"]);
  });

  it("rejects references to categories, tags, venues and organizers that do not exist", async () => {
    await seedEvent({ title: "Any", start: day(1) });
    await expectInvalid("categories=nope", ["categories"]);
    await expectInvalid("tags=99999", ["tags"]);
    await expectInvalid("venue=99999&organizer=99998", ["venue", "organizer"]);
  });

  it("answers only GET: other methods are not routes here", async () => {
    const { SELF } = await import("cloudflare:test");
    const res = await SELF.fetch("http://calendar.test/wp-json/tribe/events/v1/events.ics", {
      method: "POST",
      headers: ADMIN,
    });
    expect(res.status).toBe(404);
    expect((await res.json<any>()).code).toBe("rest_no_route");
  });
});
