/**
 * A series' lines are stored once, on the series (contract §7.8): an override (an occurrence
 * changed on its own) keeps no copy of them and shows its series' current lines.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, NS } from "../support/api";
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
});
