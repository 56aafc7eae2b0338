/**
 * A series' lines are stored once, on the series (contract §7.8): an override (an occurrence
 * changed on its own) keeps no copy of them and shows its series' current lines; and an anonymous
 * page of many occurrences of one series reads that series' text (which holds the lines) from D1
 * once, not once per occurrence — with or without fresh renderings, in one round trip, the answer
 * the same as the full path's.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, NS, roundTrips } from "../support/api";
import { change, createEvent, listed } from "./support";

const OFF = { ...env, READ_CACHE: "off" };

/** A weekly meetup with 900 EXDATEs (none an occurrence: 08:00 on the days after it). */
function meetup() {
  const from = Date.UTC(2027, 8, 1);
  const exdates = Array.from(
    { length: 900 },
    (_, i) =>
      `${new Date(from + i * 86_400_000).toISOString().slice(0, 10).replace(/-/g, "")}T080000`,
  );
  return createEvent({
    start_date: "2027-03-02 19:00:00",
    end_date: "2027-03-02 21:00:00",
    timezone: "Europe/Berlin",
    recurrence: [
      "RRULE:FREQ=WEEKLY;COUNT=20",
      ...[0, 200, 400, 600, 800].map((i) => `EXDATE:${exdates.slice(i, i + 200).join(",")}`),
    ],
  });
}

/**
 * The worker's environment with a D1 that counts the characters of what its batches answer (the
 * rows D1 sends the worker).
 */
function measured(): { bindings: typeof env; chars: () => number } {
  let chars = 0;
  const db = env.DB;
  const DB = {
    withSession(constraint: string) {
      const session = db.withSession(constraint as never);
      return {
        prepare: (query: string) => session.prepare(query),
        batch: async (statements: D1PreparedStatement[]) => {
          const results = await session.batch(statements);
          chars += JSON.stringify(results.map((r) => r.results)).length;
          return results;
        },
        getBookmark: () => session.getBookmark(),
      };
    },
  };
  return { bindings: { ...env, DB } as typeof env, chars: () => chars };
}

describe("a series' lines, stored once", () => {
  it("an override keeps no copy, and shows its series' lines as they change", async () => {
    const s = await meetup();
    const weeks = await listed(`series=${s.id}`);
    expect((await change(weeks[2].id, { title: "Special" })).status).toBe(200);
    expect((await change(weeks[4].id)).status).toBe(200);
    const stored = await env.DB.prepare(
      "SELECT id, recurrence IS NOT NULL AS lines FROM events WHERE series_id = ? ORDER BY id",
    )
      .bind(s.id)
      .all();
    expect(stored.results).toEqual([
      { id: s.id, lines: 1 },
      { id: weeks[2].id, lines: 0 },
    ]);
    // The override lists and reads the series' lines, the deleted week among the EXDATEs.
    const series = (await api(`${NS}/events/${s.id}`)).body.series.recurrence;
    expect(series.join(",")).toContain("20270330T190000");
    for (const bindings of [env, OFF]) {
      const one = await api(`${NS}/events/${weeks[2].id}`, {}, bindings);
      expect(one.body).toMatchObject({ title: "Special", series: { recurrence: series } });
      const page = (await api(`${NS}/events?series=${s.id}&start_date=2027-01-01`, {}, bindings))
        .body.events;
      expect(page.map((e: any) => e.series.recurrence)).toEqual(page.map(() => series));
    }
  });

  it("a page of 12 occurrences reads its series' text once", async () => {
    const s = await meetup();
    const full = await api(`${NS}/events?series=${s.id}&start_date=2027-01-01`, {}, OFF);
    expect(full.body.events).toHaveLength(12);
    const one = JSON.stringify(full.body.events[1]).length;
    expect(one).toBeGreaterThan(14_000);
    // Fresh renderings (stored after the write), then none (stale: each event's row instead).
    for (const [n, stale] of [
      [1, false],
      [2, true],
    ] as const) {
      if (stale) await env.DB.prepare("UPDATE event_renderings SET stale = 1").run();
      const d1 = measured();
      // A query of its own: no answer of the read cache, no text the isolate kept.
      const res = await api(
        `${NS}/events?series=${s.id}&start_date=2027-01-0${n}`,
        {},
        d1.bindings,
      );
      expect(res.status).toBe(200);
      expect(roundTrips(res)).toBe(1);
      expect(res.text).toBe(
        (await api(`${NS}/events?series=${s.id}&start_date=2027-01-0${n}`, {}, OFF)).text,
      );
      // The series' own text (or row) and its occurrences' text, each once: not 12 times.
      expect(d1.chars(), stale ? "stale" : "fresh").toBeLessThan(3 * one);
    }
  });
});
