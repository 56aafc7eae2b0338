/**
 * One event as a VEVENT (RFC 5545 §3.6.1), with RFC 7986 IMAGE and RFC 9073 VLOCATION /
 * VPARTICIPANT components that carry the venue and the organizers as schema.org JSON-LD, so that the
 * importer (tools/import/ics.ts) gets back what it needs to rebuild them.
 *
 * | event (§4.1)              | iCalendar                                                              |
 * |---------------------------|------------------------------------------------------------------------|
 * | `uid`, else id            | UID (the stored iCalendar UID, else `{id}@{host of site}`)             |
 * | modified_utc, date_utc    | DTSTAMP and LAST-MODIFIED, CREATED                                     |
 * | start/end, timezone       | DTSTART/DTEND;TZID=zone (the event's own zone); all-day: VALUE=DATE,   |
 * |                           | DTEND the day after the last day (exclusive)                          |
 * | title                     | SUMMARY                                                                |
 * | description               | DESCRIPTION (plain text) and X-ALT-DESC;FMTTYPE=text/html (as stored)  |
 * | venue                     | LOCATION (name and address), GEO, VLOCATION (NAME, Place JSON-LD)      |
 * | organizers                | ORGANIZER (the first; mailto: or its page), VPARTICIPANT per organizer |
 * | categories                | CATEGORIES (names)                                                     |
 * | website, else permalink   | URL                                                                    |
 * | image                     | IMAGE;VALUE=URI;DISPLAY=BADGE                                          |
 * | status                    | STATUS: CONFIRMED when published, else TENTATIVE                       |
 *
 * Events come as the caller may see them (src/events/visible.ts): password protection (§4.7) has
 * already emptied what it hides. A blanked event keeps only UID, dates, SUMMARY, URL (its page) and
 * CLASS:CONFIDENTIAL; a blanked venue or organizer is written by its name.
 */

import { eventUid, eventUrl, type VisibleEvent } from "../events/record";
import { isBlanked } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import { jsonLdDocument, personOf, placeOf } from "../linked-posts/json-ld";
import { described } from "../linked-posts/post-fields";
import { venueRegion } from "../linked-posts/record";
import { byName } from "../terms/serialize";
import { autop, stripTags } from "../text/html";
import { resolveZone } from "../time/zone";
import {
  contentLine,
  dateTimeValue,
  dateValue,
  escapeText,
  fold,
  isSetDate,
  textLine,
  utcValue,
} from "./text";

const EMAIL = /^[^\s@<>,;:"]+@[^\s@<>,;:"]+$/;

/** The day after `Y-m-d…` (DTEND of an all-day event is exclusive). */
function nextDay(wp: string): string {
  const d = new Date(
    Date.UTC(Number(wp.slice(0, 4)), Number(wp.slice(5, 7)) - 1, Number(wp.slice(8, 10)) + 1),
  );
  return d.toISOString().slice(0, 10);
}

/**
 * DTSTART and DTEND. `wallStart`: a series' DTSTART as its rule repeats it, the local time asked
 * for (contract §7.8): a time in a DST gap is kept as written (RFC 5545 §3.3.5 reads it with the
 * offset before the gap), though the event shows the time after it.
 */
function when(row: VisibleEvent["row"], wallStart?: string | null): string {
  if (row.allDay) {
    const last = row.endDate < row.startDate ? row.startDate : row.endDate;
    return (
      contentLine("DTSTART", dateValue(row.startDate), [["VALUE", "DATE"]]) +
      contentLine("DTEND", dateValue(nextDay(last)), [["VALUE", "DATE"]])
    );
  }
  // An unknown stored zone cannot get a VTIMEZONE: the instants are written in UTC.
  if (!resolveZone(row.timezone))
    return (
      contentLine("DTSTART", utcValue(row.startDateUtc)) +
      contentLine("DTEND", utcValue(row.endDateUtc))
    );
  const tzid: Array<[string, string]> = [["TZID", row.timezone]];
  return (
    contentLine("DTSTART", dateTimeValue(wallStart ?? row.startDate), tzid) +
    contentLine("DTEND", dateTimeValue(row.endDate), tzid)
  );
}

function structured(schema: string, data: object): string {
  return contentLine(
    "STRUCTURED-DATA",
    escapeText(JSON.stringify(jsonLdDocument(data, "https://schema.org"))),
    [
      ["FMTTYPE", "application/ld+json"],
      ["SCHEMA", schema],
      ["VALUE", "TEXT"],
    ],
  );
}

function venueLines(ctx: RenderContext, record: VisibleEvent): string {
  const venue = record.venue;
  if (!venue) return "";
  const { row } = venue;
  // A blanked venue is located by its name alone (its `state`, which §4.7 leaves shown, too).
  const address = isBlanked(venue)
    ? []
    : [row.address, row.city, venueRegion(row), row.zip, row.country].filter(
        (p) => p.trim() !== "",
      );
  let out = textLine("LOCATION", [row.title, ...address].join(", "));
  if (row.geoLat !== null && row.geoLng !== null)
    out += contentLine("GEO", `${row.geoLat};${row.geoLng}`);
  return (
    out +
    contentLine("BEGIN", "VLOCATION") +
    textLine("UID", `venue-${row.id}@${new URL(ctx.urls.site).hostname}`) +
    textLine("NAME", row.title) +
    (described(venue) ? structured("https://schema.org/Place", placeOf(row, venue.image)) : "") +
    contentLine("END", "VLOCATION")
  );
}

function organizerLines(
  ctx: RenderContext,
  record: VisibleEvent,
): { property: string; components: string } {
  const host = new URL(ctx.urls.site).hostname;
  let components = "";
  for (const organizer of record.organizers) {
    const { row, image } = organizer;
    components +=
      contentLine("BEGIN", "VPARTICIPANT") +
      textLine("UID", `organizer-${row.id}@${host}`) +
      contentLine("PARTICIPANT-TYPE", "CONTACT") +
      (EMAIL.test(row.email) ? contentLine("CALENDAR-ADDRESS", `mailto:${row.email}`) : "") +
      textLine("SUMMARY", row.title) +
      (described(organizer) ? structured("https://schema.org/Person", personOf(row, image)) : "") +
      contentLine("END", "VPARTICIPANT");
  }
  const first = record.organizers[0]?.row;
  if (!first) return { property: "", components };
  // A blanked organizer's e-mail is emptied: its page instead.
  const address = EMAIL.test(first.email)
    ? `mailto:${first.email}`
    : `${ctx.urls.site}/organizer/${first.slug}/`;
  return { property: contentLine("ORGANIZER", address, [["CN", first.title]]), components };
}

/**
 * What a VEVENT of a recurring series (contract §7.8) carries besides its event: the series' UID,
 * and its lines (`RRULE`, `RDATE`, `EXDATE`: the series' own VEVENT) or the occurrence's original
 * start (`RECURRENCE-ID`: an override).
 */
export interface SeriesPart {
  uid: string;
  lines?: readonly string[];
  recurrenceId?: string;
}

/** `RECURRENCE-ID` of an override: its original start as its DTSTART is written. */
function recurrenceId(row: VisibleEvent["row"], start: string): string {
  if (row.allDay) return contentLine("RECURRENCE-ID", dateValue(start), [["VALUE", "DATE"]]);
  return contentLine("RECURRENCE-ID", dateTimeValue(start), [["TZID", row.timezone]]);
}

/**
 * The VEVENT of one event as the caller may see it.
 * @param series the series' UID and lines, or an override's original start (RFC 5545 §3.8.4.4).
 * @example vevent(ctx, visibleEvent(ctx, record)) // "BEGIN:VEVENT\r\nUID:…\r\n…END:VEVENT\r\n"
 */
export function vevent(ctx: RenderContext, record: VisibleEvent, series?: SeriesPart): string {
  const { row } = record;
  const permalink = eventUrl(ctx, row.slug);
  let out =
    contentLine("BEGIN", "VEVENT") +
    textLine("UID", series?.uid ?? eventUid(ctx, row)) +
    contentLine("DTSTAMP", utcValue(row.postModifiedGmt)) +
    (isSetDate(row.postDateGmt) ? contentLine("CREATED", utcValue(row.postDateGmt)) : "") +
    contentLine("LAST-MODIFIED", utcValue(row.postModifiedGmt)) +
    when(row, series?.lines ? row.occurrenceStart : null) +
    (series?.lines ?? []).map(fold).join("") +
    (series?.recurrenceId ? recurrenceId(row, series.recurrenceId) : "") +
    textLine("SUMMARY", row.title) +
    contentLine("STATUS", row.status === "publish" ? "CONFIRMED" : "TENTATIVE");
  if (isBlanked(record))
    return (
      out +
      contentLine("URL", permalink) +
      contentLine("CLASS", "CONFIDENTIAL") +
      contentLine("END", "VEVENT")
    );

  const html = autop(row.content);
  if (html !== "")
    out +=
      textLine("DESCRIPTION", stripTags(html)) +
      textLine("X-ALT-DESC", html, [["FMTTYPE", "text/html"]]);
  const categories = record.terms
    .filter((t) => t.taxonomy === "tribe_events_cat")
    .sort(byName)
    .map((t) => escapeText(t.name));
  if (categories.length) out += contentLine("CATEGORIES", categories.join(","));
  out += contentLine("URL", row.website || permalink);
  if (record.image)
    out += contentLine("IMAGE", record.image.sourceUrl, [
      ["VALUE", "URI"],
      ["DISPLAY", "BADGE"],
    ]);
  const organizers = organizerLines(ctx, record);
  return (
    out +
    organizers.property +
    venueLines(ctx, record) +
    organizers.components +
    contentLine("END", "VEVENT")
  );
}
