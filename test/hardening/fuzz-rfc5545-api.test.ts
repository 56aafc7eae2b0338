/**
 * Through the worker (contract §7.8): generated series (test/support/rfc5545/generate.ts, those with
 * a `COUNT` of at most 40, one page each) written with `POST /events`, then what the JSON lists of
 * each compared with what python-dateutil expands from the feed's VEVENT (its DTSTART with TZID and
 * its lines, as a calendar program reads them): the same instants. JSON-LD's `eventSchedule`, where
 * the rule has one, starts at DTSTART's time of day. Refusals are judged by the expansion-level
 * comparison (test/hardening/fuzz-rfc5545.test.ts).
 *
 * `npm test`: one batch of `BATCH`; `npm run test:fuzz`: `DEEP` × FUZZ_SCALE.
 */
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { feed } from "../ical/support";
import { ADMIN, api, NS } from "../support/api";
import { oracle } from "../support/rfc5545/ask";
import { type GeneratedSeries, series } from "../support/rfc5545/generate";

const SCALE = inject("fuzzScale") ?? 0;
const SEED = inject("fuzzSeed") ?? 20261123;
const BATCH = 12;
const DEEP = 600;

const counted = series.filter((g) => /COUNT=(\d+)/.test(g.lines[0]) && !g.allDay);

/** `YYYYMMDDTHHMMSS` as `Y-m-d H:i:s`. */
const wp = (v: string) =>
  `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)} ${v.slice(9, 11)}:${v.slice(11, 13)}:${v.slice(13, 15)}`;

/**
 * The batch with each start moved to its rule's first instance (dateutil's), so that most are
 * series the API takes (a start the rule does not give is refused, as it should be).
 */
async function synchronized(batch: GeneratedSeries[]): Promise<GeneratedSeries[]> {
  const answers = await oracle(
    batch.map((g) => ({
      start: g.start,
      zone: g.zone,
      allDay: false,
      lines: [g.lines[0]],
      before: "2029-01-01 00:00:00",
      max: 2,
    })),
  );
  return batch.map((g, i) => {
    const a = answers[i];
    if (a.error !== undefined || a.synchronized || !a.starts[1]) return g;
    return { ...g, start: a.starts[1][0], lines: [g.lines[0]] };
  });
}

async function writeBatch(generated: GeneratedSeries[]): Promise<string[]> {
  const batch = await synchronized(generated);
  const made: Array<{ g: GeneratedSeries; id: number }> = [];
  for (const g of batch) {
    const end = new Date(`${g.start.replace(" ", "T")}Z`);
    end.setUTCMinutes(end.getUTCMinutes() + g.minutes);
    const res = await api(`${NS}/events`, {
      headers: ADMIN,
      json: {
        title: "Fuzz",
        start_date: g.start,
        end_date: end.toISOString().slice(0, 19).replace("T", " "),
        timezone: g.zone,
        recurrence: g.lines,
      },
    });
    if (res.status === 201) made.push({ g, id: res.body.id });
    else expect(res.status, res.text).toBe(400);
  }
  const text = (await feed("?start_date=2026-01-01&end_date=2031-12-31")).text.replace(
    /\r\n /g,
    "",
  );
  const vevents = text.split("BEGIN:VEVENT").slice(1);
  const cases = made.map(({ g, id }) => {
    const lines = vevents
      .find((v) => v.includes(`UID:${id}@`) && !v.includes("RECURRENCE-ID"))!
      .split("\r\n");
    const dtstart = lines.find((l) => l.startsWith("DTSTART"))!;
    return {
      start: wp(dtstart.slice(dtstart.indexOf(":") + 1)),
      zone: g.zone,
      allDay: false,
      lines: lines.filter((l) => /^(RRULE|RDATE|EXDATE)[;:]/.test(l)),
      before: "2028-11-01 00:00:00",
      max: 1000,
    };
  });
  const answers = await oracle(cases);
  const failures: string[] = [];
  for (const [i, { g, id }] of made.entries()) {
    const answer = answers[i];
    const res = await api(
      `${NS}/events?series=${id}&start_date=2026-01-01&end_date=2028-10-31 23:59:59&per_page=50`,
    );
    const json = (res.body.events as any[]).map((e) => e.utc_start_date);
    const want =
      answer.error === undefined
        ? answer.starts.filter(([local]) => local < "2028-11-01").map(([, utc]) => utc)
        : [answer.error];
    if (JSON.stringify(json) !== JSON.stringify(want))
      failures.push(
        `${JSON.stringify(g)}: JSON ${JSON.stringify(json)} dateutil ${JSON.stringify(want)}`,
      );
    const ld = (await api(`${NS}/events/${id}`)).body.json_ld;
    if (ld.eventSchedule && ld.eventSchedule.startTime !== cases[i].start.slice(11))
      failures.push(`${JSON.stringify(g)}: schedule startTime ${ld.eventSchedule.startTime}`);
  }
  return failures;
}

describe("the JSON = python-dateutil reading the feed, generated series through the worker", () => {
  const total = Math.max(BATCH, Math.round(DEEP * SCALE));
  const batches = Math.ceil(total / BATCH);
  it(
    `${total} series: 0 differences`,
    async () => {
      const failures: string[] = [];
      for (let b = 0; b < batches; b++)
        failures.push(
          ...(await writeBatch(fc.sample(counted, { numRuns: BATCH, seed: SEED + b }))),
        );
      expect(failures.slice(0, 5), `${failures.length} of ${total} differ`).toEqual([]);
    },
    60_000 + batches * 30_000,
  );
});
