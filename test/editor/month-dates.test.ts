/**
 * The month view's calendar arithmetic (src/editor/browser/month-dates.ts): which days the grid of
 * a month shows for each first weekday, and on which of them an event is. What the view does with
 * them in a browser is `npm run test:editor` (scripts/lib/editor-ops.ts).
 */
import { describe, expect, it } from "vitest";
import { addDays, daysOn, shiftMonth, visibleDays } from "../../src/editor/browser/month-dates";

describe("the month view's days", () => {
  it("shows whole weeks from the first weekday of the language: Sunday or Monday", () => {
    // March 2027 starts on a Monday and ends on a Wednesday.
    const monday = visibleDays("2027-03", 1);
    expect([monday[0], monday.at(-1), monday.length]).toEqual(["2027-03-01", "2027-04-04", 35]);
    const sunday = visibleDays("2027-03", 0);
    expect([sunday[0], sunday.at(-1), sunday.length]).toEqual(["2027-02-28", "2027-04-03", 35]);
    // February 2026 fills exactly four Sunday weeks; a leap February and a six-week month.
    expect(visibleDays("2026-02", 0)).toHaveLength(28);
    expect(visibleDays("2028-02", 1).includes("2028-02-29")).toBe(true);
    expect(visibleDays("2027-05", 1)).toHaveLength(42);
  });

  it("moves between months and days across years and month ends", () => {
    expect([shiftMonth("2027-01", -1), shiftMonth("2027-12", 1), shiftMonth("2027-03", 0)]).toEqual(
      ["2026-12", "2028-01", "2027-03"],
    );
    expect([addDays("2027-03-01", -1), addDays("2028-02-28", 1)]).toEqual([
      "2027-02-28",
      "2028-02-29",
    ]);
  });

  it("puts an event on every day from its start to its end, within the grid", () => {
    const grid = ["2027-03-29", "2027-04-04"] as const;
    expect(daysOn("2027-03-30 18:00:00", "2027-04-02 12:00:00", false, ...grid)).toEqual([
      "2027-03-30",
      "2027-03-31",
      "2027-04-01",
      "2027-04-02",
    ]);
    // Started before the grid; ends after it.
    expect(daysOn("2027-03-01 00:00:00", "2027-05-01 00:00:00", true, ...grid)).toHaveLength(7);
    // Ending at midnight, it is not on the day it ends; all-day events keep their end date.
    expect(daysOn("2027-03-30 22:00:00", "2027-03-31 00:00:00", false, ...grid)).toEqual([
      "2027-03-30",
    ]);
    expect(daysOn("2027-03-30 00:00:00", "2027-03-31 00:00:00", true, ...grid)).toEqual([
      "2027-03-30",
      "2027-03-31",
    ]);
    // Outside the grid; and an end before the start keeps the start's day.
    expect(daysOn("2027-04-05 10:00:00", "2027-04-05 11:00:00", false, ...grid)).toEqual([]);
    expect(daysOn("2027-03-30 10:00:00", "2027-03-29 11:00:00", false, ...grid)).toEqual([
      "2027-03-30",
    ]);
  });
});
