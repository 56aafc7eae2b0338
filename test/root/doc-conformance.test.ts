/**
 * `/doc` describes every payload the service sends: a sample answer of every route —
 * lists, singles, by-slug, linked posts inside events, terms, webhooks, `/deleted`, the `wp/v2`
 * media and users, and the error envelope for 400, 401, 403, 404, 410 — validated against the
 * documented schema with every object closed (`additionalProperties: false` wherever `/doc` does
 * not describe a map), so a key the documentation does not name fails.
 */
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedUser } from "../support/factories";
import { drive } from "../webhooks/driven";
import { seedCalendar } from "./calendar";
import { responseSchema, toJsonSchema } from "./openapi-validator";

type Json = any;
const WP = "/wp-json/wp/v2";

/** Closes every object schema: `additionalProperties: true` or absent becomes `false`. */
function closed(node: Json): Json {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== "object") return node;
  const out: Json = Object.fromEntries(
    Object.entries(node).map(([k, value]) => [k, k === "enum" ? value : closed(value)]),
  );
  if (out.type === "object" && (out.additionalProperties ?? true) === true)
    out.additionalProperties = false;
  return out;
}

/** Objects `/doc` leaves open (it should leave none). */
function openObjects(node: Json, at = "", out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) openObjects(n, `${at}/${i}`, out);
  } else if (node && typeof node === "object") {
    if (node.type === "object" && (node.additionalProperties ?? true) === true) out.push(at);
    for (const [k, value] of Object.entries(node)) openObjects(value, `${at}/${k}`, out);
  }
  return out;
}

function validate(doc: Json, schema: Json, body: unknown): string[] {
  const root = {
    ...closed(toJsonSchema(schema)),
    components: { schemas: closed(toJsonSchema(doc.components.schemas)) },
  };
  const result = new Validator(root, "2019-09", false).validate(body);
  return result.valid
    ? []
    : result.errors.map((e) => `${e.instanceLocation} ${e.keyword}: ${e.error}`);
}

/**
 * A checker bound to the default language's `/doc`.
 * @param send how to reach the worker (`api`, or a driven worker's: test/webhooks/driven.ts).
 */
async function conformance(send = api) {
  const doc = (await send(`${NS}/doc`)).body;
  /** Calls `method path` under the namespace and validates the answer against `template`'s documentation. */
  const route = async (
    method: string,
    path: string,
    template: string,
    status: number,
    init: { json?: unknown; body?: string; headers?: Record<string, string> } = {},
  ) => {
    const res = await send(`${NS}${path}`, { method: method.toUpperCase(), ...init });
    expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(status);
    const schema = responseSchema(doc, template, method, status);
    expect(validate(doc, schema, res.body), `${method} ${path}`).toEqual([]);
    return res.body;
  };
  return {
    doc,
    route,
    /** `route` as the administrator, with an optional JSON body. */
    admin: (method: string, path: string, template: string, status: number, json?: unknown) =>
      route(method, path, template, status, { headers: ADMIN, json }),
    /** Calls a `wp/v2` route and validates the answer against a component (wp/v2 has no paths in `/doc`). */
    async wp(
      method: string,
      path: string,
      component: string,
      status: number,
      init: { json?: unknown; headers?: Record<string, string> } = {},
      list = false,
    ) {
      const res = await send(`${WP}${path}`, { method: method.toUpperCase(), ...init });
      expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(status);
      const ref = { $ref: `#/components/schemas/${component}` };
      const schema = list ? { type: "array", items: ref } : ref;
      expect(validate(doc, schema, res.body), `${method} ${path}`).toEqual([]);
      return res.body;
    },
  };
}

describe("/doc describes every payload that is sent", () => {
  it("leaves no object open: every key of every payload is named", async () => {
    const { doc } = await conformance();
    expect(openObjects(doc.components.schemas)).toEqual([]);
  });

  it("events, venues, organizers: lists, singles, by-slug, linked posts, password blanking", async () => {
    const cal = await seedCalendar();
    const { route } = await conformance();
    for (const headers of [{}, ADMIN]) {
      await route("get", "/events", "/events", 200, { headers });
      await route("get", "/venues", "/venues", 200, { headers });
      await route("get", "/organizers", "/organizers", 200, { headers });
    }
    await route("get", "/events?per_page=1&page=2", "/events", 200);
    const single = await route("get", `/events/${cal.full.id}`, "/events/{id}", 200);
    expect(
      single.json_ld.location && single.json_ld.organizer && single.json_ld.offers,
    ).toBeTruthy();
    expect(single.venue.json_ld && single.organizer[0].json_ld).toBeTruthy();
    await route("get", `/events/${cal.protectedEvent}?password=members`, "/events/{id}", 200);
    await route("get", `/events/by-slug/${cal.full.slug}`, "/events/by-slug/{slug}", 200);
    const venue = await route("get", `/venues/${cal.venue.id}`, "/venues/{id}", 200);
    expect(venue.json_ld.address && venue.json_ld.geo).toBeTruthy();
    await route("get", `/venues/${cal.protectedVenue}`, "/venues/{id}", 200);
    await route("get", `/venues/by-slug/${cal.venue.slug}`, "/venues/by-slug/{slug}", 200);
    const organizer = await route(
      "get",
      `/organizers/${cal.organizer.id}`,
      "/organizers/{id}",
      200,
    );
    expect(organizer.json_ld.email).toBeTruthy();
    await route(
      "get",
      `/organizers/by-slug/${cal.organizer.slug}`,
      "/organizers/by-slug/{slug}",
      200,
    );
  });

  it("terms, /deleted and the answers of writes", async () => {
    const cal = await seedCalendar();
    const { route, admin: write } = await conformance();
    await route("get", "/categories?hide_empty=false", "/categories", 200);
    await route("get", `/categories/${cal.category}`, "/categories/{id}", 200, { headers: ADMIN });
    await route("get", "/tags", "/tags", 200);
    await route("get", `/tags/${cal.tag}`, "/tags/{id}", 200);
    const event = await write("post", "/events", "/events", 201, {
      title: "Created",
      start_date: day(5),
      end_date: day(5, "11:00:00"),
      venue: { venue: "New Place", city: "Berlin" },
      organizer: [{ organizer: "New Host", email: "host@example.com" }],
    });
    await write("put", `/events/${event.id}`, "/events/{id}", 200, { title: "Renamed" });
    await write("delete", `/events/${event.id}`, "/events/{id}", 200);
    await write("delete", `/events/${event.id}?force=true`, "/events/{id}", 200);
    const venue = await write("post", "/venues", "/venues", 201, { venue: "Annex" });
    await write("patch", `/venues/${venue.id}`, "/venues/{id}", 200, { city: "Leipzig" });
    await write("delete", `/venues/${venue.id}`, "/venues/{id}", 200);
    await write("delete", `/venues/${venue.id}?force=true`, "/venues/{id}", 200);
    const organizer = await write("post", "/organizers", "/organizers", 201, { organizer: "Crew" });
    await write("delete", `/organizers/${organizer.id}?force=true`, "/organizers/{id}", 200);
    const tag = await write("post", "/tags", "/tags", 201, { name: "Indoor" });
    await write("post", `/tags/${tag.id}`, "/tags/{id}", 200, { description: "Roofed" });
    await write("delete", `/tags/${tag.id}`, "/tags/{id}", 200);
    const deleted = await route("get", "/deleted?modified_after=2000-01-01", "/deleted", 200);
    expect(deleted.deleted.length).toBeGreaterThan(2);
  });

  it("webhooks: registration, list, read, update, ping, deliveries, delete", async () => {
    // Driven: the ping waits in a queue of its own instead of reaching a later test's webhook.
    const { admin } = await conformance(drive().api);
    const hook = await admin("post", "/webhooks", "/webhooks", 201, {
      url: "https://hooks.test/doc",
      events: ["*"],
      description: "Docs",
    });
    await admin("get", "/webhooks", "/webhooks", 200);
    await admin("get", `/webhooks/${hook.id}`, "/webhooks/{id}", 200);
    await admin("patch", `/webhooks/${hook.id}`, "/webhooks/{id}", 200, { status: "disabled" });
    await admin("patch", `/webhooks/${hook.id}`, "/webhooks/{id}", 200, { status: "active" });
    await admin("post", `/webhooks/${hook.id}/ping`, "/webhooks/{id}/ping", 202);
    await admin("get", `/webhooks/${hook.id}/deliveries`, "/webhooks/{id}/deliveries", 200);
    await admin("delete", `/webhooks/${hook.id}`, "/webhooks/{id}", 200);
  });

  it("wp/v2 media and users, application passwords included", async () => {
    const cal = await seedCalendar();
    const { wp } = await conformance();
    const author = await seedUser("author");
    const media = await wp("post", "/media", "Media", 201, {
      headers: author.headers,
      json: { source_url: "https://cdn.example.com/photos/Doc.jpg", width: 10, height: 10 },
    });
    await wp("get", `/media/${media.id}`, "Media", 200);
    expect(cal.full.id).toBeGreaterThan(0);
    await wp("get", "/users", "User", 200, { headers: ADMIN }, true);
    await wp("get", "/users/me", "User", 200, { headers: author.headers });
    await wp("get", `/users/${author.id}`, "User", 200, { headers: ADMIN });
    const created = await wp("post", "/users", "User", 201, {
      headers: ADMIN,
      json: {
        username: "docs",
        email: "docs@example.com",
        password: "secret-secret",
        roles: ["author"],
      },
    });
    await wp("post", `/users/${created.id}`, "User", 200, {
      headers: ADMIN,
      json: { name: "Docs" },
    });
    const path = `/users/${author.id}/application-passwords`;
    const pw = await wp("post", path, "NewApplicationPassword", 201, {
      headers: author.headers,
      json: { name: "docs" },
    });
    await wp("get", path, "ApplicationPassword", 200, { headers: author.headers }, true);
    await wp("get", `${path}/${pw.uuid}`, "ApplicationPassword", 200, { headers: author.headers });
    await wp("delete", `${path}/${pw.uuid}`, "DeletedApplicationPassword", 200, {
      headers: author.headers,
    });
    await wp("delete", `/users/${created.id}?force=true&reassign=1`, "DeletedUser", 200, {
      headers: ADMIN,
    });
    // wp/v2 errors carry the same envelope.
    await wp("get", "/users", "Error", 401);
    await wp("get", "/media/99999", "Error", 404);
  });

  it("errors: the WordPress envelope for 400, 401, 403, 404, 410", async () => {
    const cal = await seedCalendar();
    const { route } = await conformance();
    await route("get", "/events?page=0", "/events", 400);
    await route("get", "/events?per_page=1&page=99", "/events", 404);
    await route("post", "/events", "/events", 400, { headers: ADMIN, json: { title: "x" } });
    await route("post", "/events", "/events", 400, {
      headers: { ...ADMIN, "content-type": "application/json" },
      body: "{",
    });
    await route("post", "/events", "/events", 401, {
      json: { title: "x", start_date: day(5), end_date: day(5, "11:00:00") },
    });
    const author = await seedUser("subscriber");
    await route("post", "/venues", "/venues", 403, {
      headers: author.headers,
      json: { venue: "x" },
    });
    await route("get", `/events/${cal.protectedEvent}`, "/events/{id}", 403);
    await route("get", "/events/99999", "/events/{id}", 404);
    await route("get", "/venues/99999", "/venues/{id}", 400);
    const exists = await route("post", "/tags", "/tags", 400, {
      headers: ADMIN,
      json: { name: "Outdoor" },
    });
    expect(exists.data.term_id).toBe(cal.tag);
    const organizer = await route("post", "/organizers", "/organizers", 201, {
      headers: ADMIN,
      json: { organizer: "Gone" },
    });
    await route("delete", `/organizers/${organizer.id}`, "/organizers/{id}", 200, {
      headers: ADMIN,
    });
    await route("delete", `/organizers/${organizer.id}`, "/organizers/{id}", 410, {
      headers: ADMIN,
    });
    await route("get", "/webhooks/99999", "/webhooks/{id}", 404, { headers: ADMIN });
  });
});
