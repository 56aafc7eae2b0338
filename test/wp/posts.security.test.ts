/**
 * What `wp/v2/tribe_events` and the `wp/v2` terms never show (contract §3, §4; §4.7, §9.2): drafts,
 * pending, private and trashed events of others, and the protected fields of password-protected
 * events without their password — not in the answer, not through a filter, not through `_embed`.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { ADMIN, api } from "../support/api";
import { day } from "../support/dates";
import { db, seedEvent, seedMedia, seedTerm, seedUser } from "../support/factories";

const WP = "/wp-json/wp/v2";
const ids = (body: Array<{ id: number }>) => body.map((p) => p.id).sort((a, b) => a - b);

describe("wp/v2/tribe_events: visibility", () => {
  it("lists published events to everyone; other statuses only for writers, and only those they may read", async () => {
    const author = await seedUser("author", "alice");
    const other = await seedUser("author", "bob");
    const subscriber = await seedUser("subscriber");
    const published = await seedEvent({ title: "Open", start: day(2) });
    const aliceDraft = await seedEvent({
      title: "A draft",
      start: day(2),
      status: "draft",
      author: author.id,
    });
    const bobDraft = await seedEvent({
      title: "B draft",
      start: day(2),
      status: "draft",
      author: other.id,
    });
    const privateOne = await seedEvent({
      title: "Private",
      start: day(2),
      status: "private",
      author: other.id,
    });
    const trashed = await seedEvent({ title: "Trashed", start: day(2), status: "trash" });

    expect(ids((await api(`${WP}/tribe_events`)).body)).toEqual([published]);
    expect(ids((await api(`${WP}/tribe_events`, { headers: ADMIN })).body)).toEqual([published]);
    const anonymous = await api(`${WP}/tribe_events?status=draft`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({
      code: "rest_forbidden_status",
      message: "Status is forbidden.",
    });
    expect(
      (await api(`${WP}/tribe_events?status=any`, { headers: subscriber.headers })).status,
    ).toBe(403);
    const mine = await api(`${WP}/tribe_events?status=draft,private,publish`, {
      headers: author.headers,
    });
    expect(ids(mine.body)).toEqual([published, aliceDraft]);
    expect(mine.headers.get("x-wp-total")).toBe("2");
    const all = await api(`${WP}/tribe_events?status=any`, { headers: ADMIN });
    expect(ids(all.body)).toEqual([published, aliceDraft, bobDraft, privateOne]);
    expect(ids((await api(`${WP}/tribe_events?status=trash`, { headers: ADMIN })).body)).toEqual([
      trashed,
    ]);
    expect((await api(`${WP}/tribe_events?status=nope`, { headers: ADMIN })).status).toBe(400);

    for (const id of [bobDraft, privateOne, trashed]) {
      const single = await api(`${WP}/tribe_events/${id}`);
      expect(single.status).toBe(401);
      expect(single.body.code).toBe("rest_forbidden");
      expect((await api(`${WP}/tribe_events/${id}`, { headers: author.headers })).status).toBe(403);
      expect((await api(`${WP}/tribe_events/${id}`, { headers: ADMIN })).status).toBe(200);
    }
    expect(
      (await api(`${WP}/tribe_events/${aliceDraft}`, { headers: author.headers })).status,
    ).toBe(200);
    // Filters do not reach around it.
    expect((await api(`${WP}/tribe_events?include=${bobDraft}&slug=b-draft`)).body).toEqual([]);
  });

  it("blanks a protected event for whoever may not open it, everywhere", async () => {
    const tag = await seedTerm("post_tag", "Secret");
    const image = await seedMedia("https://images.test/hidden.jpg");
    const locked = await seedEvent({
      title: "Locked",
      start: day(2),
      content: "The hidden plan.",
      excerpt: "Hidden.",
      password: "sesame",
      termIds: [tag],
    });
    await db().update(schema.events).set({ imageId: image }).where(eq(schema.events.id, locked));
    const shut = {
      content: { rendered: "", protected: true },
      excerpt: { rendered: "", protected: true },
      featured_media: 0,
      tribe_events_cat: [],
      tags: [],
    };
    const listed = await api(`${WP}/tribe_events?_embed`);
    expect(listed.body[0]).toMatchObject({ id: locked, title: { rendered: "Locked" }, ...shut });
    expect(listed.body[0]._links["wp:featuredmedia"]).toBeUndefined();
    expect(listed.body[0]._embedded).toBeUndefined();
    expect(listed.text).not.toContain("hidden");
    const single = await api(`${WP}/tribe_events/${locked}`);
    expect(single.body).toMatchObject(shut);
    // Filters and search see nothing it hides.
    expect((await api(`${WP}/tribe_events?tags=${tag}`)).body).toEqual([]);
    expect((await api(`${WP}/tribe_events?tags_exclude=${tag}`)).body).toEqual([]);
    expect((await api(`${WP}/tribe_events?search=plan`)).body).toEqual([]);
    expect((await api(`${WP}/tags?post=${locked}`)).body).toEqual([]);

    // Its password opens it; a wrong one is WordPress's 403.
    const open = await api(`${WP}/tribe_events/${locked}?password=sesame&_embed`);
    expect(open.body).toMatchObject({
      content: { rendered: "<p>The hidden plan.</p>", protected: true },
      featured_media: image,
      tags: [tag],
    });
    expect(open.body._embedded["wp:featuredmedia"]).toHaveLength(1);
    const wrong = await api(`${WP}/tribe_events/${locked}?password=nope`);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({
      code: "rest_post_incorrect_password",
      message: "Incorrect post password.",
    });
    // In the view context a protected post needs its password whoever asks, as in WordPress.
    const editor = await api(`${WP}/tribe_events?_embed`, { headers: ADMIN });
    expect(editor.body[0]).toMatchObject({ id: locked, ...shut });
    expect((await api(`${WP}/tribe_events?tags=${tag}`, { headers: ADMIN })).body).toEqual([]);
    expect((await api(`${WP}/tags?post=${locked}`, { headers: ADMIN })).body).toEqual([]);
    // Search as WordPress searches: its editors find it by its content, anonymous readers do not.
    expect(ids((await api(`${WP}/tribe_events?search=plan`, { headers: ADMIN })).body)).toEqual([
      locked,
    ]);
    // Nothing of the opened answer is kept for the next anonymous reader.
    expect((await api(`${WP}/tribe_events/${locked}`)).body.content.rendered).toBe("");
  });
});
