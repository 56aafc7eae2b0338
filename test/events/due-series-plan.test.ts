/**
 * The lists' due-series statement (src/events/computed.ts `dueSeries`, contract §7.8: occurrences
 * past the stored horizon are computed for the series that reach there) is driven by the partial
 * index of series by horizon, whatever the filters: D1 keeps no statistics, so SQLite chose the
 * status index instead and read every published event on each list (94,633 rows of the bench's
 * 100,000). Without statistics the plan does not depend on the data, so an empty database shows it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dueSeries } from "../../src/events/computed";
import type { EventFilters } from "../../src/events/filters";
import { db } from "../support/factories";

const ask = {
  window: { from: null, before: "2036-12-01 00:00:00" },
  dueBefore: "2036-12-02 00:00:00",
};

async function plan(filters: EventFilters): Promise<string[]> {
  const q = dueSeries(db() as never, filters, null, ask).toSQL();
  const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
    .bind(...q.params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail);
}

describe("the due series of a list", () => {
  it("are read from the series' horizon index first, then each event by its id", async () => {
    for (const filters of [
      { statuses: ["publish"], dates: {} },
      { statuses: ["publish"], dates: {}, categories: ["music"], featured: true, search: "jazz" },
    ] as EventFilters[]) {
      const steps = await plan(filters);
      expect(steps[0], steps.join("\n")).toMatch(/^SEARCH events USING INDEX events_horizon/);
      expect(steps[1], steps.join("\n")).toMatch(/^SEARCH events USING INTEGER PRIMARY KEY/);
    }
  });
});
