/**
 * One normalized query for the edge cache and the handler; a public content
 * version that moves only with what anonymous readers can see; trash as one code path; bodies
 * (invalid UTF-8, NUL) and an update that changes nothing; CORS without credentials mode.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedUser, seedVenue } from "../support/factories";
import { call, ORIGIN } from "./support/client";

/** The content version (moved by triggers in every write's transaction). */
const versions = async () =>
  (await env.DB.prepare("SELECT version FROM content_version WHERE id = 1").first<{
    version: number;
  }>())!;

describe("one normalized query feeds the cache key, the ETag and the handler", () => {
  it("repeated parameters: the last one wins everywhere, whatever the order", async () => {
    for (const i of [1, 2, 3]) await seedEvent({ title: `E${i}`, start: day(i) });
    const a = await api(`${NS}/events?per_page=1&page=2&page=1`);
    const b = await api(`${NS}/events?per_page=1&page=1&page=2`);
    expect(a.body.events[0].title).toBe("E1");
    expect(b.body.events[0].title).toBe("E2");
    expect(b.headers.get("x-cache")).toBe("MISS");
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    // The same meaning in another order is the same entry.
    const c = await api(`${NS}/events?page=2&per_page=1`);
    expect(c.headers.get("x-cache")).toBe("HIT");
    expect(c.headers.get("etag")).toBe(b.headers.get("etag"));
  });
});

describe("the public content version", () => {
  it("moves with public changes only: drafts, application passwords and no-op updates leave anonymous tags alone", async () => {
    const author = await seedUser("author");
    const id = await seedEvent({ title: "Public", start: day(2) });
    const etag = (await api(`${NS}/events`)).headers.get("etag")!;
    const start = await versions();

    const draft = await api(`${NS}/events`, {
      json: {
        title: "Secret plan",
        status: "draft",
        start_date: day(3),
        end_date: day(3, "11:00:00"),
      },
      headers: author.headers,
    });
    expect(draft.status).toBe(201);
    await api(`${NS}/events/${draft.body.id}`, {
      method: "PATCH",
      json: { title: "Still secret" },
      headers: author.headers,
    });
    await call(
      new Request(`${ORIGIN}/wp-json/wp/v2/users/${author.id}/application-passwords`, {
        method: "POST",
        headers: { ...ADMIN, "content-type": "application/json" },
        body: JSON.stringify({ name: "laptop" }),
      }),
    );
    const noop = await api(`${NS}/events/${id}`, {
      method: "PATCH",
      json: { title: "Public" },
      headers: ADMIN,
    });
    expect(noop.status).toBe(200);
    const after = await versions();
    expect(after.version).toBe(start.version);
    expect((await api(`${NS}/events`, { headers: { "if-none-match": etag } })).status).toBe(304);

    // Publishing the draft is public.
    await api(`${NS}/events/${draft.body.id}`, {
      method: "PATCH",
      json: { status: "publish" },
      headers: ADMIN,
    });
    expect((await versions()).version).toBeGreaterThan(start.version);
    expect((await api(`${NS}/events`, { headers: { "if-none-match": etag } })).status).toBe(200);
  });
});

describe("an update that changes nothing", () => {
  it("keeps modified and the versions, for events, venues and organizers, and bodies it cannot read", async () => {
    const venue = await seedVenue({ title: "Hall", city: "Springfield" });
    const id = await seedEvent({ title: "Same", start: day(2), venueId: venue });
    const before = (await api(`${NS}/events/${id}`)).body;
    const start = await versions();
    const same = await api(`${NS}/events/${id}`, {
      method: "PUT",
      json: { title: "Same", venue, start_date: before.start_date, end_date: before.end_date },
      headers: ADMIN,
    });
    expect(same.status).toBe(200);
    expect(same.body.modified_utc).toBe(before.modified_utc);
    const xml = await api(`${NS}/events/${id}`, {
      method: "PUT",
      body: "<event><title>x</title></event>",
      headers: { ...ADMIN, "content-type": "application/xml" },
    });
    expect(xml.status).toBe(200);
    expect(xml.body.modified_utc).toBe(before.modified_utc);
    const venueSame = await api(`${NS}/venues/${venue}`, {
      method: "PATCH",
      json: { city: "Springfield" },
      headers: ADMIN,
    });
    expect(venueSame.status).toBe(200);
    expect(await versions()).toEqual(start);
  });
});

describe("trash is one code path", () => {
  it("PUT status trash does what DELETE does: /deleted lists it, the owner cannot edit it back", async () => {
    const contributor = await seedUser("contributor");
    const id = await seedEvent({
      title: "Owned",
      start: day(2),
      author: contributor.id,
      status: "publish",
    });
    const since = "2000-01-01T00:00:00Z";
    const trashed = await api(`${NS}/events/${id}`, {
      method: "PUT",
      json: { status: "trash" },
      headers: ADMIN,
    });
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe("trash");
    const deleted = await api(`${NS}/deleted?modified_after=${since}`);
    expect(deleted.body.deleted).toEqual([
      expect.objectContaining({ id, type: "event", status: "trash" }),
    ]);
    // Trashed while published: its contributor may no longer edit it (WordPress map_meta_cap).
    const edit = await api(`${NS}/events/${id}`, {
      method: "PATCH",
      json: { status: "draft" },
      headers: contributor.headers,
    });
    expect(edit.status).toBe(403);
    expect((await api(`${NS}/events/${id}`, { method: "DELETE", headers: ADMIN })).status).toBe(
      410,
    );
  });

  it("needs the rights DELETE needs, and is not a way to create", async () => {
    const author = await seedUser("author");
    const other = await seedEvent({ title: "Not mine", start: day(2) });
    const editor = await seedUser("editor");
    const res = await api(`${NS}/events/${other}`, {
      method: "PATCH",
      json: { status: "trash" },
      headers: author.headers,
    });
    expect(res.status).toBe(403);
    const create = await api(`${NS}/events`, {
      json: { title: "x", status: "trash", start_date: day(1), end_date: day(1, "11:00:00") },
      headers: editor.headers,
    });
    expect(create.status).toBe(400);
    expect(Object.keys(create.body.data.params)).toEqual(["status"]);
    for (const plural of ["venues", "organizers"]) {
      const kind = plural.slice(0, -1);
      const refused = await api(`${NS}/${plural}`, {
        json: { [kind]: "x", status: "trash" },
        headers: ADMIN,
      });
      expect(refused.status).toBe(400);
    }
  });
});

describe("bodies and CORS", () => {
  const raw = (body: Uint8Array, type = "application/json") =>
    call(
      new Request(`${ORIGIN}${NS}/venues`, {
        method: "POST",
        headers: { ...ADMIN, "content-type": type },
        body,
      }),
    );

  it("invalid UTF-8 in a JSON body is 400 rest_invalid_json; in a form body 400; nothing stored", async () => {
    const bad = new Uint8Array([...new TextEncoder().encode('{"venue":"Caf'), 0xe9, 0x22, 0x7d]);
    const json = await raw(bad);
    expect(json.status).toBe(400);
    expect(json.body.code).toBe("rest_invalid_json");
    expect(json.body.data.json_error_code).toBe(5);
    const form = await raw(
      new Uint8Array([...new TextEncoder().encode("venue=Caf"), 0xe9]),
      "application/x-www-form-urlencoded",
    );
    expect(form.status).toBe(400);
    expect((await api(`${NS}/venues`, { headers: ADMIN })).body.total).toBe(0);
  });

  it("NUL characters are refused in every text field of a write, naming the field", async () => {
    const res = await api(`${NS}/venues`, {
      json: { venue: "Hall\u0000", city: "x\u0000y", zip: "1" },
      headers: ADMIN,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params).sort()).toEqual(["city", "venue"]);
    const nested = await api(`${NS}/events`, {
      json: {
        title: "E",
        start_date: day(1),
        end_date: day(1, "11:00:00"),
        venue: { venue: "\u0000" },
      },
      headers: ADMIN,
    });
    expect(nested.status).toBe(400);
    expect(Object.keys(nested.body.data.params)).toEqual(["venue"]);
  });

  it("no credentials mode, and no writes from the opaque null origin", async () => {
    const preflight = await api(`${NS}/events`, {
      method: "OPTIONS",
      headers: { origin: "null", "access-control-request-method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    expect(preflight.headers.get("access-control-allow-methods")).toBe("OPTIONS, GET, HEAD");
    const write = await api(`${NS}/venues`, {
      json: { venue: "From a sandbox" },
      headers: { ...ADMIN, origin: "null" },
    });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe("rest_forbidden");
    const read = await api(`${NS}/events`, { headers: { origin: "https://site.example" } });
    expect(read.headers.get("access-control-allow-origin")).toBe("https://site.example");
    expect(read.headers.get("access-control-allow-credentials")).toBeNull();
  });
});
