/**
 * Filters reveal nothing the answer hides (src/events/filter-visibility.ts; §6.3, §4.7). A venue or
 * organizer the viewer may not read — draft, pending, private, trashed, scheduled — is, in every
 * filter of `/events` and `/events.ics`, a post that does not exist: `venue=`/`organizer=` answer
 * what an unknown id answers, and `geoloc`, `geoloc_lat`/`geoloc_lng` do not find the event by
 * it. A filter on a field the answer blanks (a password-protected event's categories, tags,
 * `featured`, its venue's coordinates; a protected venue's coordinates) matches only when the
 * answer shows the field: the request's `password` opens the post, or one who may edit it asks
 * with `context=edit`. Each case: anonymous readers and subscribers, who may not read those posts,
 * and editors and administrators, who may; the list, its `total` and `X-WP-Total`, and the feed.
 */
import { describe, expect, it } from "vitest";
import { parse } from "../ical/support";
import { createEvent, WINDOW } from "../series/support";
import { ADMIN, api, NS, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedOrganizer, seedTerm, seedUser, seedVenue } from "../support/factories";

const HIDDEN = ["draft", "pending", "private", "trash", "future"] as const;
const NOWHERE = 999999;

interface Viewer {
  name: string;
  headers: Record<string, string>;
  /** May read non-public venues and organizers (editors, administrators). */
  reads: boolean;
}

async function viewers(): Promise<Viewer[]> {
  const subscriber = await seedUser("subscriber");
  const editor = await seedUser("editor");
  return [
    { name: "anonymous", headers: {}, reads: false },
    { name: "subscriber", headers: subscriber.headers, reads: false },
    { name: "editor", headers: editor.headers, reads: true },
    { name: "administrator", headers: ADMIN, reads: true },
  ];
}

/** A list's ids, `total` and `X-WP-Total`, checked to agree. */
async function list(query: string, headers: Record<string, string>, what: string) {
  const res = await api(`${NS}/events?${query}`, { headers });
  expect(res.status, `${what}: ${res.text}`).toBe(200);
  const ids: number[] = res.body.events.map((e: { id: number }) => e.id);
  expect(res.body.total, what).toBe(Number(res.headers.get("x-wp-total")));
  return { ids, total: res.body.total as number };
}

/** The feed's events, by their `SUMMARY`. */
async function summaries(query: string, headers: Record<string, string>, what: string) {
  const res = await api(`${NS}/events.ics?${query}`, { headers });
  expect(res.status, `${what}: ${res.text}`).toBe(200);
  return parse(res.text).events.map((e) => e.summary);
}

/** `path` answers `viewer` exactly what `unknown` (the same filter with an id nobody has) answers. */
async function expectUnknown(path: string, unknown: string, headers: Record<string, string>) {
  const missing = await api(unknown, { headers });
  expect(missing.status, unknown).toBe(400);
  const res = await api(path, { headers });
  expect(res.status, path).toBe(missing.status);
  expect(res.body, path).toEqual(missing.body);
}

describe("a venue or organizer the viewer may not read is, to every filter, one that does not exist", () => {
  it("venue, organizer, geoloc, geoloc_lat/lng: lists, totals and the feed", async () => {
    const who = await viewers();
    const shown = await seedVenue({ title: "Town Hall", geoLat: 50, geoLng: 50 });
    const open = await seedEvent({ title: "Open Night", start: day(1), venueId: shown });
    const posts = [];
    for (const [i, status] of HIDDEN.entries()) {
      const at = { lat: 10 + i, lng: 20 + i };
      const venue = await seedVenue({
        title: `Hall ${status}`,
        status,
        geoLat: at.lat,
        geoLng: at.lng,
      });
      const organizer = await seedOrganizer({ title: `Org ${status}`, status });
      const event = await seedEvent({
        title: `At ${status}`,
        start: day(2 + i),
        venueId: venue,
        organizerIds: [organizer],
      });
      posts.push({ status, at, venue, organizer, event });
    }
    const all = [open, ...posts.map((p) => p.event)];

    for (const v of who) {
      const located = await list("geoloc=true", v.headers, `${v.name} geoloc=true`);
      const unlocated = await list("geoloc=false", v.headers, `${v.name} geoloc=false`);
      expect(located.ids, v.name).toEqual(v.reads ? all : [open]);
      expect(unlocated.ids, v.name).toEqual(v.reads ? [] : all.slice(1));
      for (const p of posts) {
        const what = `${v.name}, ${p.status}`;
        const near = `geoloc_lat=${p.at.lat}&geoloc_lng=${p.at.lng}&geoloc_radius=1`;
        expect(await list(near, v.headers, what), what).toEqual(
          v.reads ? { ids: [p.event], total: 1 } : { ids: [], total: 0 },
        );
        expect(await summaries(near, v.headers, what), what).toEqual(
          v.reads ? [`At ${p.status}`] : [],
        );
        if (!v.reads) {
          for (const base of ["/events", "/events.ics"]) {
            await expectUnknown(
              `${NS}${base}?venue=${p.venue}`,
              `${NS}${base}?venue=${NOWHERE}`,
              v.headers,
            );
            await expectUnknown(
              `${NS}${base}?organizer=${p.organizer}`,
              `${NS}${base}?organizer=${NOWHERE}`,
              v.headers,
            );
          }
          await expectUnknown(
            `${NS}/events?venue=${shown},${p.venue}`,
            `${NS}/events?venue=${shown},${NOWHERE}`,
            v.headers,
          );
          continue;
        }
        expect(await list(`venue=${p.venue}`, v.headers, what), what).toEqual({
          ids: [p.event],
          total: 1,
        });
        expect(await list(`organizer=${p.organizer}`, v.headers, what), what).toEqual({
          ids: [p.event],
          total: 1,
        });
        expect(await list(`venue=${shown},${p.venue}`, v.headers, what), what).toEqual({
          ids: [open, p.event],
          total: 2,
        });
        expect(await summaries(`venue=${p.venue}`, v.headers, what), what).toEqual([
          `At ${p.status}`,
        ]);
      }
    }
  });

  it("a parent event the viewer may not read is one that does not exist to post_parent", async () => {
    const who = await viewers();
    for (const [i, status] of HIDDEN.entries()) {
      const parent = await seedEvent({ title: `Parent ${status}`, start: day(2 + i), status });
      const child = await seedEvent({
        title: `Child ${status}`,
        start: day(2 + i),
        postParent: parent,
      });
      for (const v of who) {
        const what = `${v.name}, ${status}`;
        if (v.reads)
          expect((await list(`post_parent=${parent}`, v.headers, what)).ids, what).toEqual([child]);
        else
          await expectUnknown(
            `${NS}/events?post_parent=${parent}`,
            `${NS}/events?post_parent=${NOWHERE}`,
            v.headers,
          );
      }
    }
  });
});

describe("a filter on a field the answer blanks matches only when the answer shows it", () => {
  it("a protected venue's coordinates: geoloc and geoloc_lat/lng", async () => {
    const who = await viewers();
    const guarded = await seedVenue({
      title: "Guarded Hall",
      password: "hall",
      geoLat: 60,
      geoLng: 60,
    });
    const event = await seedEvent({
      title: "At the guarded hall",
      start: day(2),
      venueId: guarded,
    });
    const near = "geoloc_lat=60&geoloc_lng=60&geoloc_radius=1";
    for (const v of who) {
      // Its id is shown (names and ids stay, contract §4 row 18): `venue=` finds it.
      expect((await list(`venue=${guarded}`, v.headers, v.name)).ids, v.name).toEqual([event]);
      for (const [query, opens] of [
        ["", false],
        ["&password=wrong", false],
        ["&password=hall", true],
        ["&context=edit", v.reads],
      ] as const) {
        const what = `${v.name} ${query}`;
        expect((await list(`${near}${query}`, v.headers, what)).ids, what).toEqual(
          opens ? [event] : [],
        );
        expect((await list(`geoloc=true${query}`, v.headers, what)).ids, what).toEqual(
          opens ? [event] : [],
        );
        // Blanked coordinates are neither there nor missing.
        expect((await list(`geoloc=false${query}`, v.headers, what)).ids, what).toEqual([]);
        expect(await summaries(`${near}${query}`, v.headers, what), what).toEqual(
          opens ? ["At the guarded hall"] : [],
        );
      }
    }
  });

  it("a protected event's categories, tags, featured and venue coordinates", async () => {
    const who = await viewers();
    const category = await seedTerm("tribe_events_cat", "Members");
    const tag = await seedTerm("post_tag", "insiders");
    const hall = await seedVenue({ title: "Club", geoLat: 70, geoLng: 70 });
    const control = await seedEvent({
      title: "Open day",
      start: day(1),
      featured: true,
      termIds: [category, tag],
    });
    const guarded = await seedEvent({
      title: "Members only",
      start: day(2),
      password: "club",
      featured: true,
      termIds: [category, tag],
      venueId: hall,
    });
    const plain = await seedEvent({ title: "Quiet members", start: day(3), password: "club" });
    const near = "geoloc_lat=70&geoloc_lng=70&geoloc_radius=1";
    for (const v of who) {
      // The venue's id is shown for a blanked event (contract §4 row 18).
      expect((await list(`venue=${hall}`, v.headers, v.name)).ids, v.name).toEqual([guarded]);
      for (const [query, opens] of [
        ["", false],
        ["&password=wrong", false],
        ["&password=club", true],
        ["&context=edit", v.reads],
      ] as const) {
        const what = `${v.name} ${query}`;
        const ids = async (filter: string) =>
          (await list(`${filter}${query}`, v.headers, what)).ids;
        for (const filter of ["categories=members", `tags=${tag}`, "featured=true"])
          expect(await ids(filter), `${what} ${filter}`).toEqual(
            opens ? [control, guarded] : [control],
          );
        expect(await ids("featured=false"), what).toEqual(opens ? [plain] : []);
        expect(await ids(near), what).toEqual(opens ? [guarded] : []);
        expect(await ids("geoloc=true"), what).toEqual(opens ? [guarded] : []);
        // An event without a venue shows none, blanked or not.
        expect(await ids("geoloc=false"), what).toEqual([control, plain]);
        expect(await summaries(`categories=members${query}`, v.headers, what), what).toEqual(
          opens ? ["Open day", "Members only"] : ["Open day"],
        );
        expect(await summaries(`featured=false${query}`, v.headers, what), what).toEqual(
          opens ? ["Quiet members"] : [],
        );
      }
    }
  });
});

describe("the rule holds for the occurrences of series and for the caches", () => {
  it("occurrences filter as their series shows", async () => {
    const who = await viewers();
    const draft = await seedVenue({ title: "Back room", status: "draft", geoLat: 30, geoLng: 30 });
    const category = await seedTerm("tribe_events_cat", "Weekly");
    const weekly = (json: Record<string, unknown>) =>
      createEvent({
        start_date: "2027-03-02 19:00:00",
        end_date: "2027-03-02 21:00:00",
        recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"],
        ...json,
      });
    await weekly({ title: "Weekly hidden", venue: draft });
    await weekly({ title: "Weekly members", password: "club", categories: [category] });
    for (const v of who) {
      const titles = async (query: string) => {
        const res = await api(`${NS}/events?${WINDOW}&${query}`, { headers: v.headers });
        expect(res.status, `${v.name} ${query}: ${res.text}`).toBe(200);
        expect(res.body.total, `${v.name} ${query}`).toBe(res.body.events.length);
        return res.body.events.map((e: { title: string }) => e.title);
      };
      const feed = async (query: string) =>
        summaries(`${WINDOW}&${query}`, v.headers, `${v.name} ${query}`);
      const near = "geoloc_lat=30&geoloc_lng=30&geoloc_radius=1";
      const hidden = v.reads ? Array(3).fill("Weekly hidden") : [];
      expect(await titles(near), v.name).toEqual(hidden);
      // The feed writes a series once, with its rule.
      expect(await feed(near), v.name).toEqual(v.reads ? ["Weekly hidden"] : []);
      for (const [query, opens] of [
        ["", false],
        ["&password=club", true],
        ["&context=edit", v.reads],
      ] as const) {
        const members = opens ? Array(3).fill("Weekly members") : [];
        expect(await titles(`categories=weekly${query}`), `${v.name} ${query}`).toEqual(members);
        expect(await feed(`categories=weekly${query}`), `${v.name} ${query}`).toEqual(
          opens ? ["Weekly members"] : [],
        );
      }
    }
  });

  it("anonymous answers, cached or not, never hold what an editor's show; no round trip more", async () => {
    const editor = await seedUser("editor");
    // A signed-in request costs its credentials' round trip too: filters add none.
    const signedIn = roundTrips(await api(`${NS}/events`, { headers: editor.headers }));
    const draft = await seedVenue({ title: "Back room", status: "draft", geoLat: 30, geoLng: 30 });
    const event = await seedEvent({ title: "Rehearsal", start: day(2), venueId: draft });
    const category = await seedTerm("tribe_events_cat", "Members");
    await seedEvent({
      title: "Members only",
      start: day(3),
      password: "club",
      termIds: [category],
    });
    for (const query of [
      "geoloc_lat=30&geoloc_lng=30&geoloc_radius=1",
      "geoloc=true",
      "categories=members",
    ]) {
      const path = `${NS}/events?${query}`;
      const miss = await api(path);
      expect(miss.headers.get("x-cache"), query).toBe("MISS");
      expect(roundTrips(miss), query).toBe(1);
      expect(miss.body.events, query).toEqual([]);
      const edited = await api(`${path}&context=edit`, { headers: editor.headers });
      expect(edited.body.events.length, query).toBe(1);
      expect(roundTrips(edited), query).toBe(signedIn);
      const hit = await api(path);
      expect(hit.headers.get("x-cache"), query).toBe("HIT");
      expect(hit.text, query).toBe(miss.text);
    }
    expect(
      (await api(`${NS}/events?geoloc=true`, { headers: editor.headers })).body.events[0].id,
    ).toBe(event);
  });
});
