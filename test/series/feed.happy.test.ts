/**
 * The iCalendar feed of recurring series (contract §7.1, contract §7.8): a series is one VEVENT with its
 * RRULE/RDATE/EXDATE lines in its VTIMEZONE, each override one more with RECURRENCE-ID; a reader
 * (ical.js, expanding as calendar apps do) gets exactly the occurrences the JSON lists for the
 * same window.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { feed } from "../ical/support";
import { change, createEvent, listed, WINDOW } from "./support";

const FROM = "2026-01-01 00:00:00";
const TO = "2031-12-31 23:59:59";

const wp = (t: ICAL.Time) => {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const u = t.isDate ? t : t.convertToZone(ICAL.Timezone.utcTimezone);
  return `${p(u.year, 4)}-${p(u.month)}-${p(u.day)} ${p(u.hour)}:${p(u.minute)}:${p(u.second)}`;
};

/** Every occurrence a calendar expands to in [FROM, TO]: UTC start and end, summary. */
function expanded(text: string): string[][] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevents = calendar.getAllSubcomponents("vevent");
  const byUid = new Map<string, ICAL.Component[]>();
  for (const v of vevents) {
    const uid = String(v.getFirstPropertyValue("uid"));
    byUid.set(uid, [...(byUid.get(uid) ?? []), v]);
  }
  const out: string[][] = [];
  for (const group of byUid.values()) {
    const master = group.find((v) => !v.hasProperty("recurrence-id"));
    const exceptions = group.filter((v) => v.hasProperty("recurrence-id"));
    if (!master) continue;
    const event = new ICAL.Event(master, { exceptions });
    const it = event.iterator();
    for (let t = it.next(); t; t = it.next()) {
      const d = event.getOccurrenceDetails(t);
      const start = wp(d.startDate);
      if (start > TO) break;
      // All-day events end the day after (DTEND exclusive): the list's 23:59:59 of the day before.
      const end = d.endDate.isDate
        ? `${wp(d.endDate.clone().adjust(-1, 0, 0, 0) as unknown as ICAL.Time).slice(0, 10)} 23:59:59`
        : wp(d.endDate);
      if (start >= FROM)
        out.push([start.slice(0, d.startDate.isDate ? 10 : 19), end, d.item.summary]);
    }
  }
  return out.sort((a, b) => (a.join() < b.join() ? -1 : 1));
}

describe("events.ics with recurring series", () => {
  it("expands (ical.js) to exactly the occurrences the JSON lists", async () => {
    const weekly = await createEvent({
      title: "Meetup",
      start_date: "2027-03-02 19:00:00",
      end_date: "2027-03-02 21:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=8", "RDATE;TZID=Europe/Berlin:20270305T190000"],
    });
    await createEvent({
      title: "Board",
      start_date: "2027-01-29 17:00:00",
      end_date: "2027-01-29 18:00:00",
      timezone: "America/New_York",
      recurrence: ["RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=5"],
    });
    await createEvent({
      title: "Market",
      start_date: "2027-06-05",
      end_date: "2027-06-05",
      all_day: true,
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20270703"],
    });
    await createEvent({
      title: "Film",
      start_date: "2027-03-10 18:00:00",
      end_date: "2027-03-10 20:00:00",
    });
    const weeks = await listed(`series=${weekly.id}`);
    // One week moved and renamed, one cancelled, and the series split from week 7 on.
    expect(
      (
        await change(weeks[3].id, {
          title: "Guest night",
          start_date: "2027-03-17 18:00:00",
          end_date: "2027-03-17 20:00:00",
        })
      ).status,
    ).toBe(200);
    expect((await change(weeks[5].id)).status).toBe(200);
    expect((await change(weeks[7].id, { title: "Spring meetup" }, "?scope=following")).status).toBe(
      200,
    );

    const json = (await listed()).map((e) => [
      e.all_day ? e.start_date.slice(0, 10) : e.utc_start_date,
      e.all_day ? e.end_date : e.utc_end_date,
      e.title,
    ]);
    const ics = await feed(`?${WINDOW}`);
    expect(ics.status).toBe(200);
    expect(expanded(ics.text)).toEqual(json.sort((a, b) => (a.join() < b.join() ? -1 : 1)));
    // A series is one VEVENT with its lines, its override one with RECURRENCE-ID.
    expect(ics.text).toContain("RRULE:FREQ=WEEKLY;UNTIL=20270413T165959Z\r\n");
    expect(ics.text).toContain("RRULE:FREQ=WEEKLY;COUNT=2;BYDAY=TU\r\n");
    expect(ics.text).toContain("EXDATE;TZID=Europe/Berlin:20270330T190000\r\n");
    expect(ics.text).toContain("RDATE;TZID=Europe/Berlin:20270305T190000\r\n");
    expect(ics.text).toContain("RECURRENCE-ID;TZID=Europe/Berlin:20270316T190000\r\n");
    expect(ics.text.match(/^UID:/gm)).toHaveLength(6);
  });
});
