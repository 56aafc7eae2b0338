/**
 * Exactly RFC 5545 (contract §7.8): what python-dateutil and calendar programs read from the feed is
 * what the JSON lists — a first occurrence in a DST gap (RFC 5545 §3.3.5: the offset before the
 * gap, for that occurrence alone), one in an overlap (the first of the two instants), `BYWEEKNO` —
 * and the JSON-LD schedule of a split series ends before the day it gave away.
 */
import { describe, expect, it } from "vitest";
import { feed } from "../ical/support";
import { ADMIN, api, NS } from "../support/api";
import { oracle } from "../support/rfc5545/ask";
import { change, createEvent, listed } from "./support";

/** The JSON's starts of one series: local and UTC. */
const startsOf = async (id: number) =>
  (await listed(`series=${id}`)).map((e) => [e.start_date, e.utc_start_date]);

/** The series' VEVENT lines as a calendar program reads them: DTSTART with its TZID, the rule. */
async function veventOf(id: number): Promise<{ dtstart: string; lines: string[] }> {
  const text = (await feed("?start_date=2026-01-01&end_date=2031-12-31")).text.replace(
    /\r\n /g,
    "",
  );
  const vevent = text
    .split("BEGIN:VEVENT")
    .find((v) => v.includes(`UID:${id}@`) && !v.includes("RECURRENCE-ID"))!;
  const lines = vevent.split("\r\n");
  return {
    dtstart: lines.find((l) => l.startsWith("DTSTART"))!,
    lines: lines.filter((l) => /^(RRULE|RDATE|EXDATE)[;:]/.test(l)),
  };
}

/** dateutil's starts of the series the feed publishes, from DTSTART `start` in `zone`. */
async function dateutilStarts(id: number, zone: string, start: string) {
  const { lines } = await veventOf(id);
  const [answer] = await oracle([
    { start, zone, allDay: false, lines, before: "2028-12-01 00:00:00", max: 1000 },
  ]);
  if (answer.error !== undefined) throw new Error(answer.error);
  return answer.starts;
}

describe("DST gaps and overlaps (RFC 5545 §3.3.5)", () => {
  it("a first occurrence in the gap is read with the offset before it, for it alone", async () => {
    const s = await createEvent({
      start_date: "2027-03-28 02:30:00",
      end_date: "2027-03-28 04:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"],
    });
    // 02:30 does not exist that night: 01:30 UTC, shown 03:30 CEST; the next weeks are at 02:30.
    expect(await startsOf(s.id)).toEqual([
      ["2027-03-28 03:30:00", "2027-03-28 01:30:00"],
      ["2027-04-04 02:30:00", "2027-04-04 00:30:00"],
      ["2027-04-11 02:30:00", "2027-04-11 00:30:00"],
    ]);
    const ends = (await listed(`series=${s.id}`)).map((e) => e.utc_end_date);
    expect(ends).toEqual(["2027-03-28 02:00:00", "2027-04-04 01:00:00", "2027-04-11 01:00:00"]);
    // The feed keeps the local time asked for; calendar programs read the same instants.
    const { dtstart } = await veventOf(s.id);
    expect(dtstart).toBe("DTSTART;TZID=Europe/Berlin:20270328T023000");
    expect(await dateutilStarts(s.id, "Europe/Berlin", "2027-03-28 02:30:00")).toEqual([
      ["2027-03-28 02:30:00", "2027-03-28 01:30:00"],
      ["2027-04-04 02:30:00", "2027-04-04 00:30:00"],
      ["2027-04-11 02:30:00", "2027-04-11 00:30:00"],
    ]);
    // JSON-LD: the event at its instant, the schedule at the time of day asked for.
    const ld = (await api(`${NS}/events/${s.id}`)).body.json_ld;
    expect(ld.startDate).toBe("2027-03-28T03:30:00+02:00");
    expect(ld.eventSchedule).toMatchObject({ startTime: "02:30:00", repeatCount: 3 });
    // A later write that leaves the dates alone keeps the series' wall clock.
    expect((await change(s.id, { title: "Night owls" })).status).toBe(200);
    expect((await startsOf(s.id))[1]).toEqual(["2027-04-04 02:30:00", "2027-04-04 00:30:00"]);
  });

  it("a first occurrence in the overlap is the first of the two instants", async () => {
    const s = await createEvent({
      start_date: "2026-10-25 02:30:00",
      end_date: "2026-10-25 03:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=DAILY;COUNT=2"],
    });
    expect(await startsOf(s.id)).toEqual([
      ["2026-10-25 02:30:00", "2026-10-25 00:30:00"],
      ["2026-10-26 02:30:00", "2026-10-26 01:30:00"],
    ]);
    expect(await dateutilStarts(s.id, "Europe/Berlin", "2026-10-25 02:30:00")).toEqual(
      await startsOf(s.id),
    );
  });

  it("UNTIL bounds instants: a start in the gap after UNTIL's instant is out", async () => {
    // UNTIL 01:15 UTC on the night of the change: 02:30 that night is 01:30 UTC, after it.
    const s = await createEvent({
      start_date: "2027-03-26 02:30:00",
      end_date: "2027-03-26 03:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=DAILY;UNTIL=20270328T011500Z"],
    });
    expect((await startsOf(s.id)).map(([local]) => local)).toEqual([
      "2027-03-26 02:30:00",
      "2027-03-27 02:30:00",
    ]);
  });
});

describe("BYWEEKNO (RFC 5545 §3.3.10: ISO weeks from WKST)", () => {
  it("the last week's Monday is one a year, as calendar programs expand the feed", async () => {
    const s = await createEvent({
      start_date: "2026-12-28 10:00:00",
      end_date: "2026-12-28 11:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=YEARLY;BYWEEKNO=-1;BYDAY=MO;COUNT=3"],
    });
    expect((await startsOf(s.id)).map(([local]) => local)).toEqual([
      "2026-12-28 10:00:00",
      "2027-12-27 10:00:00",
      "2028-12-25 10:00:00",
    ]);
  });

  it("week 1's Monday is accepted and repeats in each year's week 1", async () => {
    const s = await createEvent({
      start_date: "2027-01-04 10:00:00",
      end_date: "2027-01-04 11:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO;COUNT=2"],
    });
    expect((await startsOf(s.id)).map(([local]) => local)).toEqual([
      "2027-01-04 10:00:00",
      "2028-01-03 10:00:00",
    ]);
  });

  it("a negative BYSETPOS past the period's days gives nothing (no second-to-last of one)", async () => {
    const res = await api(`${NS}/events`, {
      method: "POST",
      headers: ADMIN,
      json: {
        title: "Never",
        start_date: "2027-01-04 10:00:00",
        end_date: "2027-01-04 11:00:00",
        recurrence: ["RRULE:FREQ=WEEKLY;BYSETPOS=-2"],
      },
    });
    // The rule gives no day at all: its start is not its first occurrence.
    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty("recurrence");
  });
});

describe("JSON-LD schedule of a split series", () => {
  it("ends the old series before the day it gave the new one", async () => {
    const s = await createEvent({
      start_date: "2027-03-02 19:00:00",
      end_date: "2027-03-02 21:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=6"],
    });
    const third = (await listed(`series=${s.id}`))[2];
    expect(third.start_date).toBe("2027-03-16 19:00:00");
    const split = await change(third.id, { title: "New room" }, "?scope=following");
    expect(split.status).toBe(200);
    const ld = (await api(`${NS}/events/${s.id}`)).body.json_ld;
    expect(ld.eventSchedule.endDate).toBe("2027-03-15");
  });
});
