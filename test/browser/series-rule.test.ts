/**
 * The editor's rule builder (src/editor/browser/series-rule.ts) against the API (contract §7.8):
 * the lines it writes are RFC 5545 lines the API takes and stores exactly so (a series read back
 * into the builder and saved unchanged sends nothing new), `UNTIL` in UTC at the end of the day in
 * the event's zone, `EXDATE`s with the zone; lines it cannot say stay text; the form sends lines
 * only when the builder changed them. The browser code itself runs in Chromium in
 * `npm run test:editor`.
 */
import { describe, expect, it } from "vitest";
import {
  argumentsOf,
  changedArguments,
  type EventRecord,
  newEvent,
  stateOf,
} from "../../src/editor/browser/event-state";
import { linesOf, noRule, type RuleState, ruleOf } from "../../src/editor/browser/series-rule";
import { createEvent } from "../series/support";

const BERLIN = {
  startDate: "2027-03-02",
  startTime: "19:00",
  allDay: false,
  timezone: "Europe/Berlin",
};

const rule = (patch: Partial<RuleState>): RuleState => ({ ...noRule(), ...patch });

describe("the rule builder's lines", () => {
  it("weekly on days, a count, exceptions with the event's zone", () => {
    expect(
      linesOf(
        rule({
          freq: "WEEKLY",
          weekdays: ["TH", "TU"],
          end: "count",
          count: 6,
          exdates: ["2027-03-30", "2027-03-16"],
        }),
        BERLIN,
      ),
    ).toEqual([
      "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6",
      "EXDATE;TZID=Europe/Berlin:20270316T190000,20270330T190000",
    ]);
  });

  it("until a day: its end in the event's zone, in UTC (summer and winter time)", () => {
    expect(linesOf(rule({ freq: "DAILY", end: "until", until: "2027-04-06" }), BERLIN)).toEqual([
      "RRULE:FREQ=DAILY;UNTIL=20270406T215959Z",
    ]);
    expect(linesOf(rule({ freq: "DAILY", end: "until", until: "2027-03-09" }), BERLIN)).toEqual([
      "RRULE:FREQ=DAILY;UNTIL=20270309T225959Z",
    ]);
  });

  it("monthly on the second Tuesday or the last, yearly every 2 years, all-day dates", () => {
    const allDay = { ...BERLIN, startDate: "2027-03-09", allDay: true };
    expect(linesOf(rule({ freq: "MONTHLY", monthly: "weekday", ordinal: 2 }), allDay)).toEqual([
      "RRULE:FREQ=MONTHLY;BYDAY=2TU",
    ]);
    expect(
      linesOf(
        rule({
          freq: "YEARLY",
          interval: 2,
          end: "until",
          until: "2031-03-09",
          exdates: ["2029-03-09"],
        }),
        allDay,
      ),
    ).toEqual(["RRULE:FREQ=YEARLY;INTERVAL=2;UNTIL=20310309", "EXDATE;VALUE=DATE:20290309"]);
  });

  it("reads what it can say back, the rest as text", () => {
    const lines = [
      "RRULE:FREQ=MONTHLY;BYDAY=-1TU;UNTIL=20271228T225959Z",
      "EXDATE;TZID=Europe/Berlin:20270525T190000",
    ];
    const read = ruleOf(lines, { ...BERLIN, startDate: "2027-03-30" });
    expect(read).toMatchObject({
      advanced: false,
      freq: "MONTHLY",
      monthly: "weekday",
      ordinal: -1,
      end: "until",
      until: "2027-12-28",
      exdates: ["2027-05-25"],
    });
    for (const other of [
      ["RRULE:FREQ=WEEKLY;BYSETPOS=1"],
      ["RRULE:FREQ=WEEKLY", "RDATE:20270310T190000"],
      ["RRULE:FREQ=WEEKLY", "EXDATE:20270316T080000"],
    ])
      expect(ruleOf(other, BERLIN)).toMatchObject({ advanced: true, text: other.join("\n") });
  });
});

describe("the builder and the API", () => {
  it("the API stores the builder's lines as written: read back and saved, nothing is sent", async () => {
    const cases: Array<[RuleState, typeof BERLIN]> = [
      [
        rule({ freq: "WEEKLY", weekdays: ["TU"], end: "count", count: 6, exdates: ["2027-03-16"] }),
        BERLIN,
      ],
      [rule({ freq: "DAILY", interval: 3, end: "until", until: "2027-04-06" }), BERLIN],
      [
        rule({ freq: "MONTHLY", monthly: "weekday", ordinal: 1, end: "count", count: 4 }),
        { ...BERLIN, allDay: true },
      ],
    ];
    for (const [r, dates] of cases) {
      const form = {
        ...newEvent(),
        title: "Builder",
        startDate: dates.startDate,
        endDate: dates.startDate,
        startTime: "19:00",
        endTime: "21:00",
        allDay: dates.allDay,
        timezone: dates.timezone,
        rule: r,
        ruleTouched: true,
      };
      const sent = argumentsOf(form).recurrence;
      const created: EventRecord = await createEvent(argumentsOf(form));
      expect(created.series?.recurrence).toEqual(sent);
      const back = stateOf(created);
      expect(back.rule).toMatchObject({ ...r, advanced: false });
      // Saved without a change: no `recurrence` (nor anything else) is sent.
      expect(changedArguments(back, back)).toEqual({});
      expect(changedArguments(back, { ...back, ruleTouched: true })).toEqual({});
    }
  });

  it("a new event repeats only with lines; `Does not repeat` on a series ends it", () => {
    expect(argumentsOf(newEvent())).not.toHaveProperty("recurrence");
    const series = stateOf({
      id: 3,
      title: "S",
      status: "publish",
      start_date: "2027-03-02 19:00:00",
      end_date: "2027-03-02 21:00:00",
      timezone: "Europe/Berlin",
      series: {
        id: 3,
        recurrence: ["RRULE:FREQ=WEEKLY"],
        occurrence_start: "2027-03-02 19:00:00",
        original_start: "2027-03-02T19:00:00+01:00",
        timezone: "Europe/Berlin",
        split_from: null,
      },
    });
    // Moving the series' dates alone sends no lines: the API moves them with the series.
    expect(changedArguments(series, { ...series, startTime: "20:00" })).not.toHaveProperty(
      "recurrence",
    );
    const ended = { ...series, rule: { ...series.rule, freq: "none" as const }, ruleTouched: true };
    expect(changedArguments(series, ended)).toEqual({ recurrence: [] });
  });
});
