/**
 * The acceptance measure of the TEC-site import (contract §7.9): the demo calendar of `npm start`
 * (tools/demo), read from this worker as `http://source.example` by its administrator, copied into
 * an empty instance. Every event a TEC site lists comes (304 of the demo's 308: four are hidden
 * from listings, which TEC never lists), every field equal to what the source shows its
 * administrator — the four password-protected ones with their password, given as the demo's
 * (`--event-password`: this service keeps passwords only as digests, so no source of its kind
 * can hand them over) — and a second run creates and updates nothing.
 */
import { env } from "cloudflare:workers";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { buildDemoCalendar, DEMO_PASSWORD } from "../../tools/demo/calendar";
import { demoStatements } from "../../tools/demo/sql";
import { importTec } from "../../tools/import/tec/importer";
import { ADMIN, api, NS } from "../support/api";
import {
  EVERY_EVENT,
  record,
  recordedSite,
  recordSingles,
  SOURCE_ROOT,
  target,
  wipe,
} from "./recorded-site";

/** What differs between a copy and its source by nature: ids, links, global ids, modification times, term counts. */
const OWN = new Set([
  "id",
  "global_id",
  "global_id_lineage",
  "url",
  "rest_url",
  "urls",
  "modified",
  "modified_utc",
  "count",
  "parent",
  "term_taxonomy_id",
]);

/**
 * An object without what is the instance's own (recursively); a website that is the object's own
 * page (what an event without one shows, §4.1) stands as `(its page)`.
 */
function compared(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(compared);
  if (x === null || typeof x !== "object") return x;
  const o = x as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k]) => !OWN.has(k))
      .map(([k, v]) => [k, k === "website" && v === o.url ? "(its page)" : compared(v)]),
  );
}

/** Every event of this instance as its administrator sees it with `context=edit`, by source global id. */
async function copies(): Promise<Map<string, any>> {
  const out = new Map<string, any>();
  for (let page = 1; ; page++) {
    const res = await api(`${NS}/events?${EVERY_EVENT}&context=edit&per_page=50&page=${page}`, {
      headers: ADMIN,
    });
    for (const e of res.body.events) out.set(e.global_id_lineage[1], e);
    if (page >= res.body.total_pages) return out;
  }
}

describe("TEC-site import of the demo calendar into an empty instance", () => {
  it("copies 304 of 304 events, every field equal, passwords included; a second run writes nothing", async () => {
    const demo = buildDemoCalendar({
      today: DateTime.utc().startOf("day"),
      siteTimezone: "UTC",
      firstPostId: 1,
      firstTermId: 1,
    });
    await env.DB.batch(demoStatements(demo).map((s) => env.DB.prepare(s)));
    expect(demo.summary).toMatchObject({ events: 308, hidden: 4, password: 4 });

    // What the import reads: the archives as the administrator sees them (protected events
    // blanked), and for the protected ones what it asks the source for to open them.
    const listed = await record();
    const truth = await record("&context=edit");
    expect(listed.events).toHaveLength(304);
    const blanked = listed.events.filter((e) => e.show_map === null);
    expect(blanked).toHaveLength(4);
    const singles = await recordSingles(
      blanked.flatMap((e) => [
        `${NS}/events/${e.id}?context=edit`,
        `${NS}/events/${e.id}?password=${DEMO_PASSWORD}`,
        `/wp-json/wp/v2/tribe_events/${e.id}?context=edit`,
      ]),
    );
    await wipe();

    const site = {
      base: SOURCE_ROOT,
      authorization: ADMIN.authorization,
      eventPasswords: [DEMO_PASSWORD],
      fetch: recordedSite(listed, singles),
    };
    const first = await importTec(site, target, { retryDelayMs: 1 });
    expect(first.counts).toEqual({
      categories: { created: 8, updated: 0, unchanged: 0, skipped: 0 },
      tags: { created: 15, updated: 0, unchanged: 0, skipped: 0 },
      venues: { created: 15, updated: 0, unchanged: 0, skipped: 0 },
      organizers: { created: 12, updated: 0, unchanged: 0, skipped: 0 },
      events: { created: 304, updated: 0, unchanged: 0, skipped: 0 },
    });
    expect(first.incomplete).toBe(0);
    expect(first.notes).toEqual([]);

    const copied = await copies();
    expect(copied.size).toBe(304);
    for (const e of truth.events) {
      const c = copied.get(e.global_id);
      expect(c, e.title).toBeDefined();
      expect(compared(c), `${e.title} (source id ${e.id})`).toEqual(compared(e));
      expect(c.global_id_lineage.slice(1)).toEqual(e.global_id_lineage);
    }
    // The protected ones are protected here by the same password, and no other is.
    const protectedHere = new Set<number>();
    const open = new Set<number>();
    for (let page = 1; ; page++) {
      const res = await api(`${NS}/events?${EVERY_EVENT}&per_page=50&page=${page}`, {
        headers: ADMIN,
      });
      for (const e of res.body.events) if (e.show_map === null) protectedHere.add(e.id);
      const opened = await api(
        `${NS}/events?${EVERY_EVENT}&password=${DEMO_PASSWORD}&per_page=50&page=${page}`,
        { headers: ADMIN },
      );
      for (const e of opened.body.events) if (e.show_map !== null) open.add(e.id);
      if (page >= res.body.total_pages) break;
    }
    expect([...protectedHere].sort()).toEqual(
      blanked.map((e) => copied.get(e.global_id).id).sort(),
    );
    expect(open.size).toBe(304);

    const again = await importTec(site, target, { retryDelayMs: 1 });
    for (const [kind, counts] of Object.entries(again.counts))
      expect(counts, kind).toMatchObject({ created: 0, updated: 0 });
    expect(again.counts.events.unchanged).toBe(304);
  }, 180_000);
});
