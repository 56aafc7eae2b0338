import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedOrganizer, seedTerm, seedUser, seedVenue } from "../support/factories";

async function world() {
  const author = await seedUser("author");
  const contributor = await seedUser("contributor");
  const editor = await seedUser("editor");
  const subscriber = await seedUser("subscriber");
  const published = await seedEvent({ title: "Published", start: day(1) });
  const draft = await seedEvent({
    title: "Someone's draft",
    start: day(2),
    status: "draft",
    author: author.id,
  });
  const own = await seedEvent({
    title: "Contributor's pending",
    start: day(3),
    status: "pending",
    author: contributor.id,
  });
  const priv = await seedEvent({
    title: "Private",
    start: day(4),
    status: "private",
    author: author.id,
  });
  const trashed = await seedEvent({ title: "Trashed", start: day(5), status: "trash" });
  return { author, contributor, editor, subscriber, published, draft, own, priv, trashed };
}

const ids = async (path: string, headers: Record<string, string> = {}) =>
  (await api(path, { headers })).body.events?.map((e: any) => e.id);

describe("event visibility by role (§6.1, §4.7, §9.2)", () => {
  it("lists only published events to anonymous visitors and subscribers", async () => {
    const w = await world();
    expect(await ids(`${NS}/events`)).toEqual([w.published]);
    expect(await ids(`${NS}/events`, w.subscriber.headers)).toEqual([w.published]);
  });

  it("refuses status lists beyond publish to users who cannot edit events", async () => {
    const w = await world();
    for (const headers of [{}, w.subscriber.headers]) {
      const res = await api(`${NS}/events?status=draft`, { headers });
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty("status");
    }
    expect((await api(`${NS}/events?status=publish`)).status).toBe(200);
  });

  it("shows editors every status except trash, and trash when asked", async () => {
    const w = await world();
    expect(await ids(`${NS}/events`, w.editor.headers)).toEqual([
      w.published,
      w.draft,
      w.own,
      w.priv,
    ]);
    // The echoed status list is one the server accepts back: next_rest_url must work for editors.
    const first = await api(`${NS}/events?per_page=2`, { headers: w.editor.headers });
    const next = new URL(first.body.next_rest_url);
    expect(next.searchParams.get("status")).toBe("publish,future,draft,pending,private");
    expect(
      (await api(next.pathname + next.search, { headers: w.editor.headers })).body.events.map(
        (e: any) => e.id,
      ),
    ).toEqual([w.own, w.priv]);
    expect(await ids(`${NS}/events?status=trash`, ADMIN)).toEqual([w.trashed]);
  });

  it("shows authors and contributors their own unpublished events, never other people's", async () => {
    const w = await world();
    expect(await ids(`${NS}/events`, w.contributor.headers)).toEqual([w.published, w.own]);
    expect(await ids(`${NS}/events?status=draft,private`, w.contributor.headers)).toEqual([]);
    expect(await ids(`${NS}/events`, w.author.headers)).toEqual([w.published, w.draft, w.priv]);
  });

  it("guards single drafts and private events: 403 event-not-accessible except for the author and editors", async () => {
    const w = await world();
    for (const headers of [{}, w.subscriber.headers, w.contributor.headers]) {
      const res = await api(`${NS}/events/${w.draft}`, { headers });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("event-not-accessible");
      expect((await api(`${NS}/events/by-slug/someone-s-draft`, { headers })).body.code).toBe(
        "event-not-accessible",
      );
    }
    expect((await api(`${NS}/events/${w.draft}`, { headers: w.author.headers })).status).toBe(200);
    expect((await api(`${NS}/events/${w.priv}`, { headers: w.editor.headers })).status).toBe(200);
    expect((await api(`${NS}/events/${w.own}`, { headers: w.contributor.headers })).status).toBe(
      200,
    );
    expect((await api(`${NS}/events/${w.priv}`, { headers: w.contributor.headers })).status).toBe(
      403,
    );
  });

  it("blanks protected fields of password-protected events in lists, venue and organizer names kept (contract §4 row 18)", async () => {
    const venue = await seedVenue({ title: "Secret Hall", city: "Hidden City" });
    const org = await seedOrganizer({ title: "Secret Org", email: "s@example.com" });
    const cat = await seedTerm("tribe_events_cat", "Secret Cat");
    await seedEvent({
      title: "Protected",
      content: "Secret text",
      excerpt: "Secret excerpt",
      start: day(1),
      password: "pw",
      venueId: venue,
      organizerIds: [org],
      termIds: [cat],
      cost: ["25"],
      featured: true,
      website: "https://secret.example.com",
    });
    const [e] = (await api(`${NS}/events`)).body.events;
    expect(e).toMatchObject({
      title: "Protected",
      description: "",
      excerpt: "",
      cost: "",
      cost_details: { currency_symbol: "", currency_position: "", currency_code: "", values: [] },
      website: "",
      image: false,
      all_day: null,
      featured: null,
      show_map: null,
      categories: [],
      tags: [],
      venue: { id: venue, venue: "Secret Hall", city: "", show_map: null },
      organizer: [{ id: org, organizer: "Secret Org", email: "" }],
      custom_fields: [],
    });
    expect(JSON.stringify(e)).not.toMatch(/Secret text|Hidden City|s@example.com|Secret Cat/);
    // The same in German (links carry the language prefix).
    const german = (await api(`/de${NS}/events`)).body.events[0];
    expect(german.venue).toMatchObject({ venue: "Secret Hall", city: "" });
    expect(german.organizer).toMatchObject([{ organizer: "Secret Org", email: "" }]);
    // The list shows what a single read of the venue and the organizer shows: names, nothing else.
    const single = (await api(`${NS}/events/${e.id}?password=pw`)).body;
    expect(single.venue.venue).toBe(e.venue.venue);
    expect(single.organizer[0].organizer).toBe(e.organizer[0].organizer);
    const opened = (await api(`${NS}/events?password=pw`)).body.events[0];
    expect(opened.description).toBe("<p>Secret text</p>");
    expect(opened.venue.venue).toBe("Secret Hall");
    const edit = (await api(`${NS}/events?context=edit`, { headers: ADMIN })).body.events[0];
    expect(edit.cost).toBe("$25");
  });

  it("never lets a request parameter point an operation at another post", async () => {
    const w = await world();
    const res = await api(`${NS}/events/${w.published}?id=${w.draft}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(w.published);
  });
});

describe("authentication (contract §3)", () => {
  it("401 incorrect_password for a wrong password or an unknown user, the same message", async () => {
    const bad = [
      `Basic ${btoa("admin:wrong")}`,
      `Basic ${btoa("nobody:test admin password")}`,
      "Bearer nope",
      "Basic !!notbase64",
    ];
    const bodies = [];
    for (const authorization of bad) {
      const res = await api(`${NS}/events`, { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      bodies.push(res.body);
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]).toEqual({
      code: "incorrect_password",
      message: "The provided password is an invalid application password.",
      data: { status: 401 },
    });
  });

  it("accepts application passwords as Basic (spaces ignored) and Bearer, and marks answers private", async () => {
    const res = await api(`${NS}/events`, {
      headers: { authorization: `Basic ${btoa("admin:test admin pass word")}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("private");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(
      (await api(`${NS}/events`, { headers: { authorization: "Bearer testadminpassword" } }))
        .status,
    ).toBe(200);
    const anon = await api(`${NS}/events`);
    expect(anon.headers.get("cache-control")).toBe(
      "public, max-age=60, stale-while-revalidate=300",
    );
  });
});
