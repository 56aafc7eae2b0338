/**
 * One event as a VEVENT (RFC 5545 §3.6.1), with RFC 7986 IMAGE and RFC 9073 VLOCATION /
 * VPARTICIPANT components that carry the venue and the organizers as schema.org JSON-LD, so that the
 * importer (src/import/ics.ts) gets back what it needs to rebuild them.
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
 * A password-protected event the caller may not open keeps only UID, dates, SUMMARY, URL (its page)
 * and CLASS:CONFIDENTIAL: the fields §4.7 blanks are left out.
 */

import { type EventRecord, eventUrl } from "../events/serialize";
import type { RenderContext } from "../http/render";
import { jsonLdDocument, personOf, placeOf } from "../linked-posts/json-ld";
import type { OrganizerRow, VenueRow } from "../linked-posts/serialize";
import { venueRegion } from "../linked-posts/venue";
import { byName } from "../terms/serialize";
import { autop, stripTags } from "../text/html";
import { resolveZone } from "../time/zone";
import {
  contentLine,
  dateTimeValue,
  dateValue,
  escapeText,
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

/** UID of an event: the stored one (kept from imports), else `{id}@{host of the site}`. */
export function eventUid(ctx: RenderContext, row: EventRecord["row"]): string {
  return row.uid ?? `${row.id}@${new URL(ctx.urls.site).hostname}`;
}

function when(row: EventRecord["row"]): string {
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
    contentLine("DTSTART", dateTimeValue(row.startDate), tzid) +
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

/** Whether a linked venue/organizer may show more than its name here (§4.7, contract row 18). */
const opens = (ctx: RenderContext, row: VenueRow | OrganizerRow) =>
  row.passwordDigest === "" || ctx.linkedAccess?.(row) === true;

function venueLines(ctx: RenderContext, record: EventRecord): string {
  const venue = record.venue?.row;
  if (!venue) return "";
  if (!opens(ctx, venue)) {
    return (
      textLine("LOCATION", venue.title) +
      contentLine("BEGIN", "VLOCATION") +
      textLine("UID", `venue-${venue.id}@${new URL(ctx.urls.site).hostname}`) +
      textLine("NAME", venue.title) +
      contentLine("END", "VLOCATION")
    );
  }
  const address = [venue.address, venue.city, venueRegion(venue), venue.zip, venue.country].filter(
    (p) => p.trim() !== "",
  );
  let out = textLine("LOCATION", [venue.title, ...address].join(", "));
  if (venue.geoLat !== null && venue.geoLng !== null)
    out += contentLine("GEO", `${venue.geoLat};${venue.geoLng}`);
  return (
    out +
    contentLine("BEGIN", "VLOCATION") +
    textLine("UID", `venue-${venue.id}@${new URL(ctx.urls.site).hostname}`) +
    textLine("NAME", venue.title) +
    structured("https://schema.org/Place", placeOf(venue, record.venue!.image)) +
    contentLine("END", "VLOCATION")
  );
}

function organizerLines(
  ctx: RenderContext,
  record: EventRecord,
): { property: string; components: string } {
  const host = new URL(ctx.urls.site).hostname;
  let components = "";
  for (const { row, image } of record.organizers) {
    if (!opens(ctx, row)) {
      components +=
        contentLine("BEGIN", "VPARTICIPANT") +
        textLine("UID", `organizer-${row.id}@${host}`) +
        contentLine("PARTICIPANT-TYPE", "CONTACT") +
        textLine("SUMMARY", row.title) +
        contentLine("END", "VPARTICIPANT");
      continue;
    }
    components +=
      contentLine("BEGIN", "VPARTICIPANT") +
      textLine("UID", `organizer-${row.id}@${host}`) +
      contentLine("PARTICIPANT-TYPE", "CONTACT") +
      (EMAIL.test(row.email) ? contentLine("CALENDAR-ADDRESS", `mailto:${row.email}`) : "") +
      textLine("SUMMARY", row.title) +
      structured("https://schema.org/Person", personOf(row, image)) +
      contentLine("END", "VPARTICIPANT");
  }
  const first = record.organizers[0]?.row;
  if (!first) return { property: "", components };
  const address =
    opens(ctx, first) && EMAIL.test(first.email)
      ? `mailto:${first.email}`
      : `${ctx.urls.site}/organizer/${first.slug}/`;
  return { property: contentLine("ORGANIZER", address, [["CN", first.title]]), components };
}

/**
 * The VEVENT of one event.
 * @param full false for a password-protected event the caller may not open (§4.7).
 * @example vevent(ctx, record, true) // "BEGIN:VEVENT\r\nUID:…\r\n…END:VEVENT\r\n"
 */
export function vevent(ctx: RenderContext, record: EventRecord, full: boolean): string {
  const { row } = record;
  const permalink = eventUrl(ctx, row.slug);
  let out =
    contentLine("BEGIN", "VEVENT") +
    textLine("UID", eventUid(ctx, row)) +
    contentLine("DTSTAMP", utcValue(row.postModifiedGmt)) +
    (isSetDate(row.postDateGmt) ? contentLine("CREATED", utcValue(row.postDateGmt)) : "") +
    contentLine("LAST-MODIFIED", utcValue(row.postModifiedGmt)) +
    when(row) +
    textLine("SUMMARY", row.title) +
    contentLine("STATUS", row.status === "publish" ? "CONFIRMED" : "TENTATIVE");
  if (!full)
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
