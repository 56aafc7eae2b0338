/**
 * A small hand-written calendar for the importer tests: a UTC talk, a talk in America/New_York
 * (with its VTIMEZONE, a DURATION and a folded SUMMARY) in the same room, an all-day event, and a
 * winter event in New York (EST). CRLF line ends, as RFC 5545 wants.
 */

export const FIXTURE_LINES = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//tec-edge//importer tests//EN",
  "X-WR-CALNAME:Fixture Conf",
  "BEGIN:VTIMEZONE",
  "TZID:America/New_York",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:-0500",
  "TZOFFSETTO:-0400",
  "TZNAME:EDT",
  "DTSTART:19700308T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:-0400",
  "TZOFFSETTO:-0500",
  "TZNAME:EST",
  "DTSTART:19701101T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
  "BEGIN:VEVENT",
  "UID:talk-1@fixture.test",
  "DTSTART:20250517T173000Z",
  "DTEND:20250517T181500Z",
  "SUMMARY:Looking At Audio",
  "DESCRIPTION:<p>Sound\\, <strong>seen</strong> &amp\\; heard.</p>\\n<p>Second paragraph.</p>",
  "LOCATION:Ballroom A",
  "URL:https://example.com/talks/1",
  "CATEGORIES:Talks,Audio",
  'ORGANIZER;CN="Jane Doe":mailto:jane@example.com',
  "STATUS:CONFIRMED",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:keynote@fixture.test",
  "DTSTART;TZID=America/New_York:20250516T093000",
  "DURATION:PT1H30M",
  "SUMMARY:Opening keynote with a long title that an exporter folded across",
  "  two lines",
  "DESCRIPTION:Welcome to Fixture Conf.",
  "LOCATION:Ballroom A",
  "CATEGORIES:Keynotes",
  "CATEGORIES:talks",
  "ORGANIZER;CN=Jane Doe:mailto:jane@example.com",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:sprints@fixture.test",
  "DTSTART;VALUE=DATE:20250519",
  "DTEND;VALUE=DATE:20250521",
  "SUMMARY:Sprints",
  "LOCATION:Room 301-305",
  "CATEGORIES:Sprints",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:winter@fixture.test",
  "DTSTART;TZID=America/New_York:20251205T190000",
  "DTEND;TZID=America/New_York:20251205T223000",
  "SUMMARY:Winter social",
  "STATUS:CANCELLED",
  "END:VEVENT",
  "END:VCALENDAR",
];

export const FIXTURE = `${FIXTURE_LINES.join("\r\n")}\r\n`;

/** The 1-based line of the first fixture line equal to `text` (after `from`, a 1-based line). */
export function lineOf(lines: string[], text: string, from = 0): number {
  const i = lines.findIndex((l, n) => n >= from && l === text);
  if (i < 0) throw new Error(`fixture has no line ${text}`);
  return i + 1;
}

/** The fixture with its lines changed by `edit`, and those lines (for line numbers). */
export function variant(edit: (lines: string[]) => string[]): { text: string; lines: string[] } {
  const lines = edit([...FIXTURE_LINES]);
  return { text: `${lines.join("\r\n")}\r\n`, lines };
}
