import { IANAZone } from "luxon";
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
    expect(text.match(/BEGIN:(STANDARD|DAYLIGHT)/g)).toHaveLength(1 + 2 * 3);
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
});
