/**
 * iCalendar (RFC 5545) files read into the events the importer sends to `POST /events` (contract
 * §7.9). Runs in Node (the `npm run import` CLI) and in workerd (tests). The whole file is read and
 * validated before anything is sent, so a bad file imports nothing.
 *
 * Mapping: UID → `uid`; SUMMARY → `title`; DESCRIPTION → `description` (HTML kept as written), or
 * the HTML of X-ALT-DESC;FMTTYPE=text/html when there is one; URL → `website`; IMAGE (RFC 7986, a
 * URI) → `image`; LOCATION → the venue: its name, and its address where the text has the form
 * `Name, street, city…` (location.ts); GEO → the venue's `geo_lat`/`geo_lng`; ORGANIZER (CN, else
 * the mailto address) → organizers; CATEGORIES (every property, every value) → category names;
 * DTSTART/DTEND/DURATION → dates (see dates.ts). STATUS:CANCELLED events are imported like the
 * others, with a warning.
 *
 * RFC 9073 components, as this service's own feed writes them (src/ical): a VLOCATION with a
 * schema.org `Place` in STRUCTURED-DATA (application/ld+json) gives the venue's name (NAME) and
 * address, phone, website and coordinates; VPARTICIPANTs with a schema.org `Person` give the
 * organizers, in order, with e-mail, phone and website (they replace ORGANIZER, which RFC 5545 allows
 * only once per event).
 *
 * Decisions where RFC 5545 leaves room:
 * - A VEVENT without SUMMARY is imported as "(untitled)" (with a warning): SUMMARY is optional in
 *   RFC 5545, and the API needs a title.
 * - UID and DTSTART are required (the UID is how a second import recognizes an event); a UID must be
 *   unique in the file, at most 255 characters, and without commas (the API's `uid` filter splits
 *   on commas).
 * - A recurring event (RRULE, RDATE, EXDATE) is a series (`IcsSeries`), imported as one event with
 *   `recurrence` lines (recurrence.ts `recurrenceLines`) and the UID of the file; the VEVENTs with
 *   its RECURRENCE-ID change one occurrence each (`overrides`, keyed by the occurrence's original
 *   start); a cancelled one (STATUS:CANCELLED) is left out, like an EXDATE (it is one in the lines).
 *   Its occurrences are also expanded up to `until` (`copies`, UIDs `{UID}#{original start}`,
 *   changes applied): the form the importer falls back to when the API cannot hold the series, and
 *   the keys by which it finds the copies an earlier importer made.
 */
import type ICAL from "ical.js";
import { DateTime } from "luxon";
import { listToArray } from "../../src/http/validators";
import { isUrl } from "../../src/linked-posts/fields";
import { schemaTypeOf } from "../../src/linked-posts/json-ld";
import { eventDates, type IcsDates } from "./dates";
import { IcsError } from "./errors";
import { type IcsVenueDetails, parseLocation, regionFields } from "./location";
import {
  expand,
  keyOf,
  MAX_OCCURRENCES,
  recurrenceLines,
  type SeriesFrame,
  type SeriesLines,
} from "./recurrence";
import { type ScannedCalendar, scanCalendar } from "./scan";

export type { IcsDates } from "./dates";
export { IcsError } from "./errors";
export type { IcsVenueDetails } from "./location";

/** An ORGANIZER: `name` from the CN parameter, else the e-mail address (phone and website from a VPARTICIPANT). */
export interface IcsOrganizer {
  name: string;
  email?: string;
  phone?: string;
  website?: string;
}

/** One VEVENT, normalized and validated. Text is unescaped; absent fields are `undefined`/`[]`. */
export interface IcsEvent {
  /** UID, trimmed. */
  uid: string;
  /** 1-based line of the VEVENT's BEGIN. */
  line: number;
  /** SUMMARY with runs of whitespace (newlines too) collapsed, or "(untitled)". */
  title: string;
  /** DESCRIPTION as written (HTML kept), trimmed. */
  description?: string;
  /** URL, when it is an absolute URL. */
  website?: string;
  /**
   * The venue's name: the VLOCATION's NAME, else LOCATION on one line (line breaks become ", "),
   * cut to its first part when the rest is an address (then in `venueDetails`).
   */
  venue?: string;
  /** IMAGE (RFC 7986) with a URI value: the featured image's URL. */
  image?: string;
  /** The venue's address, contact details and coordinates (VLOCATION's `Place`, LOCATION, GEO). */
  venueDetails?: IcsVenueDetails;
  organizers: IcsOrganizer[];
  /** Category names, deduplicated case-insensitively, as the API will split them (on commas). */
  categories: string[];
  /** STATUS:CANCELLED. */
  cancelled: boolean;
  dates: IcsDates;
}

/** Something imported differently from what the file says (the import still goes ahead). */
export interface IcsWarning {
  line: number;
  message: string;
}

/** One RECURRENCE-ID VEVENT of a series: the occurrence it changes, and what it says. */
export interface IcsOverride {
  /** The original start of the occurrence it changes (see recurrence.ts). */
  key: string;
  /** The changing VEVENT (its `uid` is `{UID}#{key}`, for messages). */
  event: IcsEvent;
}

/**
 * A recurring series of the file (RRULE and/or RDATE). It is imported as one event with
 * `recurrence` lines and overrides (contract §7.9); `copies` is the older form, one event per
 * occurrence (`{UID}#{key}`), which the importer falls back to when the instance refuses the lines
 * or `recurrence` is a `reason`.
 */
export interface IcsSeries {
  /** The series' UID (its occurrences as copies have the UIDs `{uid}#{key}`). */
  uid: string;
  /** Line of the VEVENT that defines it. */
  line: number;
  title: string;
  /** The series' own VEVENT (its first occurrence's dates). */
  event: IcsEvent;
  /** The API's `recurrence` lines (RECURRENCE-ID cancellations among the EXDATEs), or why there are none. */
  recurrence: SeriesLines;
  /** The RECURRENCE-ID VEVENTs that change an occurrence (cancelled ones are EXDATEs instead). */
  overrides: IcsOverride[];
  /** Every occurrence up to `until` as an event of its own (`expand`), changes applied. */
  copies: IcsEvent[];
  /** The keys of `copies`. */
  keys: string[];
}

/** A parsed file. */
export interface IcsCalendar {
  /** X-WR-CALNAME, when given. */
  name?: string;
  /** The VEVENTs that do not recur (and changed occurrences whose series is not in the file). */
  events: IcsEvent[];
  /** The recurring series (not among `events`). */
  series: IcsSeries[];
  warnings: IcsWarning[];
  /** The last non-blank line of the file. */
  lineCount: number;
}

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 37)}...` : text);
const oneLine = (text: string) =>
  text
    .replace(/\s*[\r\n]+\s*/g, ", ")
    .replace(/\s+/g, " ")
    .trim();
const EMAIL = /^[^\s@<>,;:]+@[^\s@<>,;:]+$/;

/** First value of a text property as a string (`""` when absent). */
function textOf(vevent: ICAL.Component, name: string): string {
  const value = vevent.getFirstPropertyValue(name);
  return value === null || value === undefined ? "" : String(value).trim();
}

function organizersOf(
  vevent: ICAL.Component,
  scanned: ScannedCalendar,
  warn: (line: number, message: string) => void,
): IcsOrganizer[] {
  const out: IcsOrganizer[] = [];
  for (const prop of vevent.getAllProperties("organizer")) {
    const param = prop.getParameter("cn");
    const cn = oneLine(String((Array.isArray(param) ? param[0] : param) ?? ""));
    const address = String(prop.getFirstValue() ?? "")
      .replace(/^mailto:/i, "")
      .trim();
    const email = EMAIL.test(address) ? address : undefined;
    const name = cn || email;
    if (!name) {
      warn(scanned.origin(prop).line, "ORGANIZER without CN or e-mail address: ignored");
      continue;
    }
    if (!out.some((o) => o.name.toLowerCase() === name.toLowerCase()))
      out.push(email ? { name, email } : { name });
  }
  return out;
}

/** Value of a parameter as one string (`""` when absent). */
function param(prop: ICAL.Property, name: string): string {
  const value = prop.getParameter(name);
  return String((Array.isArray(value) ? value[0] : value) ?? "").trim();
}

/** The schema.org object of a component's STRUCTURED-DATA (JSON-LD, RFC 9073 §6.6) of `type`, if any. */
function structuredData(
  component: ICAL.Component,
  type: string,
): Record<string, unknown> | undefined {
  for (const prop of component.getAllProperties("structured-data")) {
    if (param(prop, "fmttype").toLowerCase() !== "application/ld+json") continue;
    try {
      const data = JSON.parse(String(prop.getFirstValue() ?? "")) as unknown;
      if (schemaTypeOf(data) === type) return data as Record<string, unknown>;
    } catch {
      // Not JSON: ignored like any property the importer does not read.
    }
  }
  return undefined;
}

const str = (x: unknown) => (typeof x === "string" && x.trim() !== "" ? x.trim() : undefined);
const num = (x: unknown) =>
  typeof x === "number" && Number.isFinite(x)
    ? x
    : typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x))
      ? Number(x)
      : undefined;
const webUrl = (x: unknown) => (str(x) && isUrl(str(x)!) ? str(x) : undefined);

/** The venue of an RFC 9073 VLOCATION with a schema.org Place: its name and details. */
function venueOf(vevent: ICAL.Component): { name: string; details: IcsVenueDetails } | undefined {
  for (const location of vevent.getAllSubcomponents("vlocation")) {
    const place = structuredData(location, "Place");
    const name = oneLine(textOf(location, "name") || (str(place?.name) ?? ""));
    if (!place || name === "") continue;
    const address = (
      place.address && typeof place.address === "object" ? place.address : {}
    ) as Record<string, unknown>;
    const geo = (place.geo && typeof place.geo === "object" ? place.geo : {}) as Record<
      string,
      unknown
    >;
    const country =
      str(address.addressCountry) ??
      str((address.addressCountry as Record<string, unknown> | undefined)?.name);
    const region = str(address.addressRegion);
    const us = country === undefined || /^(US|USA|United States)$/i.test(country);
    const details: IcsVenueDetails = {
      address: str(address.streetAddress),
      city: str(address.addressLocality),
      ...regionFields(region, us),
      zip: str(address.postalCode),
      country,
      phone: str(place.telephone),
      website: webUrl(place.url) ?? webUrl(place.sameAs),
      geo_lat: num(geo.latitude),
      geo_lng: num(geo.longitude),
    };
    return {
      name,
      details: Object.fromEntries(
        Object.entries(details).filter(([, v]) => v !== undefined),
      ) as IcsVenueDetails,
    };
  }
  return undefined;
}

/** Organizers of RFC 9073 VPARTICIPANTs with a schema.org Person, in order. */
function participantsOf(vevent: ICAL.Component): IcsOrganizer[] {
  const out: IcsOrganizer[] = [];
  for (const participant of vevent.getAllSubcomponents("vparticipant")) {
    const person = structuredData(participant, "Person");
    if (!person) continue;
    const name = oneLine(str(person.name) ?? textOf(participant, "summary"));
    if (name === "" || out.some((o) => o.name.toLowerCase() === name.toLowerCase())) continue;
    const address = textOf(participant, "calendar-address").replace(/^mailto:/i, "");
    const email = [str(person.email), address].find((e) => e !== undefined && EMAIL.test(e));
    const phone = str(person.telephone);
    const website = webUrl(person.url) ?? webUrl(person.sameAs);
    out.push({
      name,
      ...(email ? { email } : {}),
      ...(phone ? { phone } : {}),
      ...(website ? { website } : {}),
    });
  }
  return out;
}

/**
 * HTML of an X-ALT-DESC;FMTTYPE=text/html, reduced to the body's content when it is a whole
 * document (as Outlook writes it); undefined without one.
 */
function htmlDescription(vevent: ICAL.Component): string | undefined {
  const prop = vevent
    .getAllProperties("x-alt-desc")
    .find((p) => param(p, "fmttype").toLowerCase() === "text/html");
  if (!prop) return undefined;
  // ical.js knows no value type for X- properties and keeps their TEXT escapes.
  let html = String(prop.getFirstValue() ?? "");
  if (prop.type !== "text")
    html = html.replace(/\\([\\;,nN])/g, (_, ch: string) => (ch === "n" || ch === "N" ? "\n" : ch));
  const body = /<body[^>]*>([\s\S]*?)<\/body>/i.exec(html);
  if (body) html = body[1];
  html = html.replace(/<!DOCTYPE[^>]*>|<\/?html[^>]*>|<head[^>]*>[\s\S]*?<\/head>/gi, "").trim();
  return html === "" ? undefined : html;
}

function categoriesOf(
  vevent: ICAL.Component,
  scanned: ScannedCalendar,
  warn: (line: number, message: string) => void,
): string[] {
  const out: string[] = [];
  for (const prop of vevent.getAllProperties("categories")) {
    // The API reads each name like a list (`list_to_array`): split the same way, so that what is
    // compared on the next import is what the server stored.
    for (const name of listToArray(prop.getValues().map(String)).map(String)) {
      if (/^\d+$/.test(name) || name.length > 200) {
        warn(
          scanned.origin(prop).line,
          `category "${clip(name)}" ignored: the API reads ${name.length > 200 ? "names over 200 characters" : "numbers as category ids"}`,
        );
      } else if (!out.some((c) => c.toLowerCase() === name.toLowerCase())) out.push(name);
    }
  }
  return out;
}

/** GEO (RFC 5545 §3.8.1.6) as `[latitude, longitude]`, or undefined (with a warning when invalid). */
function geoOf(
  vevent: ICAL.Component,
  scanned: ScannedCalendar,
  warn: (line: number, message: string) => void,
): [number, number] | undefined {
  const prop = vevent.getFirstProperty("geo");
  if (!prop) return undefined;
  const value = prop.getFirstValue() as unknown;
  const [lat, lng] = (Array.isArray(value) ? value : String(value).split(";")).map(Number);
  if (Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180)
    return [lat, lng];
  warn(
    scanned.origin(prop).line,
    `GEO "${clip(scanned.origin(prop).raw)}" is not latitude;longitude: ignored`,
  );
  return undefined;
}

function readEvent(
  vevent: ICAL.Component,
  scanned: ScannedCalendar,
  warn: (line: number, message: string) => void,
  zones: Set<string>,
): IcsEvent {
  const line = scanned.origin(vevent).line;
  const uidProp = vevent.getFirstProperty("uid");
  const uid = uidProp ? String(uidProp.getFirstValue() ?? "").trim() : "";
  const uidLine = uidProp ? scanned.origin(uidProp).line : line;
  if (!uid)
    throw new IcsError(
      uidLine,
      "VEVENT without UID (a UID is needed so that a second import finds the event again)",
    );
  if (uid.length > 255)
    throw new IcsError(uidLine, "UID longer than 255 characters (the API's limit)");
  if (uid.includes(","))
    throw new IcsError(
      uidLine,
      `UID "${clip(uid)}" contains a comma, which the API's uid filter cannot look up`,
    );
  const dates = eventDates(vevent, line, scanned, warn, zones);
  let title = oneLine(textOf(vevent, "summary"));
  if (title === "" || title === "0") {
    warn(line, `VEVENT ${clip(uid)} has no SUMMARY: imported as "(untitled)"`);
    title = "(untitled)";
  }
  const description = htmlDescription(vevent) ?? textOf(vevent, "description");
  const url = textOf(vevent, "url");
  if (url && !isUrl(url))
    warn(
      scanned.origin(vevent.getFirstProperty("url")!).line,
      `URL "${clip(url)}" is not an absolute URL: ignored`,
    );
  const location = oneLine(textOf(vevent, "location"));
  const located =
    venueOf(vevent) ?? (location === "" || location === "0" ? undefined : parseLocation(location));
  const venue = located?.name ?? "";
  const geo = geoOf(vevent, scanned, warn);
  if (geo && located && located.details.geo_lat === undefined)
    Object.assign(located.details, { geo_lat: geo[0], geo_lng: geo[1] });
  else if (geo && !located)
    warn(
      scanned.origin(vevent.getFirstProperty("geo")!).line,
      "GEO without LOCATION: ignored (a venue needs a name)",
    );
  const participants = participantsOf(vevent);
  const status = vevent.getFirstProperty("status");
  const cancelled = textOf(vevent, "status").toUpperCase() === "CANCELLED";
  if (cancelled)
    warn(
      scanned.origin(status!).line,
      "STATUS:CANCELLED: imported as an ordinary event (the API has no cancelled status)",
    );
  return {
    uid,
    line,
    title,
    description: description === "" || description === "0" ? undefined : description,
    website: url && isUrl(url) ? url : undefined,
    venue: venue === "" || venue === "0" ? undefined : venue,
    ...(located && Object.keys(located.details).length ? { venueDetails: located.details } : {}),
    ...(webUrl(textOf(vevent, "image")) ? { image: webUrl(textOf(vevent, "image")) } : {}),
    organizers: participants.length ? participants : organizersOf(vevent, scanned, warn),
    categories: categoriesOf(vevent, scanned, warn),
    cancelled,
    dates,
  };
}

/** How to read a file. */
export interface ParseOptions {
  /** Recurring series are expanded into `copies` up to this instant (default: two years from now). */
  until?: DateTime;
}

const tzidOf = (prop: ICAL.Property) => {
  const p = prop.getParameter("tzid");
  return (Array.isArray(p) ? p[0] : p)?.trim() || undefined;
};

/**
 * Parses and validates a whole iCalendar file.
 * @param text the file's content (any line ends; folded lines allowed).
 * @returns the VEVENTs that do not recur, in file order; the recurring series (with their lines,
 *   changed occurrences and copies up to `until`); and warnings for what is imported differently
 *   from the file.
 * @throws IcsError with the 1-based line of the first problem: not an iCalendar file, unbalanced
 *   BEGIN/END, malformed line, VEVENT without UID or DTSTART, duplicate UID, invalid or unknown
 *   dates and time zones, an end before the start, a UID too long for its occurrences' UIDs.
 * @example
 * const { events } = parseIcs(await readFile("schedule.ics", "utf8"));
 * events[0] // { uid: "...", title: "Keynote", dates: { kind: "utc", startUtc: "2025-05-16 13:45:00", ... }, ... }
 */
export function parseIcs(text: string, options: ParseOptions = {}): IcsCalendar {
  const scanned = scanCalendar(text);
  const until = options.until ?? DateTime.utc().plus({ years: 2 });
  const warnings: IcsWarning[] = [];
  const warn = (line: number, message: string) => warnings.push({ line, message });
  const zones = new Set<string>();
  const seen = new Map<string, number>();
  const events: IcsEvent[] = [];
  const series: IcsSeries[] = [];
  const all = scanned.root.getAllSubcomponents("vevent");
  const changes = new Map<string, ICAL.Component[]>();
  for (const vevent of all) {
    if (!vevent.getFirstProperty("recurrence-id")) continue;
    const uid = textOf(vevent, "uid");
    changes.set(uid, [...(changes.get(uid) ?? []), vevent]);
  }
  const occurrenceUid = (uid: string, key: string, line: number) => {
    const full = `${uid}#${key}`;
    if (full.length > 255)
      throw new IcsError(
        line,
        `UID "${clip(uid)}" is too long for the UIDs of its occurrences ({UID}#{start}, at most 255 characters)`,
      );
    return full;
  };
  /** The changed occurrences of a series, by key; cancelled ones are left out. */
  const changed = (uid: string, frame: SeriesFrame) => {
    const out = new Map<string, IcsEvent | null>();
    for (const vevent of changes.get(uid) ?? []) {
      const prop = vevent.getFirstProperty("recurrence-id")!;
      const line = scanned.origin(prop).line;
      const key = keyOf(prop.getFirstValue() as ICAL.Time, tzidOf(prop), frame);
      if (out.has(key))
        throw new IcsError(
          line,
          `a second VEVENT changes the occurrence ${key} of UID "${clip(uid)}"`,
        );
      if (/thisandfuture/i.test(String(prop.getParameter("range") ?? "")))
        warn(line, "RANGE=THISANDFUTURE: only this occurrence is changed");
      const event = readEvent(vevent, scanned, () => undefined, zones);
      if (event.cancelled) {
        warn(
          line,
          `the occurrence ${key} of UID "${clip(uid)}" is cancelled: an EXDATE of the series`,
        );
        out.set(key, null);
      } else out.set(key, { ...event, uid: occurrenceUid(uid, key, line) });
    }
    return out;
  };

  for (const vevent of all) {
    if (vevent.getFirstProperty("recurrence-id")) continue;
    const event = readEvent(vevent, scanned, warn, zones);
    const first = seen.get(event.uid);
    if (first !== undefined) {
      throw new IcsError(
        scanned.origin(vevent.getFirstProperty("uid")!).line,
        `duplicate UID "${clip(event.uid)}" (the VEVENT on line ${first} has it too)`,
      );
    }
    seen.set(event.uid, event.line);
    if (!vevent.getFirstProperty("rrule") && !vevent.getFirstProperty("rdate")) {
      if (changes.has(event.uid))
        warn(
          event.line,
          `UID "${clip(event.uid)}" does not recur: the VEVENTs with its RECURRENCE-ID are ignored`,
        );
      changes.delete(event.uid);
      events.push(event);
      continue;
    }
    const dtstart = vevent.getFirstProperty("dtstart")!;
    const frame: SeriesFrame = {
      first: event.dates,
      tzid: tzidOf(dtstart),
      zone: (dtstart.getFirstValue() as ICAL.Time).zone ?? undefined,
    };
    const { occurrences, capped } = expand(vevent, frame, until);
    if (capped)
      warn(
        event.line,
        `the series "${clip(event.title)}" is cut at ${MAX_OCCURRENCES} occurrences`,
      );
    const overrides = changed(event.uid, frame);
    changes.delete(event.uid);
    const keys: string[] = [];
    const copies: IcsEvent[] = [];
    for (const o of occurrences) {
      if (overrides.has(o.key)) continue;
      copies.push({ ...event, uid: occurrenceUid(event.uid, o.key, event.line), dates: o.dates });
      keys.push(o.key);
    }
    for (const [key, override] of overrides) {
      if (!override) continue;
      copies.push(override);
      keys.push(key);
    }
    if (keys.length === 0)
      warn(
        event.line,
        `the series "${clip(event.title)}" has no occurrence up to ${until.toISODate()}`,
      );
    const cancelled = [...overrides].filter(([, o]) => o === null).map(([key]) => key);
    series.push({
      uid: event.uid,
      line: event.line,
      title: event.title,
      event,
      recurrence: recurrenceLines(vevent, frame, cancelled),
      overrides: [...overrides]
        .filter((entry): entry is [string, IcsEvent] => entry[1] !== null)
        .map(([key, e]) => ({ key, event: e })),
      copies,
      keys,
    });
  }
  // Changed occurrences whose series is not in the file: imported as they are.
  for (const [uid, list] of changes) {
    for (const vevent of list) {
      const own = readEvent(vevent, scanned, warn, zones);
      const dtstart = vevent.getFirstProperty("dtstart")!;
      const frame = { first: own.dates, tzid: tzidOf(dtstart) };
      for (const [, override] of changed(uid, frame)) if (override) events.push(override);
      break;
    }
  }
  const name = textOf(scanned.root, "x-wr-calname");
  return { ...(name ? { name } : {}), events, series, warnings, lineCount: scanned.lineCount };
}
