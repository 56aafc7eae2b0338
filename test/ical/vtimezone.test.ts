import ICAL from "ical.js";
import { DateTime, IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import { fold } from "../../src/ical/text";
import { transitions, vtimezone } from "../../src/ical/vtimezone";

const iso = (ms: number) => new Date(ms).toISOString();

describe("VTIMEZONE from the IANA data (RFC 5545 §3.6.5)", () => {
  it("finds each offset change to the minute, with the offsets before and after", () => {
    const berlin = transitions(
      IANAZone.create("Europe/Berlin"),
      Date.UTC(2026, 0),
      Date.UTC(2027, 0),
    );
    expect(berlin.map((t) => [iso(t.at), t.from, t.to])).toEqual([
      ["2026-03-29T01:00:00.000Z", 60, 120],
      ["2026-10-25T01:00:00.000Z", 120, 60],
    ]);
    // Half-hour daylight saving time (Lord Howe Island), and a zone without any.
    const howe = transitions(
      IANAZone.create("Australia/Lord_Howe"),
      Date.UTC(2026, 0),
      Date.UTC(2027, 0),
    );
    expect(howe.map((t) => t.to - t.from)).toEqual([-30, 30]);
    expect(
      transitions(IANAZone.create("Asia/Kolkata"), Date.UTC(2000, 0), Date.UTC(2030, 0)),
    ).toEqual([]);
    // A one-off change of standard time: Moscow went to UTC+4 in 2011 and back to UTC+3 in 2014.
    const moscow = transitions(
      IANAZone.create("Europe/Moscow"),
      Date.UTC(2011, 5),
      Date.UTC(2015, 0),
    );
    expect(moscow.map((t) => [iso(t.at), t.from, t.to])).toEqual([
      ["2014-10-25T22:00:00.000Z", 240, 180],
    ]);
  });

  it("writes one observance per change after the offset in force at the start, local times in the old offset", () => {
    const text = vtimezone("Europe/Berlin", "2026-05-01 10:00:00", "2026-05-01 12:00:00");
    expect(text).toContain(
      "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:20250101T010000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\nEND:STANDARD\r\n",
    );
    expect(text).toContain(
      "BEGIN:DAYLIGHT\r\nDTSTART:20260329T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\nEND:DAYLIGHT\r\n",
    );
    // The initial offset, three years of changes, then the two rules.
    expect(text.match(/BEGIN:(STANDARD|DAYLIGHT)/g)).toHaveLength(1 + 2 * 3 + 2);
    expect(vtimezone("UTC-3:30", "2026-01-01 00:00:00", "2026-01-01 00:00:00")).toContain(
      "TZOFFSETFROM:-0330\r\nTZOFFSETTO:-0330\r\nTZNAME:UTC-3:30\r\n",
    );
    expect(vtimezone("Mars/Olympus", "2026-01-01 00:00:00", "2026-01-01 00:00:00")).toBe("");
  });

  it("folds at 75 octets without cutting a UTF-8 sequence", () => {
    const folded = fold(`SUMMARY:${"€".repeat(40)}`);
    const lines = folded.split("\r\n").slice(0, -1);
    for (const line of lines) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(lines.slice(1).every((l) => l.startsWith(" "))).toBe(true);
    expect(lines.map((l, i) => (i ? l.slice(1) : l)).join("")).toBe(`SUMMARY:${"€".repeat(40)}`);
  });

  it("ends with the zone's yearly rules as the IANA data says them", () => {
    const rules = (tzid: string) =>
      [
        ...vtimezone(tzid, "2027-01-01 00:00:00", "2027-12-31 00:00:00").matchAll(
          /RRULE:(.*)\r\n/g,
        ),
      ].map((m) => m[1]);
    expect(rules("America/New_York")).toEqual([
      "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
      "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
    ]);
    expect(rules("Europe/Berlin")).toEqual([
      "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
      "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
    ]);
    // Israel: the Friday before the last Sunday of March (`Fri>=23`).
    expect(rules("Asia/Jerusalem")).toEqual([
      "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=23,24,25,26,27,28,29;BYDAY=FR",
      "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
    ]);
    expect(rules("Asia/Kolkata")).toEqual([]);
    expect(rules("UTC")).toEqual([]);
  });

  it("gives ical.js the offset luxon knows on every day of 2030–2045 and every month to 2070, in zones with and without rules", () => {
    for (const tzid of [
      "America/New_York",
      "Europe/Berlin",
      "Australia/Sydney",
      "Australia/Lord_Howe",
      "Asia/Jerusalem",
      "America/Santiago",
      "Africa/Casablanca",
      "Asia/Kolkata",
    ]) {
      const text = vtimezone(tzid, "2026-06-01 00:00:00", "2027-06-01 00:00:00");
      const zone = new ICAL.Timezone(new ICAL.Component(ICAL.parse(text)));
      // Noon of every day of 2030–2045 (each change day's offset), then of every month to 2070.
      const days: DateTime[] = [];
      for (let d = DateTime.utc(2030, 1, 1); d.year <= 2045; d = d.plus({ days: 1 })) days.push(d);
      for (let d = DateTime.utc(2046, 1, 15); d.year <= 2070; d = d.plus({ months: 1 }))
        days.push(d);
      for (const d of days) {
        const { year, month, day } = d;
        const local = DateTime.fromObject({ year, month, day, hour: 12 }, { zone: tzid });
        const t = ICAL.Time.fromData({ year, month, day, hour: 12 });
        if (zone.utcOffset(t) / 60 !== local.offset)
          expect([tzid, d.toISODate(), zone.utcOffset(t) / 60]).toEqual([
            tzid,
            d.toISODate(),
            local.offset,
          ]);
      }
    }
  });
});
