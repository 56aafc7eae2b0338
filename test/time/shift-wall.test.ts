/**
 * src/time/format.ts `shiftWall`: plain arithmetic on wall clocks gives what luxon's `plus` gives
 * (seconds, and calendar years with the day clamped), over generated clocks.
 */
import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { shiftWall, WP_FORMAT } from "../../src/time/format";

const luxon = (local: string, by: { seconds: number } | { years: number }) =>
  DateTime.fromFormat(local, WP_FORMAT, { zone: "utc" }).plus(by).toFormat(WP_FORMAT);

const wall = fc
  .date({
    min: new Date("1000-01-01T00:00:00Z"),
    max: new Date("9989-12-31T23:59:59Z"),
    noInvalidDate: true,
  })
  .map((d) => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}`);

describe("shiftWall", () => {
  it("moves by seconds and by calendar years as luxon does", () => {
    fc.assert(
      fc.property(
        wall,
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 10 }),
        (w, s, y) => {
          expect(shiftWall(w, { seconds: s })).toBe(luxon(w, { seconds: s }));
          expect(shiftWall(w, { years: y })).toBe(luxon(w, { years: y }));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("clamps a 29 February to the month's last day, and falls back to luxon past 9999", () => {
    expect(shiftWall("2028-02-29 10:00:00", { years: 1 })).toBe("2029-02-28 10:00:00");
    expect(shiftWall("2028-02-29 10:00:00", { years: 4 })).toBe("2032-02-29 10:00:00");
    expect(shiftWall("9995-06-01 00:00:00", { years: 10 })).toBe(
      luxon("9995-06-01 00:00:00", { years: 10 }),
    );
  });
});
