/**
 * Reading a series far from its start (contract §7.8: occurrences past the stored horizon are
 * computed when asked for, and the nightly extension stores them): src/events/series/rrule.ts passes over
 * the periods far before the window by arithmetic, for rules without `COUNT`. Over generated rules
 * (test/support/rfc5545/generate.ts), the starts from any point on are those of the whole
 * expansion; and a rule whose whole expansion from its first day would need more than
 * `MAX_PERIODS` periods is still read in a window a century and more after it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ruleStarts } from "../../src/events/series/expand";
import { parseLines, type SeriesFrame } from "../../src/events/series/lines";
import { ADMIN, api, NS } from "../support/api";
import { series } from "../support/rfc5545/generate";

describe("a series read far from its start", () => {
  it("gives the same starts from any point on as the whole expansion, for rules without COUNT", () => {
    fc.assert(
      fc.property(series, fc.integer({ min: 0, max: 2_000 }), (g, days) => {
        const frame: SeriesFrame = { timezone: g.zone, allDay: g.allDay, start: g.start };
        let rec: ReturnType<typeof parseLines>;
        try {
          rec = parseLines(g.lines, frame);
        } catch {
          return; // a rule the API refuses
        }
        if (!rec.rule || rec.rule.some(([name]) => name === "COUNT")) return;
        const year = Number(g.start.slice(0, 4));
        const before = `${year + 8}-01-01 00:00:00`;
        const at = new Date(Date.UTC(year, 0, 1) + days * 86_400_000).toISOString().slice(0, 10);
        const from = `${at} ${g.start.slice(11)}`;
        const whole = ruleStarts(rec, frame, before, 1_000_000).starts.filter((s) => s >= from);
        const skipped = ruleStarts(rec, frame, before, 1_000_000, from).starts.filter(
          (s) => s >= from,
        );
        expect(skipped, `${g.lines.join(" ")} from ${g.start} read from ${from}`).toEqual(whole);
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });

  it("lists the leap days of a rule from 1892 in 2032 and 2036, past the 50,000 days from its start", async () => {
    const made = await api(`${NS}/events`, {
      method: "POST",
      headers: ADMIN,
      json: {
        title: "Leap day",
        start_date: "1892-02-29 12:00:00",
        end_date: "1892-02-29 13:00:00",
        timezone: "UTC",
        recurrence: ["RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29"],
      },
    });
    expect(made.status, made.text).toBe(201);
    const res = await api(
      `${NS}/events?series=${made.body.id}&start_date=2020-01-01&end_date=2036-12-31&per_page=50`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.events.map((e: any) => e.start_date)).toEqual(
      [2020, 2024, 2028, 2032, 2036].map((y) => `${y}-02-29 12:00:00`),
    );
  });
});
