/**
 * Expansion is exactly RFC 5545 (contract §7.8): generated series (test/support/rfc5545/generate.ts)
 * read and expanded as the service does when it writes them (src/events/series/lines.ts, expand.ts), each
 * compared with python-dateutil expanding the lines the service stores and publishes (the feed's
 * DTSTART with its TZID, RRULE, RDATE, EXDATE): the same local starts and the same instants, DST
 * gaps and overlaps included. A series the service refuses must be one RFC 5545 gives no set for,
 * or one past a stated limit: its start not the rule's first instance, two on one day, more than
 * 1,000 before the horizon.
 *
 * `npm test` (FUZZ_SCALE 0): one batch of `BATCH`; `npm run test:fuzz`: `DEEP` × FUZZ_SCALE.
 */
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { expand, MAX_OCCURRENCES, occurrenceDates } from "../../src/events/series/expand";
import {
  formatLines,
  MAX_DATES,
  parseLines,
  type Recurrence,
  RecurrenceError,
} from "../../src/events/series/lines";
import { type OracleCase, oracle } from "../support/rfc5545/ask";
import { type GeneratedSeries, series } from "../support/rfc5545/generate";
import { firstTimes, seriesDtstart } from "../support/rfc5545/times";

const SCALE = inject("fuzzScale") ?? 0;
const SEED = inject("fuzzSeed") ?? 20261123;
/** Series per batch (one python process each). */
const BATCH = 150;
/** Series at full depth (`FUZZ_SCALE=1`). */
const DEEP = 20_000;

/** Horizon of a generated series: about what a write materializes (two years and a month). */
const beforeOf = (start: string) => {
  const d = new Date(`${start.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 790);
  return `${d.toISOString().slice(0, 10)} 00:00:00`;
};

/** What the service makes of a generated series: its starts (local wall clock, UTC) or its refusal. */
function serviceExpansion(g: GeneratedSeries) {
  const frame = { timezone: g.zone, allDay: g.allDay, start: seriesDtstart(g) };
  let rec: Recurrence;
  let stored: string[];
  try {
    rec = parseLines(g.lines, frame, MAX_DATES);
    stored = formatLines(rec, frame);
    const { starts } = expand(rec, frame, beforeOf(g.start));
    const times = firstTimes(g);
    return {
      frame,
      stored,
      starts: starts.map((s) => [s, occurrenceDates(times, s).startDateUtc] as [string, string]),
    };
  } catch (err) {
    if (err instanceof RecurrenceError) return { frame, refused: err.key };
    throw err;
  }
}

/** Why a refusal is one RFC 5545 or the contract states, judged by dateutil's answer. */
function refusalStated(
  key: string,
  g: GeneratedSeries,
  answer: { starts: [string, string][]; synchronized: boolean },
): boolean {
  const days = answer.starts.map(([local]) => local.slice(0, 10));
  if (key === "recurrence_start")
    return !answer.synchronized || answer.starts[0]?.[0] !== seriesDtstart(g);
  if (key === "recurrence_day") return new Set(days).size < days.length;
  if (key === "recurrence_limit") return answer.starts.length > MAX_OCCURRENCES;
  // Ordinal and plain weekdays in one BYDAY (src/events/series/lines.ts says why).
  if (key === "recurrence_line") {
    const byday = /BYDAY=([^;]*)/.exec(g.lines[0])?.[1].split(",") ?? [];
    const ordinals = byday.filter((d) => d.length > 2).length;
    return (
      /FREQ=(MONTHLY|YEARLY)/.test(g.lines[0]) &&
      ordinals > 0 &&
      (ordinals < byday.length || g.lines[0].includes("BYWEEKNO"))
    );
  }
  return false;
}

async function compareBatch(batch: GeneratedSeries[]) {
  const mine = batch.map(serviceExpansion);
  // dateutil reads what the service stores (the feed's lines); refused series, what was sent.
  const cases: OracleCase[] = batch.map((g, i) => ({
    start: mine[i].frame.start,
    zone: g.zone,
    allDay: g.allDay,
    lines: mine[i].stored ?? g.lines,
    before: beforeOf(g.start),
    max: MAX_OCCURRENCES + 1,
  }));
  const answers = await oracle(cases);
  const failures: string[] = [];
  batch.forEach((g, i) => {
    const answer = answers[i];
    const got = mine[i];
    const what = () => JSON.stringify(g);
    if (answer.error !== undefined) {
      if (!got.refused) failures.push(`${what()}: dateutil refuses (${answer.error})`);
      return;
    }
    if (got.refused) {
      if (!refusalStated(got.refused, g, answer))
        failures.push(`${what()}: refused ${got.refused}, dateutil: ${JSON.stringify(answer)}`);
      return;
    }
    const want = answer.starts;
    if (JSON.stringify(got.starts) !== JSON.stringify(want)) {
      const at = got.starts.findIndex((s, k) => JSON.stringify(s) !== JSON.stringify(want[k]));
      failures.push(
        `${what()} stored ${JSON.stringify(got.stored)}: #${at < 0 ? want.length : at} ` +
          `service ${JSON.stringify(got.starts[at] ?? got.starts.at(-1))} (${got.starts.length}), ` +
          `dateutil ${JSON.stringify(want[at] ?? want.at(-1))} (${want.length})`,
      );
    }
  });
  return failures;
}

describe("expansion = python-dateutil (RFC 5545), generated series", () => {
  const total = Math.max(BATCH, Math.round(DEEP * SCALE));
  const batches = Math.ceil(total / BATCH);
  it(
    `${total} series: 0 differences`,
    async () => {
      const failures: string[] = [];
      for (let b = 0; b < batches; b++) {
        const batch = fc.sample(series, { numRuns: BATCH, seed: SEED + b });
        failures.push(...(await compareBatch(batch)));
      }
      expect(failures.slice(0, 10), `${failures.length} of ${total} differ`).toEqual([]);
    },
    60_000 + batches * 20_000,
  );
});
