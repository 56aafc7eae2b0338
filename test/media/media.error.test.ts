/**
 * `wp/v2/media` errors (contract §3): every code the media routes emit; a failed create stores
 * nothing and uses up no id.
 */
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { api } from "../support/api";
import { expectError } from "../support/errors";
import { db, seedEvent, seedOrganizer, seedUser, seedVenue } from "../support/factories";

const MEDIA = "/wp-json/wp/v2/media";
const postRows = async () => (await db().select({ n: count() }).from(schema.posts))[0].n;

describe("POST /media", () => {
  it("rest_missing_callback_param without source_url", async () => {
    const author = await seedUser("author");
    const res = await api(MEDIA, { headers: author.headers, json: { alt_text: "x" } });
    expectError(res, 400, "rest_missing_callback_param", "Missing parameter(s): source_url");
    expect(res.body.data.params).toEqual(["source_url"]);
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ["an ftp URL", { source_url: "ftp://i.test/a.jpg" }, "source_url"],
    ["a javascript: URL", { source_url: "javascript:alert(1)//a.png" }, "source_url"],
    ["a data: URL", { source_url: "data:image/png;base64,AAAA" }, "source_url"],
    ["a relative path", { source_url: "/uploads/a.jpg" }, "source_url"],
    ["a document", { source_url: "https://i.test/a.pdf" }, "source_url"],
    ["an HTML page", { source_url: "https://i.test/gallery" }, "source_url"],
    [
      "an image name only in the query",
      { source_url: "https://i.test/view?file=a.jpg" },
      "source_url",
    ],
    ["a URL that is not a string", { source_url: 5 }, "source_url"],
    [
      "a URL over 2048 characters",
      { source_url: `https://i.test/${"a".repeat(2040)}.jpg` },
      "source_url",
    ],
    ["a zero width", { source_url: "https://i.test/a.jpg", width: 0 }, "width"],
    ["a negative height", { source_url: "https://i.test/a.jpg", height: -3 }, "height"],
    ["a fractional width", { source_url: "https://i.test/a.jpg", width: 1.5 }, "width"],
    [
      "a height that is no number",
      { source_url: "https://i.test/a.jpg", height: "tall" },
      "height",
    ],
    [
      "alt text that is not a string",
      { source_url: "https://i.test/a.jpg", alt_text: ["x"] },
      "alt_text",
    ],
  ];
  for (const [what, body, param] of bad) {
    it(`rest_invalid_param for ${what}`, async () => {
      const author = await seedUser("author");
      const before = await postRows();
      const res = await api(MEDIA, { headers: author.headers, json: body });
      expectError(res, 400, "rest_invalid_param", `Invalid parameter(s): ${param}`);
      expect(Object.keys(res.body.data.params)).toEqual([param]);
      expect(await postRows()).toBe(before);
    });
  }

  it("rest_invalid_param lists every bad field at once", async () => {
    const author = await seedUser("author");
    const res = await api(MEDIA, {
      headers: author.headers,
      json: { source_url: "nope", width: "x", height: 0 },
    });
    expect(Object.keys(res.body.data.params)).toEqual(["source_url", "width", "height"]);
  });

  it("rest_invalid_json for a malformed body", async () => {
    const author = await seedUser("author");
    expectError(
      await api(MEDIA, {
        headers: { ...author.headers, "content-type": "application/json" },
        body: "{",
      }),
      400,
      "rest_invalid_json",
    );
  });
});

describe("GET /media/{id}", () => {
  it("rest_post_invalid_id for an unknown id", async () => {
    expectError(await api(`${MEDIA}/999`), 404, "rest_post_invalid_id", "Invalid post ID.");
    expectError(await api(`${MEDIA}/0`), 404, "rest_post_invalid_id");
    expectError(await api(`${MEDIA}/99999999999999999999`), 404, "rest_post_invalid_id");
  });

  it("rest_post_invalid_id for the id of an event, venue or organizer", async () => {
    const ids = [
      await seedEvent({ title: "Gig", start: "2030-01-01 20:00:00" }),
      await seedVenue({ title: "Hall" }),
      await seedOrganizer({ title: "Org" }),
    ];
    for (const id of ids) expectError(await api(`${MEDIA}/${id}`), 404, "rest_post_invalid_id");
  });

  it("speaks German under /de", async () => {
    expectError(
      await api(`/de${MEDIA}/999`),
      404,
      "rest_post_invalid_id",
      "Ungültige Beitrags-ID.",
    );
  });

  it("rest_no_route for ids that are not numbers and for routes that do not exist", async () => {
    expectError(await api(`${MEDIA}/abc`), 404, "rest_no_route");
    expectError(await api(`${MEDIA}/1/nope`), 404, "rest_no_route");
  });
});
