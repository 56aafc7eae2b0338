/**
 * JSON-LD `eventSchedule` exact after moves, cancellations and splits (contract §7.8), over
 * generated series (test/support/rfc5545/generate.ts, moved to their rule's first instance) and
 * generated writes of their occurrences: moves (also back to the original start), changes that keep
 * the start, cancellations (`DELETE`), splits (`PATCH ?scope=following`) and ends
 * (`DELETE ?scope=following`).
 *
 * The equivalence, per series (the first and every one a split made), within a bound B (the local
 * start before which the series has at most ~45 occurrences, or 2031-06-01):
 *
 *   expand(Schedule) ∩ [·, B) = { start(e) : e ∈ L, e not moved, original(e) < B }
 *
 * where L is what `GET /events?series=<id>` lists up to B plus ten days (every event of the series
 * there: occurrences and overrides), `original(e)` its `series.original_start`, `start(e)` its start
 * (UTC instant; the date for an all-day series), and e is moved when `start(e)` ≠ `original(e)`
 * (another instant, or another day in an all-day series). expand(Schedule) is python-dateutil
 * (test/support/rfc5545/oracle.ts) reading the Schedule as the RFC 5545 rule it stands for: DTSTART
 * `startDate` `startTime` (a date when there is no `startTime`) in `scheduleTimezone`, `FREQ` and
 * `INTERVAL` from `repeatFrequency`, `BYDAY` (schema.org's weekday URLs as `MO`…, ordinal texts as
 * they are), `BYMONTHDAY`, `BYMONTH`, `COUNT` = `repeatCount`, `UNTIL` = the end of `endDate`'s
 * local day, and `exceptDate` as `EXDATE`s. So the moved occurrences' original starts and the
 * cancelled dates are exceptions, a kept start is not, and a split series' schedule stops before
 * the day it gave away. A series without a Schedule must have a rule schema.org cannot say (an
 * `RDATE`, `BYSETPOS`, `BYYEARDAY`, `BYWEEKNO`, or a `WKST` other than `MO` that decides which weeks a
 * `WEEKLY` `INTERVAL` skips).
 *
 * `npm test`: one batch of `BATCH`; `npm run test:fuzz`: `DEEP` × FUZZ_SCALE.
 */
import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, inject, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { type OracleCase, oracle } from "../support/rfc5545/ask";
import { type GeneratedSeries, series } from "../support/rfc5545/generate";

const SCALE = inject("fuzzScale") ?? 0;
const SEED = inject("fuzzSeed") ?? 20261123;
const BATCH = 6;
const DEEP = 300;
const WP = "yyyy-MM-dd HH:mm:ss";
const LAST = "2031-06-01 00:00:00";

/** A write of one occurrence: which (`pick`), and for a move how far (minutes, or days when all-day). */
interface Op {
  kind: "move" | "back" | "keep" | "cancel" | "split" | "end";
  pick: number;
  shift: number;
}
const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom("move", "move", "move", "back", "keep", "cancel", "cancel", "split", "end"),
  pick: fc.nat(),
  shift: fc.integer({ min: -12, max: 12 }).filter((n) => n !== 0),
});
/** Mostly rules the Schedule can say (no `RDATE`, no `BYSETPOS`, `BYYEARDAY`, `BYWEEKNO`), some any. */
const sayable = series
  .map((g) => ({ ...g, lines: g.lines.filter((l) => !l.startsWith("RDATE")) }))
  .filter((g) => !/BYSETPOS|BYYEARDAY|BYWEEKNO/.test(g.lines[0]));
const cases = fc.tuple(
  fc.oneof({ arbitrary: sayable, weight: 4 }, { arbitrary: series, weight: 1 }),
  fc.array(op, { minLength: 1, maxLength: 5 }),
);

/** A local `Y-m-d H:i:s` moved by wall-clock minutes. */
const shifted = (local: string, minutes: number) =>
  DateTime.fromFormat(local, WP, { zone: "utc" }).plus({ minutes }).toFormat(WP);
const compact = (local: string, date: boolean) =>
  date ? local.slice(0, 10).replaceAll("-", "") : local.replace(/[-:]/g, "").replace(" ", "T");
const DAYS: Record<string, string> = {
  Monday: "MO",
  Tuesday: "TU",
  Wednesday: "WE",
  Thursday: "TH",
  Friday: "FR",
  Saturday: "SA",
  Sunday: "SU",
};

/** A listed event's start and original start: UTC instants, or dates in an all-day series. */
function startsOf(e: any, allDay: boolean): { start: string; original: string } {
  if (allDay) return { start: e.start_date.slice(0, 10), original: e.series.original_start };
  const original = DateTime.fromISO(e.series.original_start, { setZone: true });
  return { start: e.utc_start_date, original: original.toUTC().toFormat(WP) };
}

/** Every event of a series listed up to `until` (local), page after page. */
async function listSeries(id: number, until: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; page < 20; page++) {
    const res = await api(
      `${NS}/events?series=${id}&start_date=2026-01-01&end_date=${until}&per_page=50&page=${page}`,
    );
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.events);
    if (!res.body.next_rest_url) break;
  }
  return out;
}

/** The RFC 5545 case a Schedule stands for (see the module comment). */
function scheduleCase(s: any, before: string): OracleCase {
  const allDay = s.startTime === undefined;
  const unit = s.repeatFrequency.slice(-1) as "D" | "W" | "M" | "Y";
  const freq = { D: "DAILY", W: "WEEKLY", M: "MONTHLY", Y: "YEARLY" }[unit];
  const parts = [`FREQ=${freq}`, `INTERVAL=${s.repeatFrequency.slice(1, -1)}`];
  const day = (d: string) => DAYS[d.replace("https://schema.org/", "")] ?? d;
  if (s.byDay) parts.push(`BYDAY=${s.byDay.map(day).join(",")}`);
  if (s.byMonthDay) parts.push(`BYMONTHDAY=${s.byMonthDay.join(",")}`);
  if (s.byMonth) parts.push(`BYMONTH=${s.byMonth.join(",")}`);
  if (s.repeatCount) parts.push(`COUNT=${s.repeatCount}`);
  if (s.endDate && allDay) parts.push(`UNTIL=${compact(s.endDate, true)}`);
  else if (s.endDate) {
    const end = DateTime.fromFormat(`${s.endDate} 23:59:59`, WP, { zone: s.scheduleTimezone });
    parts.push(`UNTIL=${compact(end.toUTC().toFormat(WP), false)}Z`);
  }
  const lines = [`RRULE:${parts.join(";")}`];
  const tz = allDay ? ";VALUE=DATE" : `;TZID=${s.scheduleTimezone}`;
  for (const x of s.exceptDate ?? [])
    lines.push(`EXDATE${tz}:${compact(x.replace("T", " "), allDay)}`);
  const start = `${s.startDate} ${allDay ? "00:00:00" : s.startTime}`;
  return { start, zone: s.scheduleTimezone, allDay, lines, before, max: 1000 };
}

/** Whether a series' lines are ones schema.org's Schedule cannot say (see the module comment). */
function unsayable(lines: string[]): boolean {
  const rule = lines.find((l) => l.startsWith("RRULE:"))?.slice(6) ?? "";
  const part = (n: string) => new RegExp(`(?:^|;)${n}=([^;]*)`).exec(rule)?.[1];
  const wkst = part("WKST") ?? "MO";
  return (
    lines.some((l) => l.startsWith("RDATE")) ||
    ["BYSETPOS", "BYYEARDAY", "BYWEEKNO"].some((n) => part(n) !== undefined) ||
    (wkst !== "MO" &&
      part("FREQ") === "WEEKLY" &&
      Number(part("INTERVAL") ?? 1) > 1 &&
      (part("BYDAY") ?? "").split(",").length > 1)
  );
}

/** The body of a create of a generated series (its start moved to `start`). */
function createBody(g: GeneratedSeries, start: string) {
  const end = shifted(start, g.minutes);
  return g.allDay
    ? { start_date: start.slice(0, 10), end_date: end.slice(0, 10), all_day: true }
    : { start_date: start, end_date: end, timezone: g.zone };
}

/** Applies one write to one of the series' listed events; a 400 is an answer too (never a 5xx). */
async function apply(o: Op, seriesIds: number[], allDay: boolean, bound: string) {
  const id = seriesIds[o.pick % seriesIds.length];
  const events = (await listSeries(id, bound)).slice(1);
  const moved = events.filter((e) => {
    const s = startsOf(e, allDay);
    return s.start !== s.original;
  });
  const pool = o.kind === "back" ? moved : events;
  if (!pool.length) return;
  const e = pool[Math.floor(o.pick / seriesIds.length) % pool.length];
  // Up to three days either way: timed moves in steps of 4¼ hours, all-day ones by whole days.
  const minutes = allDay
    ? Math.sign(o.shift) * (1 + (Math.abs(o.shift) % 3)) * 1440
    : o.shift * 255;
  const dates = (start: string, end: string) =>
    allDay
      ? { start_date: start.slice(0, 10), end_date: end.slice(0, 10), all_day: true }
      : { start_date: start, end_date: end };
  const length =
    (DateTime.fromFormat(e.end_date, WP).toMillis() -
      DateTime.fromFormat(e.start_date, WP).toMillis()) /
    60000;
  const write = {
    move: () => ["PATCH", "", dates(shifted(e.start_date, minutes), shifted(e.end_date, minutes))],
    back: () => [
      "PATCH",
      "",
      {
        ...dates(e.series.occurrence_start, shifted(e.series.occurrence_start, length)),
        timezone: e.series.timezone,
      },
    ],
    keep: () => ["PATCH", "", { title: `Kept ${o.pick}` }],
    cancel: () => ["DELETE", "", undefined],
    split: () => ["PATCH", "?scope=following", { title: `Split ${o.pick}` }],
    end: () => ["DELETE", "?scope=following", undefined],
  }[o.kind]() as [string, string, Record<string, unknown> | undefined];
  const res = await api(`${NS}/events/${e.id}${write[1]}`, {
    method: write[0],
    headers: ADMIN,
    json: write[2],
  });
  expect([200, 400], `${o.kind} of ${e.id}: ${res.text}`).toContain(res.status);
  if (o.kind === "split" && res.status === 200 && !seriesIds.includes(res.body.series.id))
    seriesIds.push(res.body.series.id);
}

/** One batch: writes the series, applies the writes, compares; answers the differences and how many schedules were compared. */
async function runBatch(
  batch: Array<[GeneratedSeries, Op[]]>,
): Promise<{ failures: string[]; compared: number }> {
  const first = await oracle(
    batch.map(([g]) => ({ ...caseOf({ ...g, lines: [g.lines[0]] }, g.start), max: 2 })),
  );
  const starts = batch.map(([g], i) => {
    const a = first[i];
    return a.error === undefined && !a.synchronized && a.starts[1] ? a.starts[1][0] : g.start;
  });
  const reach = await oracle(batch.map(([g], i) => ({ ...caseOf(g, starts[i]), max: 45 })));
  const made: Array<{ g: GeneratedSeries; ops: Op[]; ids: number[]; bound: string }> = [];
  for (const [i, [g, ops]] of batch.entries()) {
    const a = reach[i];
    if (a.error !== undefined) continue;
    const bound = a.complete ? LAST : `${a.starts[a.starts.length - 1][0].slice(0, 10)} 00:00:00`;
    const res = await api(`${NS}/events`, {
      headers: ADMIN,
      json: { title: "Fuzz", ...createBody(g, starts[i]), recurrence: g.lines },
    });
    if (res.status !== 201) {
      expect(res.status, res.text).toBe(400);
      continue;
    }
    made.push({ g, ops, ids: [res.body.id], bound });
  }
  for (const m of made) for (const o of m.ops) await apply(o, m.ids, m.g.allDay, listEnd(m.bound));
  const checks: Array<{ label: string; want: string[]; schedule: any; bound: string }> = [];
  const failures: string[] = [];
  for (const m of made)
    for (const id of m.ids) {
      const label = `${JSON.stringify(m.g)} ops ${JSON.stringify(m.ops)} series ${id}`;
      const listedEvents = await listSeries(id, listEnd(m.bound));
      const want = listedEvents
        .filter((e) => e.series.occurrence_start < m.bound)
        .map((e) => startsOf(e, m.g.allDay))
        .filter((s) => s.start === s.original)
        .map((s) => s.start)
        .sort();
      const ld = (await api(`${NS}/events/${id}`)).body.json_ld;
      if (ld.eventSchedule)
        checks.push({ label, want, schedule: ld.eventSchedule, bound: m.bound });
      else if (!unsayable(listedEvents[0]?.series.recurrence ?? []))
        failures.push(`${label}: no eventSchedule for ${listedEvents[0]?.series.recurrence}`);
    }
  const answers = await oracle(checks.map((c) => scheduleCase(c.schedule, c.bound)));
  for (const [i, c] of checks.entries()) {
    const a = answers[i];
    const allDay = c.schedule.startTime === undefined;
    const got =
      a.error !== undefined
        ? [a.error]
        : a.starts.map(([local, utc]) => (allDay ? local.slice(0, 10) : utc)).sort();
    if (JSON.stringify(got) !== JSON.stringify(c.want))
      failures.push(
        `${c.label}: schedule ${JSON.stringify(c.schedule)} gives ${JSON.stringify(got)}, the list ${JSON.stringify(c.want)}`,
      );
  }
  return { failures, compared: checks.length };
}

/**
 * The oracle's case for a generated series' own lines from `start`, with a floating or date `UNTIL`
 * of a timed series in UTC, as the service stores it (dateutil refuses them beside a zoned DTSTART).
 */
function caseOf(g: GeneratedSeries, start: string): OracleCase {
  const lines = g.lines.map((l) =>
    l.replace(/UNTIL=(\d{8})(T\d{6})?(Z?)/, (all, day: string, time = "", z: string) => {
      if (g.allDay || z) return all;
      // A date is its whole day (contract §7.8), a floating time the series' wall clock.
      const local = DateTime.fromFormat(`${day}${time || "T235959"}`, "yyyyMMdd'T'HHmmss", {
        zone: g.zone,
      });
      return `UNTIL=${local.toUTC().toFormat("yyyyMMdd'T'HHmmss")}Z`;
    }),
  );
  return { start, zone: g.zone, allDay: g.allDay, lines, before: LAST, max: 45 };
}
/** Where the lists end: ten days past the bound (moves reach three). */
const listEnd = (bound: string) => shifted(bound, 10 * 1440).slice(0, 10);

describe("JSON-LD eventSchedule = the occurrences where the rule put them (python-dateutil)", () => {
  const total = Math.max(BATCH, Math.round(DEEP * SCALE));
  const batches = Math.ceil(total / BATCH);
  it(
    `${total} generated series with moves, cancellations and splits: 0 differences`,
    async () => {
      const failures: string[] = [];
      let compared = 0;
      for (let b = 0; b < batches; b++) {
        const run = await runBatch(fc.sample(cases, { numRuns: BATCH, seed: SEED + b }));
        failures.push(...run.failures);
        compared += run.compared;
      }
      expect(failures.slice(0, 5), `${failures.length} differ`).toEqual([]);
      // Most series are ones the Schedule can say (and each split adds one).
      expect(compared).toBeGreaterThanOrEqual(total / 3);
    },
    60_000 + batches * 60_000,
  );
});
