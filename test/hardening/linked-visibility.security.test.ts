/**
 * Linked posts obey the viewer's rights everywhere. A published event that links
 * a private venue or a draft organizer shows them only to viewers who could GET them; and nobody can
 * link a venue or organizer they may not read (or a trashed one) to their own event.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedOrganizer, seedUser, seedVenue } from "../support/factories";

async function world() {
  const author = await seedUser("author");
  const contributor = await seedUser("contributor");
  const editor = await seedUser("editor");
  const hidden = await seedVenue({
    title: "Secret Bunker",
    status: "private",
    address: "1 Hidden Way",
    phone: "555-0101",
  });
  const draftOrganizer = await seedOrganizer({
    title: "Unannounced Org",
    status: "draft",
    email: "secret@example.com",
  });
  const shown = await seedOrganizer({ title: "Public Org" });
  const event = await seedEvent({
    title: "Open Night",
    start: day(3),
    venueId: hidden,
    organizerIds: [draftOrganizer, shown],
  });
  return { author, contributor, editor, hidden, draftOrganizer, shown, event };
}

const SECRETS = /Secret Bunker|Hidden Way|555-0101|Unannounced Org|secret@example\.com/;

describe("hidden venues and organizers never leak through a public event", () => {
  it("single GET, json_ld, lists, include and the feed show no venue and leave the draft organizer out", async () => {
    const w = await world();
    const single = await api(`${NS}/events/${w.event}`);
    expect(single.status).toBe(200);
    expect(single.body.venue).toEqual([]);
    expect(single.body.organizer.map((o: any) => o.id)).toEqual([w.shown]);
    expect(single.body.json_ld.location).toBeUndefined();
    // JSON-LD names the first organizer the viewer may see.
    expect(single.body.json_ld.organizer.name).toBe("Public Org");
    expect(single.text).not.toMatch(SECRETS);

    for (const path of [
      `${NS}/events`,
      `${NS}/events?include=${w.event}`,
      `${NS}/events/by-slug/open-night`,
    ]) {
      const res = await api(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toMatch(SECRETS);
      expect(res.text, path).toContain("Public Org");
    }
    const feed = await api(`${NS}/events.ics`);
    expect(feed.status).toBe(200);
    expect(feed.text).toContain("Open Night");
    expect(feed.text).not.toMatch(SECRETS);
  });

  it("subscribers and other users' authors see what anonymous visitors see; editors see everything", async () => {
    const w = await world();
    const subscriber = await seedUser("subscriber");
    for (const headers of [subscriber.headers, w.author.headers, w.contributor.headers]) {
      const res = await api(`${NS}/events/${w.event}`, { headers });
      expect(res.body.venue).toEqual([]);
      expect(res.text).not.toMatch(SECRETS);
    }
    const editor = await api(`${NS}/events/${w.event}`, { headers: w.editor.headers });
    expect(editor.body.venue.id).toBe(w.hidden);
    expect(editor.body.organizer.map((o: any) => o.id)).toEqual([w.draftOrganizer, w.shown]);
  });

  it("the author of a draft organizer sees it in the events that link it", async () => {
    const author = await seedUser("author");
    const own = await seedOrganizer({ title: "My Draft Org", status: "draft", author: author.id });
    const event = await seedEvent({ title: "E", start: day(2), organizerIds: [own] });
    const mine = await api(`${NS}/events/${event}`, { headers: author.headers });
    expect(mine.body.organizer.map((o: any) => o.id)).toEqual([own]);
    expect((await api(`${NS}/events/${event}`)).body.organizer).toEqual([]);
  });

  it("refuses to link someone else's private or draft venue/organizer, or a trashed one: 400 naming it, nothing written", async () => {
    const w = await world();
    const trashed = await seedVenue({ title: "Gone Hall", status: "trash" });
    const attempts: Array<[Record<string, string>, Record<string, unknown>, string]> = [
      [w.author.headers, { venue: w.hidden }, "venue"],
      [w.author.headers, { venue: { id: w.hidden } }, "venue"],
      [w.contributor.headers, { organizer: [w.draftOrganizer] }, "organizer"],
      [w.contributor.headers, { organizer: `${w.shown},${w.draftOrganizer}` }, "organizer"],
      [ADMIN, { venue: trashed }, "venue"],
    ];
    for (const [headers, link, name] of attempts) {
      const res = await api(`${NS}/events`, {
        json: { title: "Mine", start_date: day(4), end_date: day(4, "11:00:00"), ...link },
        headers,
      });
      expect(res.status, JSON.stringify(link)).toBe(400);
      expect(res.body.code).toBe("rest_invalid_param");
      expect(Object.keys(res.body.data.params)).toEqual([name]);
    }
    const list = await api(`${NS}/events?status=publish,draft,pending`, { headers: ADMIN });
    expect(list.body.events.map((e: any) => e.title)).toEqual(["Open Night"]);
    // An update is refused the same way and changes nothing.
    const own = await api(`${NS}/events`, {
      json: { title: "Own", start_date: day(5), end_date: day(5, "11:00:00") },
      headers: w.author.headers,
    });
    const update = await api(`${NS}/events/${own.body.id}`, {
      method: "PATCH",
      json: { title: "Changed", venue: w.hidden },
      headers: w.author.headers,
    });
    expect(update.status).toBe(400);
    expect((await api(`${NS}/events/${own.body.id}`)).body.title).toBe("Own");
  });

  it("lets editors link any non-trashed venue, and authors their own drafts and published ones", async () => {
    const w = await world();
    const ownDraft = await seedVenue({ title: "Own Draft", status: "draft", author: w.author.id });
    const published = await seedVenue({ title: "Town Hall" });
    const mine = await api(`${NS}/events`, {
      json: {
        title: "Mine",
        start_date: day(4),
        end_date: day(4, "11:00:00"),
        venue: ownDraft,
        organizer: [w.shown],
      },
      headers: w.author.headers,
    });
    expect(mine.status).toBe(201);
    expect(mine.body.venue.id).toBe(ownDraft);
    const other = await api(`${NS}/events`, {
      json: { title: "Other", start_date: day(4), end_date: day(4, "11:00:00"), venue: published },
      headers: w.contributor.headers,
    });
    expect(other.status).toBe(201);
    const byEditor = await api(`${NS}/events`, {
      json: { title: "Ed", start_date: day(4), end_date: day(4, "11:00:00"), venue: w.hidden },
      headers: w.editor.headers,
    });
    expect(byEditor.status).toBe(201);
    expect(byEditor.body.venue.id).toBe(w.hidden);
    // Anonymous readers of that published event still see no venue.
    expect((await api(`${NS}/events/${byEditor.body.id}`)).body.venue).toEqual([]);
  });
});
