/**
 * The rule's wall clocks (RFC 5545 §3.3.10) in floating time: the dates a rule gives, at the time of
 * day of its DTSTART (no `BYHOUR`, `BYMINUTE`, `BYSECOND`: one start a day), so that a weekly 19:00
 * stays 19:00 across DST changes; the caller reads each in the series' zone (src/events/series/expand.ts).
 *
 * The algorithm is python-dateutil's `rrule` (the expander the tests compare with, and the one
 * RFC 5545 readers agree with): period by period (a year, month, week from `WKST` or day, every
 * `INTERVAL`th), the period's days less those a `BY…` part leaves out, then `BYSETPOS`, then the
 * starts from DTSTART on, `COUNT` and `UNTIL`. Written here, not taken from a package, because
 * neither JavaScript expander at hand is exact: ical.js expands `BYWEEKNO` wrongly
 * (`FREQ=YEARLY;BYWEEKNO=-1;BYDAY=MO` gives every Monday) and rrule.js (npm `rrule`) reads a
 * negative `BYSETPOS` past the period's days as the first day (`FREQ=WEEKLY;BYSETPOS=-2` gives every
 * week, where there is no second-to-last day); and both step through periods up to the year 9999
 * looking for an instance that never comes, which costs seconds: here the expansion stops at the
 * bound asked for, and refuses a rule that needs more than `MAX_PERIODS` periods to get there.
 */
import { RecurrenceError } from "./lines";

/**
 * Most periods (days of a `DAILY` rule, weeks of a `WEEKLY` one …) an expansion may step through:
 * about 137 years of days. More is a 400 naming `recurrence` (`recurrence_span`).
 */
export const MAX_PERIODS = 50_000;

const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a date (proleptic Gregorian). */
const dayNumber = (y: number, m: number, d: number) => {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  return Math.round(t.getTime() / DAY_MS);
};
/** The date of a day number. */
const dateOf = (n: number) => {
  const t = new Date(n * DAY_MS);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
};
/** 0 Monday … 6 Sunday. */
const weekdayOf = (n: number) => (((n + 3) % 7) + 7) % 7;
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const pymod = (a: number, b: number) => ((a % b) + b) % b;

/** A rule's parts, read. */
interface Rule {
  freq: "YEARLY" | "MONTHLY" | "WEEKLY" | "DAILY";
  interval: number;
  count: number | null;
  wkst: number;
  bymonth: number[];
  byweekno: number[];
  byyearday: number[];
  bymonthday: number[];
  bynmonthday: number[];
  byweekday: number[];
  bynweekday: Array<[number, number]>;
  bysetpos: number[];
}

const ints = (v: string | undefined) => (v ? v.split(",").map(Number) : []);

/** The parts of `RRULE` (values checked by src/events/series/lines.ts), with dateutil's defaults from DTSTART. */
function readRule(parts: ReadonlyArray<readonly [string, string]>, start: number): Rule {
  const get = (name: string) => parts.find(([n]) => n === name)?.[1];
  const freq = get("FREQ") as Rule["freq"];
  const rule: Rule = {
    freq,
    interval: Number(get("INTERVAL") ?? 1),
    count: get("COUNT") ? Number(get("COUNT")) : null,
    wkst: WEEKDAYS.indexOf(get("WKST") ?? "MO"),
    bymonth: ints(get("BYMONTH")),
    byweekno: ints(get("BYWEEKNO")),
    byyearday: ints(get("BYYEARDAY")),
    bymonthday: ints(get("BYMONTHDAY")).filter((d) => d > 0),
    bynmonthday: ints(get("BYMONTHDAY")).filter((d) => d < 0),
    byweekday: [],
    bynweekday: [],
    bysetpos: ints(get("BYSETPOS")),
  };
  const byday = get("BYDAY")?.split(",") ?? [];
  for (const item of byday) {
    const wd = WEEKDAYS.indexOf(item.slice(-2));
    const n = item.length > 2 ? Number(item.slice(0, -2)) : 0;
    if (!n || freq === "WEEKLY" || freq === "DAILY") rule.byweekday.push(wd);
    else rule.bynweekday.push([wd, n]);
  }
  if (!rule.byweekno.length && !rule.byyearday.length && !get("BYMONTHDAY") && !byday.length) {
    const { m, d } = dateOf(start);
    if (freq === "YEARLY") {
      if (!rule.bymonth.length) rule.bymonth = [m];
      rule.bymonthday = [d];
    } else if (freq === "MONTHLY") rule.bymonthday = [d];
    else if (freq === "WEEKLY") rule.byweekday = [weekdayOf(start)];
  }
  return rule;
}

/** What a year's days are (dateutil's masks), for the day indexes 0 … yearlen + 6 from 1 January. */
class Year {
  readonly first: number;
  readonly len: number;
  readonly month: number[] = [];
  readonly mday: number[] = [];
  readonly nmday: number[] = [];
  readonly wday: number[] = [];
  /** Day index where each month begins, and where the year ends. */
  readonly mrange: number[] = [];
  readonly wno: boolean[] | null = null;

  constructor(
    readonly year: number,
    rule: Rule,
  ) {
    this.first = dayNumber(year, 1, 1);
    this.len = isLeap(year) ? 366 : 365;
    for (let i = 0; i < this.len + 7; i++) {
      const { y, m, d } = dateOf(this.first + i);
      const monthLen = new Date(Date.UTC(y, m, 0)).getUTCDate();
      this.month.push(m);
      this.mday.push(d);
      this.nmday.push(d - monthLen - 1);
      this.wday.push(weekdayOf(this.first + i));
    }
    for (let m = 1; m <= 12; m++) this.mrange.push(dayNumber(year, m, 1) - this.first);
    this.mrange.push(this.len);
    if (rule.byweekno.length) this.wno = this.weekNumbers(rule);
  }

  /** The days of the weeks `BYWEEKNO` names (ISO 8601 weeks from `WKST`: week 1 has 4 days of the year). */
  private weekNumbers(rule: Rule): boolean[] {
    const mask = new Array<boolean>(this.len + 7).fill(false);
    const wkst = rule.wkst;
    const yearWeekday = this.wday[0];
    let no1wkst = pymod(7 - yearWeekday + wkst, 7);
    const firstwkst = no1wkst;
    let wyearlen: number;
    if (no1wkst >= 4) {
      no1wkst = 0;
      wyearlen = this.len + pymod(yearWeekday - wkst, 7);
    } else wyearlen = this.len - no1wkst;
    const numweeks = Math.floor(wyearlen / 7) + Math.floor((wyearlen % 7) / 4);
    const markWeek = (from: number) => {
      let i = from;
      for (let j = 0; j < 7; j++) {
        mask[i] = true;
        i++;
        if (this.wday[i] === wkst) break;
      }
    };
    for (let n of rule.byweekno) {
      if (n < 0) n += numweeks + 1;
      if (!(n > 0 && n <= numweeks)) continue;
      let i: number;
      if (n > 1) {
        i = no1wkst + (n - 1) * 7;
        if (no1wkst !== firstwkst) i -= 7 - firstwkst;
      } else i = no1wkst;
      markWeek(i);
    }
    if (rule.byweekno.includes(1)) {
      // Week 1 of the next year may begin in this one.
      let i = no1wkst + numweeks * 7;
      if (no1wkst !== firstwkst) i -= 7 - firstwkst;
      if (i < this.len) markWeek(i);
    }
    if (no1wkst) {
      // The days before this year's week 1 are the last week of the year before.
      let lnumweeks: number;
      if (!rule.byweekno.includes(-1)) {
        const lyearweekday = weekdayOf(dayNumber(this.year - 1, 1, 1));
        let lno1wkst = pymod(7 - lyearweekday + wkst, 7);
        const lyearlen = isLeap(this.year - 1) ? 366 : 365;
        if (lno1wkst >= 4) {
          lno1wkst = 0;
          lnumweeks = 52 + Math.floor(pymod(lyearlen + pymod(lyearweekday - wkst, 7), 7) / 4);
        } else lnumweeks = 52 + Math.floor(pymod(this.len - no1wkst, 7) / 4);
      } else lnumweeks = -1;
      if (rule.byweekno.includes(lnumweeks)) for (let i = 0; i < no1wkst; i++) mask[i] = true;
    }
    return mask;
  }

  /** The days of the ordinal weekdays (`BYDAY=2TU`) within the year, or month `month` of a `MONTHLY` rule. */
  nthWeekdays(rule: Rule, month: number): boolean[] {
    const mask = new Array<boolean>(this.len + 7).fill(false);
    const ranges: Array<[number, number]> = [];
    if (rule.freq === "YEARLY") {
      if (rule.bymonth.length)
        for (const m of rule.bymonth) ranges.push([this.mrange[m - 1], this.mrange[m]]);
      else ranges.push([0, this.len]);
    } else ranges.push([this.mrange[month - 1], this.mrange[month]]);
    for (const [first, end] of ranges) {
      const last = end - 1;
      for (const [wd, n] of rule.bynweekday) {
        let i: number;
        if (n < 0) {
          i = last + (n + 1) * 7;
          i -= pymod(this.wday[i] - wd, 7);
        } else {
          i = first + (n - 1) * 7;
          i += pymod(7 - this.wday[i] + wd, 7);
        }
        if (first <= i && i <= last) mask[i] = true;
      }
    }
    return mask;
  }
}

/** Whether day `i` of `year` stays (no `BY…` part leaves it out). */
function kept(rule: Rule, y: Year, nth: boolean[] | null, i: number): boolean {
  if (rule.bymonth.length && !rule.bymonth.includes(y.month[i])) return false;
  if (y.wno && !y.wno[i]) return false;
  if (rule.byweekday.length && !rule.byweekday.includes(y.wday[i])) return false;
  if (nth && !nth[i]) return false;
  if (
    (rule.bymonthday.length || rule.bynmonthday.length) &&
    !rule.bymonthday.includes(y.mday[i]) &&
    !rule.bynmonthday.includes(y.nmday[i])
  )
    return false;
  if (rule.byyearday.length) {
    const nextLen = isLeap(y.year + 1) ? 366 : 365;
    const ok =
      i < y.len
        ? rule.byyearday.includes(i + 1) || rule.byyearday.includes(-y.len + i)
        : rule.byyearday.includes(i + 1 - y.len) || rule.byyearday.includes(-nextLen + i - y.len);
    if (!ok) return false;
  }
  return true;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const localDate = (n: number) => {
  const { y, m, d } = dateOf(n);
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
};

/**
 * The state of the expansion (`year`, `month`, `day`) at the period before the one holding the day
 * `target`, as the periods' arithmetic from `start` gives it (dateutil's: `INTERVAL` years, months,
 * days, or weeks from the start's week, aligned to `WKST`); the start's own when that is no later.
 */
function skipTo(
  rule: Rule,
  start: number,
  target: number,
): { year: number; month: number; day: number } {
  const { y, m } = dateOf(start);
  const at = { year: y, month: m, day: start };
  const step = rule.interval;
  if (rule.freq === "YEARLY") {
    const k = Math.floor((dateOf(target).y - y) / step) - 1;
    if (k >= 1) at.year = y + k * step;
  } else if (rule.freq === "MONTHLY") {
    const t = dateOf(target);
    const k = Math.floor((t.y * 12 + t.m - (y * 12 + m)) / step) - 1;
    if (k >= 1) {
      const index = y * 12 + (m - 1) + k * step;
      at.year = Math.floor(index / 12);
      at.month = pymod(index, 12) + 1;
    }
  } else {
    // WEEKLY: the first period runs from the start to its week's end, each next one starts a week.
    const base = rule.freq === "WEEKLY" ? start - pymod(weekdayOf(start) - rule.wkst, 7) : start;
    const span = rule.freq === "WEEKLY" ? step * 7 : step;
    const k = Math.floor((target - base) / span) - 1;
    if (k >= 1) {
      at.day = base + k * span;
      ({ y: at.year, m: at.month } = dateOf(at.day));
    }
  }
  return at;
}

/**
 * The wall clocks a rule gives from `dtstart` (local `Y-m-d H:i:s`), in order, before `before`
 * (local, exclusive) and at most `limit`; `done` when the rule has no more (its `COUNT`, or its
 * `untilLocal` — a local bound, inclusive — reached).
 * @param parts the `RRULE` parts but `UNTIL` (src/events/series/lines.ts `Recurrence.rule`), values checked.
 * @param from when given (a local wall clock), the starts before it may be left out — and for a rule
 *   without `COUNT` the periods far before it are not expanded (`skipTo`); callers filter.
 * @throws RecurrenceError `recurrence_span` (value: `MAX_PERIODS`) for a rule that needs more
 *   periods than that to reach `before`.
 * @example ruleWallClocks([["FREQ","WEEKLY"],["COUNT","2"]], "2027-03-28 02:30:00", "2029-01-01 00:00:00", 10) // { starts: ["2027-03-28 02:30:00", "2027-04-04 02:30:00"], done: true }
 */
export function ruleWallClocks(
  parts: ReadonlyArray<readonly [string, string]>,
  dtstart: string,
  before: string,
  limit: number,
  untilLocal: string | null = null,
  from: string | null = null,
): { starts: string[]; done: boolean } {
  const time = dtstart.slice(11);
  const start = dayNumber(
    Number(dtstart.slice(0, 4)),
    Number(dtstart.slice(5, 7)),
    Number(dtstart.slice(8, 10)),
  );
  const rule = readRule(parts, start);
  const lastYear = Number(before.slice(0, 4));
  const starts: string[] = [];
  let count = rule.count;
  let { y: year, m: month } = dateOf(start);
  let day = start;
  let info = new Year(year, rule);
  let nth: boolean[] | null = null;
  let nthKey = "";
  if (from !== null && rule.count === null && from > dtstart) {
    // Periods before the one before `from`'s are passed over by arithmetic (the next period is a
    // function of the current one alone): what a window far from the start costs does not grow
    // with the distance. A COUNT counts from the start, so it expands every period.
    ({ year, month, day } = skipTo(
      rule,
      start,
      dayNumber(Number(from.slice(0, 4)), Number(from.slice(5, 7)), Number(from.slice(8, 10))),
    ));
    info = new Year(year, rule);
  }
  for (let periods = 0; ; periods++) {
    if (periods > MAX_PERIODS) throw new RecurrenceError("recurrence_span", [MAX_PERIODS]);
    if (year > lastYear) return { starts, done: false };
    if (info.year !== year) info = new Year(year, rule);
    if (rule.bynweekday.length && nthKey !== `${year}-${month}`) {
      nth = info.nthWeekdays(rule, month);
      nthKey = `${year}-${month}`;
    }
    // The period's days (indexes from 1 January of `year`).
    let days: number[] = [];
    if (rule.freq === "YEARLY") days = Array.from({ length: info.len }, (_, i) => i);
    else if (rule.freq === "MONTHLY")
      for (let i = info.mrange[month - 1]; i < info.mrange[month]; i++) days.push(i);
    else if (rule.freq === "WEEKLY") {
      let i = day - info.first;
      for (let j = 0; j < 7; j++) {
        days.push(i);
        i++;
        if (info.wday[i] === rule.wkst) break;
      }
    } else days.push(day - info.first);
    days = days.filter((i) => kept(rule, info, nth, i));
    if (rule.bysetpos.length) {
      const chosen = new Set<number>();
      for (const pos of rule.bysetpos) {
        const at = pos > 0 ? pos - 1 : days.length + pos;
        if (at >= 0 && at < days.length) chosen.add(days[at]);
      }
      days = [...chosen].sort((a, b) => a - b);
    }
    for (const i of days) {
      const n = info.first + i;
      if (n < start) continue;
      const local = `${localDate(n)} ${time}`;
      if (untilLocal !== null && local > untilLocal) return { starts, done: true };
      if (local >= before || starts.length >= limit) return { starts, done: false };
      starts.push(local);
      if (count !== null && --count === 0) return { starts, done: true };
    }
    // The next period.
    if (rule.freq === "YEARLY") year += rule.interval;
    else if (rule.freq === "MONTHLY") {
      month += rule.interval;
      year += Math.floor((month - 1) / 12);
      month = pymod(month - 1, 12) + 1;
    } else {
      if (rule.freq === "WEEKLY") {
        const wd = weekdayOf(day);
        day +=
          (rule.wkst > wd ? -(wd + 1 + (6 - rule.wkst)) : -(wd - rule.wkst)) + rule.interval * 7;
      } else day += rule.interval;
      ({ y: year, m: month } = dateOf(day));
    }
  }
}
