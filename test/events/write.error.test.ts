import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedVenue } from "../support/factories";

const valid = { title: "T", start_date: "2027-05-01 10:00:00", end_date: "2027-05-01 11:00:00" };
const post = (json: unknown) => api(`${NS}/events`, { json, headers: ADMIN });

async function expectInvalid(json: Record<string, unknown>, params: string[]) {
  const res = await post({ ...valid, ...json });
  expect(res.status, JSON.stringify(json)).toBe(400);
  expect(res.body.code).toBe("rest_invalid_param");
  expect(Object.keys(res.body.data.params)).toEqual(params);
}

/** Rows in every table that a create touches. */
async function counts() {
  const row = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM posts) p, (SELECT count(*) FROM events) e, (SELECT count(*) FROM venues) v, (SELECT count(*) FROM organizers) o, (SELECT count(*) FROM terms) t, (SELECT count(*) FROM event_terms) et, (SELECT version FROM content_version) cv",
  ).first();
  return row;
}

describe("POST /events: errors (§1.3, §10)", () => {
  it("400 rest_missing_callback_param for missing required fields, before anything else", async () => {
    const res = await post({ start_date: "2026-12-20 10:00:00", end_date: "2026-12-20 11:00:00" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "rest_missing_callback_param",
      message: "Missing parameter(s): title",
      data: { status: 400, params: ["title"] },
    });
    const anonymous = await api(`${NS}/events`, { json: {} });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.data.params).toEqual(["title", "start_date", "end_date"]);
  });

  it("400 rest_invalid_json for a broken JSON body", async () => {
    const res = await api(`${NS}/events`, {
      body: "{oops",
      headers: { ...ADMIN, "content-type": "application/json" },
      method: "POST",
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("rest_invalid_json");
    expect(res.body.message).toBe("Invalid JSON body passed.");
  });

  it("413 for bodies over 1 MiB", async () => {
    const res = await post({ ...valid, description: "x".repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("rest_payload_too_large");
  });

  it("400 rest_invalid_param for each malformed field", async () => {
    await expectInvalid({ description: "" }, ["description"]);
    await expectInvalid({ slug: "" }, ["slug"]);
    await expectInvalid({ start_date: "soon-ish" }, ["start_date"]);
    await expectInvalid({ timezone: "Mars/Olympus" }, ["timezone"]);
    await expectInvalid({ website: "not a url" }, ["website"]);
    await expectInvalid({ status: "published" }, ["status"]);
    await expectInvalid({ featured: "yes" }, ["featured"]);
    await expectInvalid({ title: 42 }, ["title"]);
    await expectInvalid({ author: 999 }, ["author"]);
    await expectInvalid({ image: 999 }, ["image"]);
    await expectInvalid({ image: "https://example.com/file.pdf" }, ["image"]);
    await expectInvalid({ venue: "foo" }, ["venue"]);
    await expectInvalid({ organizer: [{ email: "no-name@example.com" }] }, ["organizer"]);
    const event = await seedEvent({ title: "E", start: day(1) });
    await expectInvalid({ venue: event }, ["venue"]);
    await expectInvalid({ organizer: `${event}` }, ["organizer"]);
    await post({ ...valid, title: "With uid", uid: "abc@example.com" });
    await expectInvalid({ uid: "abc@example.com" }, ["uid"]);
  });

  it("400 invalid-linked-post-id for {id} objects naming something else", async () => {
    const event = await seedEvent({ title: "E", start: day(1) });
    const res = await post({ ...valid, venue: { id: event } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "invalid-linked-post-id",
      message: "The provided linked post ID is not valid",
      data: { status: 400 },
    });
  });

  it("changes nothing when the request is refused", async () => {
    const before = await counts();
    await post({
      ...valid,
      venue: { venue: "New Hall" },
      organizer: [{ organizer: "New Org" }],
      categories: ["New Cat"],
      timezone: "Nowhere/Else",
    });
    await api(`${NS}/events`, {
      json: { ...valid, venue: { venue: "New Hall" }, categories: ["New Cat"] },
    });
    expect(await counts()).toEqual(before);
  });

  it("leaves nothing behind when the write batch fails half-way", async () => {
    await env.DB.exec(
      "CREATE TRIGGER fail_links BEFORE INSERT ON event_organizers BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
    );
    const before = await counts();
    const res = await post({
      ...valid,
      venue: { venue: "Atomic Hall" },
      organizer: [{ organizer: "Atomic Org" }],
      categories: ["Atomic"],
      tags: ["t1"],
    });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      code: "rest_internal_error",
      message: "The server could not complete the request.",
      data: { status: 500 },
    });
    expect(JSON.stringify(res.body)).not.toContain("injected");
    expect(await counts()).toEqual(before);
  });
});

describe("update and delete: errors", () => {
  it("404 rest-event-not-found and 400 rest-invalid-event-id", async () => {
    const venue = await seedVenue({ title: "Hall" });
    const missing = await api(`${NS}/events/999999`, {
      method: "PUT",
      json: { title: "x" },
      headers: ADMIN,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Event with ID 999999 does not exist.");
    const deleted = await api(`${NS}/events/999999`, { method: "DELETE", headers: ADMIN });
    expect(deleted.status).toBe(404);
    expect(deleted.body.code).toBe("rest-event-not-found");
    for (const method of ["PUT", "DELETE"]) {
      const res = await api(`${NS}/events/${venue}`, {
        method,
        json: { title: "x" },
        headers: ADMIN,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("rest-invalid-event-id");
    }
  });

  it("400 for an unknown slug on edit and delete, and 400 for an emptied title", async () => {
    for (const method of ["PUT", "DELETE"]) {
      const res = await api(`${NS}/events/by-slug/nope`, {
        method,
        json: { title: "x" },
        headers: ADMIN,
      });
      expect(res.status).toBe(400);
      expect(res.body.data.params).toEqual({ slug: "Invalid parameter." });
    }
    const id = await seedEvent({ title: "E", start: day(1) });
    const res = await api(`${NS}/events/${id}`, {
      method: "PATCH",
      json: { title: "" },
      headers: ADMIN,
    });
    expect(res.status).toBe(400);
  });
});

describe("long titles and long lists of values", () => {
  it("gives the third event with the same long title a numbered slug (no LIKE/GLOB pattern limit)", async () => {
    const title = "An exceptionally long event title that keeps going on and on";
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await post({ ...valid, title })).body.slug);
    expect(slugs[2]).toBe(`${slugs[0]}-3`);
  });

  it("filters by a hundred uids and a hundred include ids in one request", async () => {
    const uids = Array.from({ length: 100 }, (_, i) => `uid-${i}@example.com`);
    const res = await api(`${NS}/events?uid=${uids.join(",")}&per_page=50`, { headers: ADMIN });
    expect(res.status).toBe(200);
    const include = await api(
      `${NS}/events?include=${Array.from({ length: 100 }, (_, i) => i + 1).join(",")}`,
    );
    expect(include.status).toBe(200);
    const cats = await api(
      `${NS}/events?categories=${Array.from({ length: 60 }, (_, i) => `c${i}`).join(",")}`,
    );
    expect(cats.status).toBe(400);
  });
});
