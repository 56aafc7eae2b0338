/**
 * Calendar arithmetic of the month view on `Y-m-d` strings (calendar dates, no time zone: each
 * event's dates are its own wall clock, §6.2, so no date here is ever converted between zones).
 */

const DAY_MS = 86_400_000;

const dayAt = (day: string) => Date.parse(`${day}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * `day` moved by `n` days.
 * @example addDays("2027-03-01", -1) // "2027-02-28"
 */
export const addDays = (day: string, n: number) => isoDay(dayAt(day) + n * DAY_MS);

/**
 * `month` (`Y-m`) moved by `delta` months.
 * @example shiftMonth("2027-01", -1) // "2026-12"
 */
export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split("-").map(Number);
  return isoDay(Date.UTC(y, m - 1 + delta, 1)).slice(0, 7);
}

/** The browser's date today as `Y-m-d` (its own clock and zone: "today" for the person looking). */
export function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The days the grid of `month` shows: whole weeks from the week of the 1st to the week of the
 * last day, each week starting on `firstDay` (0 Sunday … 6 Saturday).
 * @example visibleDays("2027-03", 1)[0] // "2027-03-01" (a Monday)
 */
export function visibleDays(month: string, firstDay: number): string[] {
  const first = `${month}-01`;
  const lead = (new Date(dayAt(first)).getUTCDay() - firstDay + 7) % 7;
  const [y, m] = month.split("-").map(Number);
  const length = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const weeks = Math.ceil((lead + length) / 7);
  const start = addDays(first, -lead);
  return Array.from({ length: weeks * 7 }, (_, i) => addDays(start, i));
}

/**
 * The days an event is on, within `[from, to]`: from its start date to its end date; an event
 * that is not all-day and ends at midnight is not on the day it ends.
 * @param start the event's `start_date` (`Y-m-d H:i:s`), `end` its `end_date`.
 * @example daysOn("2027-03-30 10:00:00", "2027-04-02 12:00:00", "2027-04-01", "2027-04-30")
 *   // ["2027-04-01", "2027-04-02"]
 */
export function daysOn(
  start: string,
  end: string,
  allDay: boolean,
  from: string,
  to: string,
): string[] {
  const first = start.slice(0, 10);
  let last = end.slice(0, 10) < first ? first : end.slice(0, 10);
  if (!allDay && last > first && end.slice(11) === "00:00:00") last = addDays(last, -1);
  const days: string[] = [];
  for (let d = first < from ? from : first; d <= last && d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}
