/**
 * The rule builder's state and its translation to and from `recurrence` lines (contract §7.8): what
 * people use — daily, weekly on chosen weekdays, monthly on the start's day or on "the second
 * Tuesday" (`BYDAY=2TU`, "last" `-1`), yearly; every N (`INTERVAL`); ending never, on a date
 * (`UNTIL`) or after N occurrences (`COUNT`); exceptions (`EXDATE`). Lines the builder cannot say
 * are kept as text ("advanced") and sent as they are.
 *
 * Values are written as RFC 5545 asks for the event's zone and as the API stores them: `UNTIL` in
 * UTC for a series with times (the end of the chosen day in the event's zone), a date for an
 * all-day series; `EXDATE` with the event's `TZID` at the start's time of day (`VALUE=DATE` for
 * all-day series). An event without a zone of its own (the site's) gets floating values, which the
 * API reads in the event's zone.
 */

/** `FREQ`, or `none` for a single event. */
export type Freq = "none" | "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";

/** RFC 5545 weekdays, Monday first. */
export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;

/** The ordinals of "the second Tuesday": first to fourth, and last (`-1`). */
export const ORDINALS = [1, 2, 3, 4, -1] as const;

/** What the builder holds. Dates `YYYY-MM-DD`. */
export interface RuleState {
  /** The lines as text, sent as they are (lines the builder cannot say). */
  advanced: boolean;
  text: string;
  freq: Freq;
  interval: number;
  /** Weekly: the weekdays (`TU`); none = the start's. */
  weekdays: string[];
  /** Monthly: on the start's day of the month, or on its weekday's ordinal ("second Tuesday"). */
  monthly: "day" | "weekday";
  ordinal: number;
  end: "never" | "until" | "count";
  until: string;
  count: number;
  /** Dates whose occurrence is cancelled. */
  exdates: string[];
}

/** What of the event the lines depend on: its start and zone. */
export interface RuleDates {
  startDate: string;
  startTime: string;
  allDay: boolean;
  /** IANA name, `UTC±H[:MM]`, or empty (the site's zone). */
  timezone: string;
}

/** A single event's builder: no repetition (weekly, on the start's day, if chosen). */
export const noRule = (): RuleState => ({
  advanced: false,
  text: "",
  freq: "none",
  interval: 1,
  weekdays: [],
  monthly: "day",
  ordinal: 1,
  end: "never",
  until: "",
  count: 10,
  exdates: [],
});

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** The weekday (`TU`) of a `YYYY-MM-DD` date. */
export function weekdayOf(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return WEEKDAYS[(new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7];
}

/** The ordinal of the date's weekday in its month (1–4; -1 for a fifth). */
export function ordinalOf(date: string): number {
  const n = Math.ceil(Number(date.slice(8, 10)) / 7);
  return n > 4 ? -1 : n;
}

/** The zone's offset from UTC in minutes at an instant; null for a zone the browser does not know. */
function offsetAt(timezone: string, ms: number): number | null {
  const fixed = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(timezone);
  if (fixed) return (fixed[1] === "-" ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3] ?? 0));
  if (timezone === "UTC") return 0;
  try {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).formatToParts(new Date(ms));
    const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
    return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
  } catch {
    return null;
  }
}

/** `YYYYMMDDTHHMMSS` of a wall clock in ms (its UTC fields). */
const compact = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
};

/** `YYYYMMDD` of `YYYY-MM-DD`. */
const day = (date: string) => date.replaceAll("-", "");

/** The `UNTIL` value for the last day `date` in the event's frame. */
function untilValue(date: string, dates: RuleDates): string {
  if (dates.allDay) return day(date);
  const [y, m, d] = date.split("-").map(Number);
  const wall = Date.UTC(y, m - 1, d, 23, 59, 59);
  const first = dates.timezone ? offsetAt(dates.timezone, wall) : null;
  if (first === null) return `${day(date)}T235959`;
  const second = offsetAt(dates.timezone, wall - first * 60_000) ?? first;
  return `${compact(wall - second * 60_000)}Z`;
}

/** The `EXDATE` line of the exceptions, as the API writes it (one line, the values in order). */
function exdateLine(exdates: string[], dates: RuleDates): string | null {
  if (!exdates.length) return null;
  const sorted = [...new Set(exdates)].sort();
  if (dates.allDay) return `EXDATE;VALUE=DATE:${sorted.map(day).join(",")}`;
  const time = `T${dates.startTime.replace(":", "")}00`;
  const values = sorted.map((d) => `${day(d)}${time}`).join(",");
  return dates.timezone ? `EXDATE;TZID=${dates.timezone}:${values}` : `EXDATE:${values}`;
}

/**
 * The `recurrence` lines of the builder's state for an event with these dates (`[]`: no
 * repetition).
 * @example linesOf({ ...noRule(), freq: "WEEKLY", weekdays: ["TU"], end: "count", count: 6 }, dates) // ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6"]
 */
export function linesOf(rule: RuleState, dates: RuleDates): string[] {
  if (rule.advanced)
    return rule.text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
  if (rule.freq === "none") return [];
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval > 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.freq === "WEEKLY" && rule.weekdays.length)
    parts.push(`BYDAY=${WEEKDAYS.filter((w) => rule.weekdays.includes(w)).join(",")}`);
  if (rule.freq === "MONTHLY" && rule.monthly === "weekday")
    parts.push(`BYDAY=${rule.ordinal}${weekdayOf(dates.startDate)}`);
  if (rule.end === "count") parts.push(`COUNT=${rule.count}`);
  if (rule.end === "until" && rule.until) parts.push(`UNTIL=${untilValue(rule.until, dates)}`);
  const exdates = exdateLine(rule.exdates, dates);
  return [`RRULE:${parts.join(";")}`, ...(exdates ? [exdates] : [])];
}

/** `YYYY-MM-DD` of a `YYYYMMDD…` value. */
const dashed = (v: string) => `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;

/** The local date a stored `UNTIL` names in the event's frame (the last day an occurrence starts). */
function untilDate(value: string, dates: RuleDates): string | null {
  const m = /^(\d{8})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(value);
  if (!m) return null;
  if (!m[2] || !m[5]) return dashed(m[1]);
  const utc = Date.UTC(
    Number(m[1].slice(0, 4)),
    Number(m[1].slice(4, 6)) - 1,
    Number(m[1].slice(6, 8)),
    Number(m[2]),
    Number(m[3]),
    Number(m[4]),
  );
  const offset = offsetAt(dates.timezone || "UTC", utc);
  if (offset === null) return null;
  const local = new Date(utc + offset * 60_000).toISOString();
  // A bound before the start's time of day ends the series the day before.
  const before = local.slice(11, 16) < (dates.allDay ? "00:00" : dates.startTime);
  if (!before) return local.slice(0, 10);
  return new Date(Date.parse(local.slice(0, 10)) - 86_400_000).toISOString().slice(0, 10);
}

/** Reads the `RRULE` into the state; null when the builder cannot say it. */
function readRule(value: string, dates: RuleDates, into: RuleState): boolean {
  const parts = new Map<string, string>();
  for (const piece of value.split(";")) {
    const [name, v] = piece.split("=");
    if (!name || v === undefined || parts.has(name.toUpperCase())) return false;
    parts.set(name.toUpperCase(), v.toUpperCase());
  }
  const freq = parts.get("FREQ") as Freq | undefined;
  if (!freq || !["DAILY", "WEEKLY", "MONTHLY", "YEARLY"].includes(freq)) return false;
  into.freq = freq;
  for (const [name, v] of parts) {
    if (name === "FREQ") continue;
    if (name === "INTERVAL" && /^\d+$/.test(v)) into.interval = Number(v);
    else if (name === "COUNT" && /^\d+$/.test(v))
      Object.assign(into, { end: "count", count: Number(v) });
    else if (name === "UNTIL") {
      const until = untilDate(v, dates);
      if (!until) return false;
      Object.assign(into, { end: "until", until });
    } else if (
      name === "BYDAY" &&
      freq === "WEEKLY" &&
      /^(MO|TU|WE|TH|FR|SA|SU)(,(MO|TU|WE|TH|FR|SA|SU))*$/.test(v)
    )
      into.weekdays = v.split(",");
    else if (name === "BYDAY" && freq === "MONTHLY") {
      const m = /^(-1|[1-4])(MO|TU|WE|TH|FR|SA|SU)$/.exec(v);
      if (!m || m[2] !== weekdayOf(dates.startDate)) return false;
      Object.assign(into, { monthly: "weekday", ordinal: Number(m[1]) });
    } else if (
      name === "BYMONTHDAY" &&
      freq === "MONTHLY" &&
      Number(v) === Number(dates.startDate.slice(8, 10))
    ) {
      into.monthly = "day";
    } else return false;
  }
  return true;
}

/** Reads an `EXDATE` line's dates into the state; false when one is not at the start's time. */
function readExdates(line: string, dates: RuleDates, into: RuleState): boolean {
  const m = /^EXDATE((?:;[^:]*)?):(.+)$/i.exec(line);
  if (!m) return false;
  const time = dates.allDay ? "" : `${dates.startTime.replace(":", "")}00`;
  for (const value of m[2].split(",")) {
    const v = /^(\d{8})(?:T(\d{6}))?$/.exec(value.trim());
    if (!v || (v[2] ?? "") !== time) return false;
    into.exdates.push(dashed(v[1]));
  }
  return true;
}

/**
 * The builder's state for stored lines (`series.recurrence`), read in the event's frame: the
 * builder's own when it can say them, else `advanced` with the lines as text.
 */
export function ruleOf(lines: readonly string[], dates: RuleDates): RuleState {
  const rule = noRule();
  if (!lines.length) return rule;
  const advanced = { ...rule, advanced: true, text: lines.join("\n") };
  let rules = 0;
  for (const line of lines) {
    const rrule = /^RRULE:(.+)$/i.exec(line);
    if (rrule) {
      rules++;
      if (!readRule(rrule[1], dates, rule)) return advanced;
    } else if (!readExdates(line, dates, rule)) return advanced;
  }
  return rules === 1 ? rule : advanced;
}
