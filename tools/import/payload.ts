/**
 * What the importer sends for an event (tec-reference §2.3, §8.2–§8.5; contract §4 rows 10, 13) and
 * how it decides that a stored event already says the same (so that a second import of an
 * unchanged file writes nothing). Updates name only the fields that differ (contract §4 row 10).
 */
import {
  type DatesBody,
  datesBody,
  datesOf,
  type EventDatesObject,
} from "../../src/events/date-fields";
import { autop, sanitizeTitle } from "../../src/text/html";
import type { IcsDates } from "./dates";
import type { IcsEvent, IcsVenueDetails } from "./ics";

/**
 * The JSON body of `POST /events` or `PUT /events/{id}`, as far as the importer uses it. Dates are
 * `Y-m-d` (all-day), `Y-m-d H:i:s` (wall clock in `timezone`) or ISO 8601 UTC
 * (`2025-05-17T17:30:00Z`).
 */
export interface EventBody extends Partial<DatesBody> {
  title?: string;
  description?: string;
  /** IANA name; absent = the event's current zone (the site's on create). */
  timezone?: string;
  /** `""` clears it. */
  website?: string;
  /** A venue found or created by name (contract §4 row 13), with its details for a new one; `""` unlinks. */
  venue?: ({ venue: string } & IcsVenueDetails) | "";
  /** Organizers found or created by name, in order; `[]` unlinks all. */
  organizer?: Array<{ organizer: string; email?: string; phone?: string; website?: string }>;
  /** Category names (found by slug or name, created when missing); `[]` removes all. */
  categories?: string[];
  uid?: string;
  slug?: string;
  /** An image URL (added to the media library when new). */
  image?: string;
  /** RFC 5545 lines that make the event a recurring series (contract §7.8). */
  recurrence?: string[];
}

/** The fields of a stored event (tec-reference §4.1) the comparison reads. */
export interface RemoteEvent extends EventDatesObject {
  id: number;
  status: string;
  url: string;
  title: string;
  description: string;
  website: string;
  venue: { venue: string } | Array<{ venue: string }>;
  organizer: Array<{ organizer: string }>;
  categories: Array<{ name: string }>;
  image?: { url?: string } | false;
  /** Present only if the server echoes the iCalendar UID. */
  uid?: string;
  /** An occurrence of a recurring series, or the series itself (contract §7.8). */
  series?: { id: number; recurrence: string[]; occurrence_start: string };
}

/** Options that change what is sent. */
export interface BodyOptions {
  /** Zone for events whose file gives none (UTC instants, floating times, all-day dates): canonical IANA name. */
  timezone?: string;
}

const same = (a: string | undefined, b: string | undefined) =>
  (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();
const isoUtc = (wp: string) => `${wp.replace(" ", "T")}Z`;

function dateFields(d: IcsDates, timezone?: string): EventBody {
  // A zone given only when there is one (the event's current zone stays otherwise).
  const zone = timezone || undefined;
  switch (d.kind) {
    case "all-day":
      return datesBody({ start: d.start, end: d.end, allDay: true, timezone: zone });
    case "zoned":
      return datesBody({ start: d.start, end: d.end, allDay: false, timezone: d.zone });
    case "utc":
      // With its offset the server keeps the instant, whatever the event's zone (write-dates.ts).
      return datesBody({
        start: isoUtc(d.startUtc),
        end: isoUtc(d.endUtc),
        allDay: false,
        timezone: zone,
      });
    case "floating":
      return datesBody({ start: d.start, end: d.end, allDay: false, timezone: zone });
  }
}

function sameDates(d: IcsDates, remote: RemoteEvent, timezone?: string): boolean {
  const r = datesOf(remote);
  const zoneOk = timezone === undefined || r.timezone === timezone;
  switch (d.kind) {
    case "all-day":
      // The API stores all-day events as 00:00:00–23:59:59 local (§8.2).
      return (
        !!r.allDay && r.start === `${d.start} 00:00:00` && r.end === `${d.end} 23:59:59` && zoneOk
      );
    case "zoned":
      return (
        !r.allDay && r.startUtc === d.startUtc && r.endUtc === d.endUtc && r.timezone === d.zone
      );
    case "utc":
      return !r.allDay && r.startUtc === d.startUtc && r.endUtc === d.endUtc && zoneOk;
    case "floating":
      return !r.allDay && r.start === d.start && r.end === d.end && zoneOk;
  }
}

/** D1 refuses LIKE/GLOB patterns over 50 bytes; the server's slug check uses `{slug}-[0-9]*`. */
const SLUG_BYTES = 43;

/**
 * The slug to send on create, or undefined to let the server derive it from the title. Works around
 * a server bug: a third event whose title gives a slug of 44+ bytes fails with 500 (the uniqueness
 * read `slug GLOB '{slug}-[0-9]*'` exceeds D1's 50-byte pattern limit once `{slug}-2` exists), which
 * conference files with repeated long titles hit. So long slugs are cut to 43 bytes, at a word break
 * when there is one.
 */
function shortSlug(title: string): string | undefined {
  const full = sanitizeTitle(title);
  const bytes = new TextEncoder();
  if (bytes.encode(full).length <= SLUG_BYTES) return undefined;
  let cut = "";
  for (const ch of full) {
    if (bytes.encode(cut + ch).length > SLUG_BYTES) break;
    cut += ch;
  }
  const atWord = cut.slice(0, cut.lastIndexOf("-"));
  return (atWord.length >= 20 ? atWord : cut).replace(/-+$/, "");
}

/**
 * The body that creates an event from a VEVENT.
 * @example eventBody(event, {}) // { uid, title, start_date: "2025-05-17T17:30:00Z", ..., venue: { venue: "Hall A" } }
 */
export function eventBody(e: IcsEvent, options: BodyOptions = {}): EventBody {
  const slug = shortSlug(e.title);
  return {
    uid: e.uid,
    title: e.title,
    ...(slug ? { slug } : {}),
    ...(e.description !== undefined ? { description: e.description } : {}),
    ...dateFields(e.dates, options.timezone),
    ...(e.website !== undefined ? { website: e.website } : {}),
    ...(e.venue !== undefined ? { venue: { venue: e.venue, ...e.venueDetails } } : {}),
    ...(e.organizers.length
      ? { organizer: e.organizers.map(({ name, ...contact }) => ({ organizer: name, ...contact })) }
      : {}),
    ...(e.categories.length ? { categories: e.categories } : {}),
    ...(e.image !== undefined ? { image: e.image } : {}),
  };
}

/** The name of the venue an event is linked to, if any. */
function venueName(r: RemoteEvent): string | undefined {
  return Array.isArray(r.venue) ? r.venue[0]?.venue : r.venue?.venue;
}

/**
 * The update that makes a stored event say what the VEVENT says: only the differing fields (all
 * date fields together when any differs), `{}` when nothing does. Names of venues, organizers and
 * categories compare case-insensitively, as the server matches them (contract §4 row 13). A
 * description is never cleared (the API rejects an empty one, §2.3); a website, venue,
 * organizers and categories the file no longer has are removed.
 */
export function eventChanges(e: IcsEvent, r: RemoteEvent, options: BodyOptions = {}): EventBody {
  const { slug: _slug, ...body } = eventBody(e, options);
  const out: EventBody = {};
  if (r.title !== body.title) out.title = body.title;
  if (body.description !== undefined && autop(body.description) !== r.description)
    out.description = body.description;
  if (!sameDates(e.dates, r, options.timezone))
    Object.assign(out, dateFields(e.dates, options.timezone));
  // Without a website of its own an event echoes its permalink: an occurrence's or series' is
  // `/event/{slug}/` (its `url` adds the date, contract §7.8).
  const permalink = r.series ? r.url.replace(/\d{4}-\d{2}-\d{2}\/$/, "") : r.url;
  if (
    body.website !== undefined
      ? r.website !== body.website
      : r.website !== "" && r.website !== r.url && r.website !== permalink
  )
    out.website = body.website ?? "";
  const venue = venueName(r);
  if (e.venue !== undefined ? !same(venue, e.venue) : venue !== undefined)
    out.venue = body.venue ?? "";
  const names = r.organizer.map((o) => o.organizer);
  if (names.length !== e.organizers.length || e.organizers.some((o, i) => !same(o.name, names[i])))
    out.organizer = body.organizer ?? [];
  const stored = new Set(r.categories.map((c) => c.name.trim().toLowerCase()));
  const wanted = new Set(e.categories.map((c) => c.toLowerCase()));
  if (stored.size !== wanted.size || [...wanted].some((c) => !stored.has(c)))
    out.categories = body.categories ?? [];
  // An image is set or replaced, never removed (a file without IMAGE says nothing about it).
  if (body.image !== undefined && (r.image ? r.image.url : undefined) !== body.image)
    out.image = body.image;
  return out;
}

/**
 * Keys of the venues, organizers and categories a body finds or creates by name (`venue:hall a`,
 * `organizer:…`, `category:…`): two requests that could both create the same one must not run at
 * the same time, or each would create its own.
 */
export function linkedKeys(body: EventBody): string[] {
  const keys: string[] = [];
  if (body.venue) keys.push(`venue:${body.venue.venue.trim().toLowerCase()}`);
  for (const o of body.organizer ?? []) keys.push(`organizer:${o.organizer.trim().toLowerCase()}`);
  for (const c of body.categories ?? []) keys.push(`category:${c.trim().toLowerCase()}`);
  return keys;
}

/** The keys of what a stored event links to (all of these exist already). */
export function existingKeys(r: RemoteEvent): string[] {
  const venue = venueName(r);
  return [
    ...(venue ? [`venue:${venue.trim().toLowerCase()}`] : []),
    ...r.organizer.map((o) => `organizer:${o.organizer.trim().toLowerCase()}`),
    ...r.categories.map((c) => `category:${c.name.trim().toLowerCase()}`),
  ];
}
