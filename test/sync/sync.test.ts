/**
 * Incremental sync (contract §7): `modified_after` on every list, trashed posts with `status=trash`
 * for editors, and the deletion log `GET /deleted`.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm, seedUser, seedVenue } from "../support/factories";

const ids = (list: any[]) => list.map((x) => x.id);

describe("modified_after on category and tag lists", () => {
  it.each([
    ["categories", "tribe_events_cat"],
    ["tags", "post_tag"],
  ] as const)(
    "/%s lists only terms created or changed after the instant, and echoes it in its links",
    async (base, taxonomy) => {
      await seedTerm(taxonomy, "Old");
      const created = await api(`${NS}/${base}`, { json: { name: "New" }, headers: ADMIN });
      const old = (await api(`${NS}/${base}?hide_empty=false`)).body[base].find(
        (t: any) => t.name === "Old",
      );
      const res = await api(
        `${NS}/${base}?hide_empty=false&modified_after=2026-06-01T00:00:00Z&per_page=1`,
      );
      expect(res.status).toBe(200);
      expect(ids(res.body[base])).toEqual([created.body.id]);
      expect(res.body.total).toBe(1);
      expect(res.body.rest_url).toContain("modified_after=2026-06-01T00%3A00%3A00Z");
      // An update marks the term modified.
      await api(`${NS}/${base}/${old.id}`, {
        method: "PATCH",
        json: { description: "changed" },
        headers: ADMIN,
      });
      expect(
        (await api(`${NS}/${base}?hide_empty=false&modified_after=2026-06-01`)).body.total,
      ).toBe(2);
      const bad = await api(`${NS}/${base}?modified_after=whenever`);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.data.params)).toEqual(["modified_after"]);
    },
  );
});

describe("trashed posts for authenticated sync clients", () => {
  it("shows editors trashed events and venues with status=trash and modified_after; anonymous callers may not ask", async () => {
    const venue = await seedVenue({ title: "Old Hall" });
    const event = await seedEvent({ title: "Cancelled", start: day(2) });
    await api(`${NS}/events/${event}`, { method: "DELETE", headers: ADMIN });
    await api(`${NS}/venues/${venue}`, { method: "DELETE", headers: ADMIN });
    const events = await api(
      `${NS}/events?status=trash&modified_after=2026-06-01&start_date=2000-01-01`,
      { headers: ADMIN },
    );
    expect(events.body.events.map((e: any) => [e.id, e.status])).toEqual([[event, "trash"]]);
    const venues = await api(`${NS}/venues?status=trash&modified_after=2026-06-01`, {
      headers: ADMIN,
    });
    expect(venues.body.venues.map((v: any) => [v.id, v.status])).toEqual([[venue, "trash"]]);
    expect((await api(`${NS}/events?status=trash`)).status).toBe(400);
    expect((await api(`${NS}/venues?status=trash`)).status).toBe(400);
  });
});

describe("GET /deleted: what left the calendar", () => {
  it("lists permanent deletions of events, venues, organizers, categories and tags, oldest first", async () => {
    const event = await seedEvent({ title: "Gone", start: day(2) });
    const venue = await seedVenue({ title: "Gone Hall" });
    const category = await seedTerm("tribe_events_cat", "Gone Category");
    const tag = await seedTerm("post_tag", "gone-tag");
    await seedEvent({ title: "Stays", start: day(2) });
    expect(
      (await api(`${NS}/events/${event}?force=true`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(200);
    expect(
      (await api(`${NS}/venues/${venue}?force=true`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(200);
    expect(
      (await api(`${NS}/categories/${category}`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(200);
    expect((await api(`${NS}/tags/${tag}`, { method: "DELETE", headers: ADMIN })).status).toBe(200);
    const res = await api(`${NS}/deleted`);
    expect(res.status).toBe(200);
    expect(res.body.deleted.map((d: any) => [d.id, d.type, d.status])).toEqual(
      expect.arrayContaining([
        [event, "event", "deleted"],
        [venue, "venue", "deleted"],
        [category, "category", "deleted"],
        [tag, "tag", "deleted"],
      ]),
    );
    expect(res.body.total).toBe(4);
    expect(res.body.deleted[0].deleted_utc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // In the order the deletions were committed (their positions), which is the order made here.
    expect(ids(res.body.deleted)).toEqual([event, venue, category, tag]);
    const positions = res.body.deleted.map((d: any) => d.sync_cursor);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(res.body.sync_cursor).toBeGreaterThanOrEqual(positions[3]);
    // Filters, paging and the usual headers.
    expect(ids((await api(`${NS}/deleted?type=event,tag`)).body.deleted).sort()).toEqual(
      [event, tag].sort(),
    );
    const page = await api(`${NS}/deleted?per_page=3`);
    expect(page.body).toMatchObject({ total: 4, total_pages: 2 });
    expect(page.body.next_rest_url).toBe(
      "http://calendar.test/wp-json/tribe/events/v1/deleted/?per_page=3&page=2",
    );
    expect(page.headers.get("x-wp-total")).toBe("4");
    expect((await api(`${NS}/deleted?page=2&per_page=3`)).body.deleted).toHaveLength(1);
    expect((await api(`${NS}/deleted?modified_after=2999-01-01`)).body).toMatchObject({
      deleted: [],
      total: 0,
    });
    expect(page.headers.get("etag")).toMatch(/^"/);
  });

  it("lists trashed posts that were public to everybody, trashed drafts only to editors", async () => {
    const published = await seedEvent({ title: "Was public", start: day(2) });
    const draft = await seedEvent({ title: "Was a draft", start: day(2), status: "draft" });
    for (const id of [published, draft])
      await api(`${NS}/events/${id}`, { method: "DELETE", headers: ADMIN });
    const anonymous = (await api(`${NS}/deleted`)).body.deleted;
    expect(anonymous.map((d: any) => [d.id, d.type, d.status])).toEqual([
      [published, "event", "trash"],
    ]);
    const editor = await seedUser("editor");
    expect(
      ids((await api(`${NS}/deleted`, { headers: editor.headers })).body.deleted).sort(),
    ).toEqual([published, draft].sort());
    const author = await seedUser("author");
    expect(ids((await api(`${NS}/deleted`, { headers: author.headers })).body.deleted)).toEqual([
      published,
    ]);
    // Nothing but ids, types, times and positions.
    expect(Object.keys(anonymous[0])).toEqual([
      "id",
      "type",
      "status",
      "deleted_utc",
      "sync_cursor",
    ]);
    // Restored from the trash: gone from the log, back in the lists.
    await api(`${NS}/events/${published}`, {
      method: "PUT",
      json: { status: "publish" },
      headers: ADMIN,
    });
    expect((await api(`${NS}/deleted`)).body.deleted).toEqual([]);
  });

  it("rejects bad arguments with rest_invalid_param", async () => {
    for (const [query, param] of [
      ["type=post", "type"],
      ["type=", "type"],
      ["modified_after=whenever", "modified_after"],
      ["per_page=0", "per_page"],
      ["page=abc", "page"],
    ]) {
      const res = await api(`${NS}/deleted?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe("rest_invalid_param");
      expect(Object.keys(res.body.data.params)).toEqual([param]);
    }
  });
});

describe("modified on create follows WordPress; modified_after and /deleted follow the change time", () => {
  /** UTC `Y-m-d H:i:s` `seconds` from now. */
  const utc = (seconds: number) =>
    new Date(Date.now() + seconds * 1000).toISOString().slice(0, 19).replace("T", " ");
  const everything = "start_date=2000-01-01&end_date=2999-12-31";

  it("a new post's modified is its post date, a past one too, yet modified_after reports the create", async () => {
    const since = utc(-2);
    const event = await api(`${NS}/events`, {
      json: {
        title: "Back-dated",
        date: "2020-02-03 04:05:06",
        start_date: "2030-01-01 10:00",
        end_date: "2030-01-01 11:00",
        venue: { venue: "Past Hall", date: "2019-01-01 00:00:00" },
        organizer: [{ organizer: "Past Org", date_utc: "2019-01-02T03:04:05+02:00" }],
      },
      headers: ADMIN,
    });
    expect(event.status).toBe(201);
    expect(event.body).toMatchObject({
      date: "2020-02-03 04:05:06",
      modified: "2020-02-03 04:05:06",
      modified_utc: "2020-02-03 04:05:06",
      venue: { modified: "2019-01-01 00:00:00", modified_utc: "2019-01-01 00:00:00" },
      organizer: [{ modified_utc: "2019-01-02 01:04:05" }],
    });
    const standalone = await api(`${NS}/venues`, {
      json: { venue: "Old Barn", date_utc: "2018-05-06 07:08:09" },
      headers: ADMIN,
    });
    expect(standalone.body).toMatchObject({
      date_utc: "2018-05-06 07:08:09",
      modified_utc: "2018-05-06 07:08:09",
    });
    // Without a post date, the post date and modified are the time of the create.
    const now = await api(`${NS}/organizers`, { json: { organizer: "Fresh" }, headers: ADMIN });
    expect(now.body.modified_utc).toBe(now.body.date_utc);
    expect(now.body.date_utc >= since).toBe(true);

    const after = `modified_after=${encodeURIComponent(since.replace(" ", "T"))}Z`;
    for (const prefix of ["", "/de"]) {
      const events = await api(`${prefix}${NS}/events?${everything}&${after}`);
      expect(ids(events.body.events)).toEqual([event.body.id]);
      const venues = await api(`${prefix}${NS}/venues?${after}`);
      expect(ids(venues.body.venues).sort()).toEqual([event.body.venue.id, standalone.body.id]);
      const organizers = await api(`${prefix}${NS}/organizers?${after}`);
      expect(ids(organizers.body.organizers).sort()).toEqual([
        event.body.organizer[0].id,
        now.body.id,
      ]);
    }
    // Nothing changed after now.
    const later = `modified_after=${encodeURIComponent(utc(60).replace(" ", "T"))}Z`;
    expect((await api(`${NS}/events?${everything}&${later}`)).body.total).toBe(0);
    expect((await api(`${NS}/venues?${later}`)).body.total).toBe(0);
  });

  it("an update's modified is now; trashing a back-dated post is in /deleted after the instant", async () => {
    const created = await api(`${NS}/events`, {
      json: {
        title: "Old news",
        date_utc: "2021-01-01 00:00:00",
        start_date: "2030-01-01 10:00",
        end_date: "2030-01-01 11:00",
      },
      headers: ADMIN,
    });
    const venue = await api(`${NS}/venues`, {
      json: { venue: "Old Hall", date_utc: "2021-01-01 00:00:00" },
      headers: ADMIN,
    });
    const since = utc(-2);
    const patched = await api(`${NS}/events/${created.body.id}`, {
      method: "PATCH",
      json: { title: "New news" },
      headers: ADMIN,
    });
    expect(patched.body.date_utc).toBe("2021-01-01 00:00:00");
    expect(patched.body.modified_utc >= since).toBe(true);
    // An update that changes nothing moves neither `modified` nor the change time.
    const same = await api(`${NS}/events/${created.body.id}`, {
      method: "PATCH",
      json: { title: "New news" },
      headers: ADMIN,
    });
    expect(same.body.modified_utc).toBe(patched.body.modified_utc);

    const trashed = await api(`${NS}/venues/${venue.body.id}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(trashed.body.modified_utc >= since).toBe(true);
    const log = await api(`/de${NS}/deleted?modified_after=${encodeURIComponent(since)}`);
    expect(log.body.deleted).toEqual([
      {
        id: venue.body.id,
        type: "venue",
        status: "trash",
        deleted_utc: trashed.body.modified_utc,
        sync_cursor: expect.any(Number),
      },
    ]);
  });
});
