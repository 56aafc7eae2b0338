/**
 * The feed has no horizon either (contract §7.1, contract §7.8): each VTIMEZONE ends with its zone's
 * recurring rules, so that a calendar program (ical.js here) expands an endless series to the right
 * instants in any year — 2030, 2035 — not only in the years the feed's stored occurrences cover.
 */
import ICAL from "ical.js";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { feed } from "../ical/support";
import { createEvent } from "./support";

/** The UTC starts (`Y-m-d H:i:s`) ical.js expands the feed's series `uid` to in a UTC year. */
function expandedIn(text: string, year: number): string[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const master = calendar
    .getAllSubcomponents("vevent")
    .find((v) => v.hasProperty("rrule") && !v.hasProperty("recurrence-id"))!;
  const event = new ICAL.Event(master);
  const it = event.iterator();
  const out: string[] = [];
  for (let t = it.next(); t; t = it.next()) {
    const utc = t.convertToZone(ICAL.Timezone.utcTimezone);
    if (utc.year > year) break;
    if (utc.year === year)
      out.push(
        DateTime.fromJSDate(utc.toJSDate(), { zone: "utc" }).toFormat("yyyy-MM-dd HH:mm:ss"),
      );
  }
  return out;
}

/** The UTC starts of Mondays at 18:00 New York time in a year (luxon, from the IANA data). */
function mondaysIn(year: number): string[] {
  const out: string[] = [];
  let d = DateTime.fromObject({ year, month: 1, day: 1, hour: 18 }, { zone: "America/New_York" });
  while (d.weekday !== 1) d = d.plus({ days: 1 });
  for (; d.year === year; d = d.plus({ weeks: 1 }))
    out.push(d.toUTC().toFormat("yyyy-MM-dd HH:mm:ss"));
  return out;
}

describe("VTIMEZONE rules in the feed", () => {
  it("an endless weekly series in New York expands to the right instants in 2030 and 2035", async () => {
    await createEvent({
      title: "Standup",
      start_date: "2027-01-04 18:00:00",
      end_date: "2027-01-04 18:30:00",
      timezone: "America/New_York",
      recurrence: ["RRULE:FREQ=WEEKLY"],
    });
    const ics = await feed("?start_date=2027-01-01&end_date=2027-01-31");
    expect(ics.status).toBe(200);
    expect(ics.text).toMatch(/RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU/);
    expect(ics.text).toMatch(/RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU/);
    for (const year of [2030, 2035, 2041]) {
      const got = expandedIn(ics.text, year);
      expect(got).toEqual(mondaysIn(year));
    }
    // The summer weeks are 22:00 UTC, the winter ones 23:00 (each DST change found).
    expect(expandedIn(ics.text, 2035).filter((s) => s.endsWith("22:00:00"))).toHaveLength(34);
  });
});
