/**
 * Generated series (fast-check) for the comparisons with the independent RFC 5545 expander: every
 * `FREQ` the API accepts, `BYDAY` with ordinals, negative `BYMONTHDAY`, `BYSETPOS`, `BYWEEKNO`,
 * `BYYEARDAY`, `WKST`, `COUNT`, `UNTIL` in UTC, floating and as a date, `RDATE`/`EXDATE` (floating,
 * UTC, with a `TZID` of another zone, dates), starts in DST gaps and overlaps, and zones with odd
 * offsets and odd shifts (Asia/Kolkata, Australia/Lord_Howe's half-hour DST, America/St_Johns).
 */
import fc from "fast-check";
import { DateTime } from "luxon";

/** The zones the series are written in. */
export const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "America/St_Johns",
  "Australia/Lord_Howe",
  "Asia/Kolkata",
  "Pacific/Auckland",
  "UTC",
];

/** A generated series: what a client sends. */
export interface GeneratedSeries {
  zone: string;
  allDay: boolean;
  /** The event's `start_date`, local `Y-m-d H:i:s`. */
  start: string;
  /** Minutes the event lasts. */
  minutes: number;
  /** `recurrence` as sent. */
  lines: string[];
}

const WP = "yyyy-MM-dd HH:mm:ss";
const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/** Local days in 2026–2029 whose offset changes (DST), per zone: where gaps and overlaps are. */
function transitions(zone: string): string[] {
  const out: string[] = [];
  let day = DateTime.fromObject({ year: 2026, month: 1, day: 1 }, { zone });
  while (day.year < 2030) {
    if (day.offset !== day.plus({ hours: 23, minutes: 59 }).offset) out.push(day.toISODate()!);
    day = day.plus({ days: 1 });
  }
  return out;
}
const TRANSITIONS = new Map(ZONES.map((z) => [z, transitions(z)]));

/** Times of day near DST changes (gaps at 02:00–03:00 or 02:00–02:30, overlaps at 01:00–02:00, 02:00–03:00, 01:30–02:00). */
const TIMES = ["02:30:00", "02:15:00", "02:00:00", "01:30:00", "01:45:00", "02:45:00", "00:30:00"];

const compact = (local: string, date = false) =>
  date ? local.slice(0, 10).replaceAll("-", "") : local.replace(/[-:]/g, "").replace(" ", "T");

const some = <T>(arb: fc.Arbitrary<T>, max: number, selector: (x: T) => unknown = (x) => x) =>
  fc.uniqueArray(arb, { minLength: 1, maxLength: max, selector });
const signed = (max: number) => fc.integer({ min: 1, max }).chain((n) => fc.constantFrom(n, -n));

/** The `BY…` parts of a rule of `freq` (RFC 5545 §3.3.10's table of where each may stand). */
function byParts(freq: string): fc.Arbitrary<string[]> {
  const byday = (ordinalMax: number) =>
    some(
      fc.tuple(
        ordinalMax ? fc.option(signed(ordinalMax), { freq: 2 }) : fc.constant(null),
        fc.constantFrom(...DAYS),
      ),
      3,
      ([, d]) => d,
    ).map((xs) => `BYDAY=${xs.map(([n, d]) => `${n ?? ""}${d}`).join(",")}`);
  const monthday = some(fc.oneof(signed(28), signed(31)), 3).map((xs) => `BYMONTHDAY=${xs}`);
  const month = some(fc.integer({ min: 1, max: 12 }), 4).map((xs) => `BYMONTH=${xs}`);
  const setpos = some(signed(4), 2).map((xs) => `BYSETPOS=${xs}`);
  const wkst = fc.constantFrom(...DAYS).map((d) => `WKST=${d}`);
  const opt = (arb: fc.Arbitrary<string>, freq = 3) =>
    fc.option(arb, { freq }).map((x) => (x === null ? [] : [x]));
  const all = (...arbs: fc.Arbitrary<string[]>[]) => fc.tuple(...arbs).map((xs) => xs.flat());
  switch (freq) {
    case "DAILY":
      return all(opt(byday(0)), opt(monthday, 5), opt(month, 4));
    case "WEEKLY":
      return all(opt(byday(0), 2), opt(month, 5), opt(wkst, 2), opt(setpos, 6));
    case "MONTHLY":
      return fc.oneof(
        all(
          byday(5).map((x) => [x]),
          opt(setpos, 3),
          opt(month, 5),
          opt(wkst, 4),
        ),
        all(
          monthday.map((x) => [x]),
          opt(byday(0), 4),
          opt(setpos, 5),
          opt(month, 5),
        ),
        all(opt(month, 4), opt(wkst, 4)),
      );
    default:
      return fc.oneof(
        all(opt(month, 2), opt(byday(53), 2), opt(monthday, 4), opt(setpos, 4), opt(wkst, 3)),
        all(
          some(signed(53), 2).map((xs) => [`BYWEEKNO=${xs}`]),
          opt(byday(0), 1),
          opt(wkst, 2),
          opt(setpos, 6),
        ),
        all(
          some(fc.oneof(signed(60), signed(366)), 3).map((xs) => [`BYYEARDAY=${xs}`]),
          opt(byday(0), 4),
          opt(month, 5),
        ),
      );
  }
}

/** A generated series (see the module comment). */
export const series: fc.Arbitrary<GeneratedSeries> = fc
  .record({
    zone: fc.constantFrom(...ZONES),
    allDay: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    freq: fc.constantFrom("DAILY", "WEEKLY", "MONTHLY", "YEARLY"),
    interval: fc.option(fc.integer({ min: 1, max: 3 }), { freq: 2 }),
    nearTransition: fc.boolean(),
    dayIndex: fc.nat(),
    offsetDays: fc.integer({ min: -40, max: 2 }),
    time: fc.oneof(
      fc.constantFrom(...TIMES),
      fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30))
        .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:00`),
    ),
    minutes: fc.constantFrom(30, 60, 90, 150, 24 * 60 + 30),
    end: fc.oneof(
      fc.integer({ min: 1, max: 40 }).map((n) => ({ count: n })),
      fc.record({
        untilDays: fc.integer({ min: 0, max: 700 }),
        untilTime: fc.constantFrom(...TIMES, "23:59:59", "12:00:00"),
        form: fc.constantFrom("utc", "floating", "date"),
      }),
      fc.constant(null),
    ),
    extra: fc.array(
      fc.record({
        kind: fc.constantFrom("RDATE", "EXDATE"),
        days: fc.integer({ min: 0, max: 400 }),
        form: fc.constantFrom("tzid", "utc", "floating", "date", "other-zone"),
        sameTime: fc.boolean(),
      }),
      { maxLength: 4 },
    ),
  })
  .chain((g) => byParts(g.freq).map((by) => ({ ...g, by })))
  .map((g): GeneratedSeries => {
    const zone = g.zone;
    const days = TRANSITIONS.get(zone)!;
    const base =
      g.nearTransition && days.length
        ? DateTime.fromISO(days[g.dayIndex % days.length], { zone: "utc" }).plus({
            days: g.offsetDays,
          })
        : DateTime.fromISO("2026-12-01", { zone: "utc" }).plus({ days: g.dayIndex % 700 });
    const start = `${base.toISODate()} ${g.allDay ? "00:00:00" : g.time}`;
    const parts = [`FREQ=${g.freq}`, ...(g.interval ? [`INTERVAL=${g.interval}`] : []), ...g.by];
    if (g.end && "count" in g.end) parts.push(`COUNT=${g.end.count}`);
    else if (g.end) {
      const day = base.plus({ days: g.end.untilDays }).toISODate()!;
      const local = `${day} ${g.end.untilTime}`;
      if (g.allDay || g.end.form === "date") parts.push(`UNTIL=${compact(local, true)}`);
      else if (g.end.form === "floating") parts.push(`UNTIL=${compact(local)}`);
      else {
        const utc = DateTime.fromFormat(local, WP, { zone }).toUTC().toFormat(WP);
        parts.push(`UNTIL=${compact(utc)}Z`);
      }
    }
    const lines = [`RRULE:${parts.join(";")}`];
    for (const x of g.extra) {
      const day = base.plus({ days: x.days }).toISODate()!;
      const local = `${day} ${x.sameTime ? start.slice(11) : "12:30:00"}`;
      if (g.allDay || x.form === "date") lines.push(`${x.kind};VALUE=DATE:${compact(local, true)}`);
      else if (x.form === "tzid") lines.push(`${x.kind};TZID=${zone}:${compact(local)}`);
      else if (x.form === "floating") lines.push(`${x.kind}:${compact(local)}`);
      else if (x.form === "utc") {
        const utc = DateTime.fromFormat(local, WP, { zone }).toUTC().toFormat(WP);
        lines.push(`${x.kind}:${compact(utc)}Z`);
      } else {
        const other = DateTime.fromFormat(local, WP, { zone }).setZone("America/Los_Angeles");
        lines.push(`${x.kind};TZID=America/Los_Angeles:${compact(other.toFormat(WP))}`);
      }
    }
    return { zone, allDay: g.allDay, start, minutes: g.minutes, lines };
  });
