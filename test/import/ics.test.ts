import { describe, expect, it } from "vitest";
import { IcsError, parseIcs } from "../../tools/import/ics";
import { FIXTURE, FIXTURE_LINES, lineOf, variant } from "./fixture";

/** The IcsError `parseIcs` throws for `text`. */
function icsError(text: string): IcsError {
  try {
    parseIcs(text);
  } catch (err) {
    if (err instanceof IcsError) return err;
    throw err;
  }
  throw new Error("parseIcs accepted the file");
}

describe("parseIcs", () => {
  it("reads every VEVENT with its times, texts, venue, organizer and categories", () => {
    const cal = parseIcs(FIXTURE);
    expect(cal.name).toBe("Fixture Conf");
    expect(cal.events.map((e) => e.uid)).toEqual([
      "talk-1@fixture.test",
      "keynote@fixture.test",
      "sprints@fixture.test",
      "winter@fixture.test",
    ]);
    const [talk, keynote, sprints, winter] = cal.events;
    expect(talk).toMatchObject({
      line: lineOf(FIXTURE_LINES, "BEGIN:VEVENT"),
      title: "Looking At Audio",
      description: "<p>Sound, <strong>seen</strong> &amp; heard.</p>\n<p>Second paragraph.</p>",
      website: "https://example.com/talks/1",
      venue: "Ballroom A",
      organizers: [{ name: "Jane Doe", email: "jane@example.com" }],
      categories: ["Talks", "Audio"],
      cancelled: false,
      dates: { kind: "utc", startUtc: "2025-05-17 17:30:00", endUtc: "2025-05-17 18:15:00" },
    });
    // Folded SUMMARY unfolded (the first space of the continuation is the fold); DURATION gives the end.
    expect(keynote.title).toBe(
      "Opening keynote with a long title that an exporter folded across two lines",
    );
    expect(keynote.dates).toEqual({
      kind: "zoned",
      zone: "America/New_York",
      start: "2025-05-16 09:30:00",
      end: "2025-05-16 11:00:00",
      startUtc: "2025-05-16 13:30:00",
      endUtc: "2025-05-16 15:00:00",
    });
    // Two CATEGORIES properties, "talks" kept once (case-insensitively) as the server will match it.
    expect(keynote.categories).toEqual(["Keynotes", "talks"]);
    // DTEND;VALUE=DATE is exclusive: 19–21 May means the 19th and the 20th.
    expect(sprints.dates).toEqual({ kind: "all-day", start: "2025-05-19", end: "2025-05-20" });
    expect(sprints).toMatchObject({ organizers: [], website: undefined, description: undefined });
    expect(winter.dates).toMatchObject({
      kind: "zoned",
      start: "2025-12-05 19:00:00",
      startUtc: "2025-12-06 00:00:00",
      endUtc: "2025-12-06 03:30:00",
    });
    expect(winter.cancelled).toBe(true);
    expect(cal.warnings).toEqual([
      {
        line: lineOf(FIXTURE_LINES, "STATUS:CANCELLED"),
        message: expect.stringContaining("STATUS:CANCELLED"),
      },
    ]);
  });

  it("converts a TZID that only the file's VTIMEZONE defines, and falls back for a missing SUMMARY", () => {
    const { text } = variant((l) =>
      l
        .map((x) =>
          x
            .replace("TZID:America/New_York", "TZID:Eastern Standard Time")
            .replace(/TZID=America\/New_York/g, 'TZID="Eastern Standard Time"'),
        )
        .filter((x) => x !== "SUMMARY:Sprints"),
    );
    const cal = parseIcs(text);
    expect(cal.events[1].dates).toEqual({
      kind: "utc",
      startUtc: "2025-05-16 13:30:00",
      endUtc: "2025-05-16 15:00:00",
    });
    expect(cal.events[3].dates).toEqual({
      kind: "utc",
      startUtc: "2025-12-06 00:00:00",
      endUtc: "2025-12-06 03:30:00",
    });
    expect(cal.events[2].title).toBe("(untitled)");
    expect(cal.warnings.map((w) => w.message).join("\n")).toMatch(
      /Eastern Standard Time.*not an IANA[\s\S]*no SUMMARY/,
    );
  });

  it("names the line of a missing END:VEVENT", () => {
    const { text, lines } = variant((l) =>
      l.filter((x, i) => !(x === "END:VEVENT" && i < lineOf(l, "UID:keynote@fixture.test"))),
    );
    const err = icsError(text);
    expect(err.line).toBe(lineOf(lines, "BEGIN:VEVENT", lineOf(lines, "UID:talk-1@fixture.test")));
    expect(err.message).toBe(
      `missing END:VEVENT before BEGIN:VEVENT (the VEVENT begun on line ${lineOf(lines, "BEGIN:VEVENT")} is not closed)`,
    );

    const end = icsError(FIXTURE.replace("END:VEVENT\r\nEND:VCALENDAR", "END:VCALENDAR"));
    expect(end.line).toBe(FIXTURE_LINES.length - 1);
    expect(end.message).toMatch(/^missing END:VEVENT before END:VCALENDAR/);

    const cut = icsError(FIXTURE.slice(0, FIXTURE.indexOf("END:VCALENDAR")));
    expect(cut.message).toMatch(/^the file ends before END:VCALENDAR/);
  });

  it("names the line of a bad DTSTART, DTEND or DURATION", () => {
    const cases: Array<[string, string, RegExp]> = [
      [
        "DTSTART:20250517T173000Z",
        "DTSTART:20251345T250000Z",
        /^invalid DTSTART "20251345T250000Z" \(expected YYYYMMDDTHHMMSS/,
      ],
      ["DTSTART:20250517T173000Z", "DTSTART:2025-05-17 17:30", /^invalid DTSTART/],
      [
        "DTSTART;VALUE=DATE:20250519",
        "DTSTART;VALUE=DATE:20250230",
        /^invalid DTSTART "20250230" \(expected YYYYMMDD\)/,
      ],
      [
        "DTEND:20250517T181500Z",
        "DTEND:20250517T171500Z",
        /ends \(DTEND "20250517T171500Z"\) before it starts/,
      ],
      ["DTEND:20250517T181500Z", "DTEND;VALUE=DATE:20250518", /^DTEND must be a DATE-TIME/],
      ["DTEND:20250517T181500Z", "DTEND:20250517T181500", /^DTEND needs a time zone/],
      ["DURATION:PT1H30M", "DURATION:soon", /^invalid DURATION "soon"/],
      [
        "DTSTART;TZID=America/New_York:20250516T093000",
        "DTSTART;TZID=Mars/Olympus_Mons:20250516T093000",
        /^unknown time zone TZID=Mars\/Olympus_Mons/,
      ],
    ];
    for (const [from, to, message] of cases) {
      const { text, lines } = variant((l) => l.map((x) => (x === from ? to : x)));
      const err = icsError(text);
      expect([err.line, err.message]).toEqual([lineOf(lines, to), expect.stringMatching(message)]);
    }
  });

  it("rejects VEVENTs without UID or DTSTART, duplicate UIDs, and files that are not calendars", () => {
    const noUid = variant((l) => l.filter((x) => x !== "UID:sprints@fixture.test"));
    expect(icsError(noUid.text)).toMatchObject({
      line: lineOf(noUid.lines, "DTSTART;VALUE=DATE:20250519") - 1,
      message: expect.stringMatching(/^VEVENT without UID/),
    });

    const noStart = variant((l) => l.filter((x) => x !== "DTSTART;VALUE=DATE:20250519"));
    expect(icsError(noStart.text).message).toBe("VEVENT without DTSTART");

    const dup = variant((l) =>
      l.map((x) => (x === "UID:winter@fixture.test" ? "UID:talk-1@fixture.test" : x)),
    );
    const err = icsError(dup.text);
    expect([err.line, err.message]).toEqual([
      lineOf(dup.lines, "UID:talk-1@fixture.test", lineOf(dup.lines, "UID:talk-1@fixture.test")),
      `duplicate UID "talk-1@fixture.test" (the VEVENT on line ${lineOf(dup.lines, "BEGIN:VEVENT")} has it too)`,
    ]);

    expect(icsError("<html><body>Not found</body></html>")).toMatchObject({
      line: 1,
      message: expect.stringMatching(/^not an iCalendar file/),
    });
    expect(icsError("")).toMatchObject({
      line: 1,
      message: expect.stringMatching(/^not an iCalendar file/),
    });
    const junk = variant((l) =>
      l.map((x) => (x === "LOCATION:Room 301-305" ? "this line has no colon" : x)),
    );
    expect(icsError(junk.text)).toMatchObject({
      line: lineOf(junk.lines, "this line has no colon"),
      message: expect.stringMatching(/^not a content line/),
    });
  });
});
