/**
 * A page of a common category or tag is found by probing the archive row by row, that of
 * a rare one from the list of its events (src/events/term-weights.ts). The plan is the isolate's
 * choice; the answer never depends on it: same events, same order, same totals, every page.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { COMMON_TERM } from "../../src/events/term-weights";
import { createEvent } from "../series/support";
import { api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm } from "../support/factories";

/** `n` published events on the coming days, all with `term` (written straight into D1). */
async function manyEvents(term: number, n: number): Promise<void> {
  const first = await seedEvent({ title: "First", start: day(1), termIds: [term] });
  const series =
    "WITH RECURSIVE series(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM series WHERE value < ?2) ";
  const stmt = (sql: string) => env.DB.prepare(series + sql).bind(first, n);
  await env.DB.batch([
    stmt("INSERT INTO posts (id, post_type) SELECT ?1 + value, 'tribe_events' FROM series"),
    stmt(`INSERT INTO events (id, slug, title, status, post_date, post_date_gmt, post_modified, post_modified_gmt,
        start_date, end_date, start_date_utc, end_date_utc, timezone, timezone_abbr, changed_gmt)
      SELECT ?1 + value, 'e-' || value, 'Event ' || value, CASE WHEN value % 7 = 0 THEN 'draft' ELSE 'publish' END,
        e.post_date, e.post_date_gmt, e.post_modified, e.post_modified_gmt,
        datetime(e.start_date, '+' || (value % 300) || ' hours'), datetime(e.end_date, '+' || (value % 300) || ' hours'),
        datetime(e.start_date_utc, '+' || (value % 300) || ' hours'), datetime(e.end_date_utc, '+' || (value % 300) || ' hours'),
        e.timezone, e.timezone_abbr, e.changed_gmt
      FROM series JOIN events e ON e.id = ?1`),
    env.DB.prepare(
      `${series}INSERT INTO event_terms (event_id, term_id) SELECT ?1 + value, ?3 FROM series`,
    ).bind(first, n, term),
    env.DB.prepare(
      "UPDATE terms SET count = (SELECT count(*) FROM event_terms et JOIN events e ON e.id = et.event_id WHERE et.term_id = terms.id AND e.status = 'publish')",
    ),
    env.DB.prepare("UPDATE content_version SET version = version + 1 WHERE id = 1"),
  ]);
}

describe("term filters: common and rare terms", () => {
  it("answer the same pages whichever plan the isolate picks", async () => {
    const big = await seedTerm("tribe_events_cat", "Big");
    const small = await seedTerm("post_tag", "Small");
    await manyEvents(big, COMMON_TERM + 200);
    await seedEvent({ title: "Tagged", start: day(2), termIds: [big, small] });
    // Recurring series among them (contract §7.8): their occurrences are filtered by their series'
    // terms, probed per occurrence for a common term, from the list of series for a rare one.
    const other = await seedTerm("tribe_events_cat", "Other");
    const daily = (title: string, categories: number[], time: string) =>
      createEvent({
        title,
        start_date: day(1, time),
        end_date: day(1, "23:00:00"),
        categories,
        tags: categories.includes(big) ? [small] : [],
        recurrence: ["RRULE:FREQ=DAILY;COUNT=20"],
      });
    const inBig = await daily("Daily big", [big], "12:30:00");
    const notBig = await daily("Daily other", [other], "13:30:00");
    const count = await env.DB.prepare("SELECT count FROM terms WHERE id = ?").bind(big).first();
    expect(count?.count).toBeGreaterThanOrEqual(COMMON_TERM);
    // With conditions on the series' row too (featured, the password of a search), and search words
    // in the index, which test the occurrence's series id itself.
    for (const query of [
      "categories=big",
      "tags=small",
      "categories=big&tags=small",
      "categories=big&featured=0",
      "categories=big&search=daily",
      "tags=small&search=daily -other",
    ]) {
      for (const page of [1, 3, 20]) {
        const path = `${NS}/events?${query}&per_page=50&page=${page}`;
        // The first read learns how common the terms are (list plan); the second may probe.
        const first = await api(`${path}&n=1`);
        const second = await api(`${path}&n=2`);
        expect(second.status, path).toBe(first.status);
        expect(
          second.body.events?.map((e: any) => e.id),
          path,
        ).toEqual(first.body.events?.map((e: any) => e.id));
        expect(second.body.total, path).toBe(first.body.total);
        const seriesIds = (second.body.events ?? []).map((e: any) => e.series?.id);
        expect(seriesIds, path).not.toContain(notBig.id);
        if (page === 1) expect(seriesIds, path).toContain(inBig.id);
      }
    }
  });
});
