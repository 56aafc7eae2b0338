/**
 * Archive totals remembered per content version (src/http/totals.ts, issue 7): a client walking the
 * pages of one archive is counted once, and no write leaves a stale total behind.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { forgetVersion } from "../../src/http/content-version";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedVenue } from "../support/factories";

/** Changes rows behind the API's back, without bumping the content version. */
const unversioned = (statement: string) => env.DB.prepare(statement).run();
/** A write elsewhere: the version moves, and this isolate reads it again (its TTL has passed). */
const bump = async () => {
  await env.DB.prepare("UPDATE content_version SET version = version + 1 WHERE id = 1").run();
  forgetVersion();
};

describe("archive totals within one content version", () => {
  it("counts an anonymous archive once per version: later pages reuse the total, a new version recounts", async () => {
    for (const n of [1, 2, 3]) await seedEvent({ title: `Talk ${n}`, start: day(n) });
    const first = await api(`${NS}/events?per_page=1`);
    expect(first.headers.get("x-wp-total")).toBe("3");
    expect(first.headers.get("x-wp-totalpages")).toBe("3");

    // Same version, same filter, another page: the remembered total, not a new count.
    await unversioned("UPDATE events SET hide_from_listings = 1 WHERE title = 'Talk 1'");
    const second = await api(`${NS}/events?per_page=1&page=2`);
    expect(second.body.total).toBe(3);
    expect(second.body.events.map((e: any) => e.title)).toEqual(["Talk 3"]);

    // Another filter is another count.
    expect((await api(`${NS}/events?per_page=1&search=talk`)).body.total).toBe(2);
    // Authenticated callers never use the remembered totals.
    expect((await api(`${NS}/events?per_page=1&page=2`, { headers: ADMIN })).body.total).toBe(2);

    await bump();
    const recounted = await api(`${NS}/events?per_page=1&page=2`);
    expect(recounted.body.total).toBe(2);
    expect(recounted.headers.get("x-wp-totalpages")).toBe("2");
  });

  it("shows every write through the API in the very next anonymous total", async () => {
    await seedEvent({ title: "Existing", start: day(1) });
    expect((await api(`${NS}/events`)).body.total).toBe(1);
    const created = await api(`${NS}/events`, {
      json: { title: "New", start_date: day(2), end_date: day(2, "11:00:00") },
      headers: ADMIN,
    });
    expect(created.status).toBe(201);
    expect((await api(`${NS}/events?page=1`)).body.total).toBe(2);
    await api(`${NS}/events/${created.body.id}`, { method: "DELETE", headers: ADMIN });
    expect((await api(`${NS}/events?page=1&per_page=10`)).body.total).toBe(1);
  });

  it("does the same for venue archives", async () => {
    await seedVenue({ title: "Hall A" });
    await seedVenue({ title: "Hall B" });
    expect((await api(`${NS}/venues?per_page=1`)).body.total).toBe(2);
    await unversioned("UPDATE venues SET title = title");
    expect((await api(`${NS}/venues?per_page=1&page=2`)).body.total).toBe(2);
    const added = await api(`${NS}/venues`, { json: { venue: "Hall C" }, headers: ADMIN });
    expect(added.status).toBe(201);
    const after = await api(`${NS}/venues?per_page=1&page=3`);
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(3);
  });
});
