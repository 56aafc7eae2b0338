/**
 * The sync clock and log (drizzle/0019_sync_log.sql, contract §7.3) are kept by triggers: whoever
 * writes — the API, another isolate, a script straight into D1 — is logged in the same transaction,
 * and the anonymous cursor moves only with the content version. A migration that recreates one of
 * the tables drops its triggers: the first test then names what is missing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { forgetVersion } from "../../src/read-cache/version";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm, seedVenue } from "../support/factories";
import { cursorOf } from "./mirror";

const TRIGGERS = [
  "sync_events_ai",
  "sync_events_au",
  "sync_series_au",
  "sync_events_ad",
  "sync_occurrences_ai",
  "sync_occurrences_au",
  "sync_occurrences_ad",
  "sync_venues_ai",
  "sync_venues_au",
  "sync_venues_ad",
  "sync_organizers_ai",
  "sync_organizers_au",
  "sync_organizers_ad",
  "sync_posts_au",
  "sync_terms_ai",
  "sync_terms_au",
  "sync_deleted_terms_ai",
  "sync_version_seq",
];

/** The sync clock and content version as D1 holds them. */
const clock = () =>
  env.DB.prepare("SELECT version, seq, version_seq FROM content_version WHERE id = 1").first<{
    version: number;
    seq: number;
    version_seq: number;
  }>();

describe("the sync log", () => {
  it("has every trigger in place", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_%'",
    ).all<{ name: string }>();
    expect(results.map((r) => r.name).sort()).toEqual([...TRIGGERS].sort());
  });

  it("logs writes made straight into D1, as another isolate's or a script's", async () => {
    const before = cursorOf(await api(`${NS}/venues`));
    const venue = await seedVenue({ title: "Seeded Hall" });
    const tag = await seedTerm("post_tag", "seeded");
    const event = await seedEvent({ title: "Seeded", start: day(4) });
    forgetVersion();
    const since = (list: string) => api(`${NS}/${list}&sync_cursor=${before}`);
    expect((await since("venues?per_page=50")).body.venues.map((v: any) => v.id)).toEqual([venue]);
    expect((await since("tags?hide_empty=false")).body.tags.map((t: any) => t.id)).toEqual([tag]);
    expect((await since("events?per_page=50")).body.events.map((e: any) => e.id)).toEqual([event]);
    await env.DB.batch([
      env.DB.prepare("UPDATE posts SET deleted_gmt = '2026-11-01 10:00:00' WHERE id = ?").bind(
        venue,
      ),
      env.DB.prepare("DELETE FROM venues WHERE id = ?").bind(venue),
      env.DB.prepare("UPDATE events SET status = 'draft' WHERE id = ?").bind(event),
    ]);
    forgetVersion();
    const log = await api(`${NS}/deleted?sync_cursor=${before}`);
    expect(log.body.deleted.map((d: any) => [d.type, d.id, d.status, d.deleted_utc])).toEqual([
      ["venue", venue, "deleted", "2026-11-01 10:00:00"],
      ["event", event, "unpublished", expect.stringMatching(/^\d{4}-/)],
    ]);
  });

  it("moves the anonymous cursor only with the content version, the signed-in one with every change", async () => {
    const start = await clock();
    await api(`${NS}/events`, {
      headers: ADMIN,
      json: { title: "Plans", status: "draft", start_date: day(3), end_date: day(3, "11:00:00") },
    });
    const draft = await clock();
    expect(draft).toMatchObject({ version: start!.version, version_seq: start!.version_seq });
    expect(draft!.seq).toBeGreaterThan(start!.seq);
    await api(`${NS}/tags`, { headers: ADMIN, json: { name: "Jazz" } });
    const tag = await clock();
    expect(tag!.version).toBeGreaterThan(start!.version);
    expect(tag!.version_seq).toBe(tag!.seq);
    expect(cursorOf(await api(`${NS}/tags`))).toBe(tag!.version_seq);
  });
});
