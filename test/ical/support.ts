/**
 * Reading the feed as a calendar client would: the raw text (for line-level checks) and ical.js, a
 * maintained RFC 5545 parser, for everything else. Times are converted to UTC with the feed's own
 * VTIMEZONEs, so a wrong VTIMEZONE shows up as a wrong instant.
 */
import { SELF } from "cloudflare:test";
import ICAL from "ical.js";
import { NS, ORIGIN } from "../support/api";

export interface Feed {
  status: number;
  headers: Headers;
  text: string;
  /** Body chunks as they arrived (a streamed answer arrives in several). */
  chunks: number;
}

/** GETs `{NS}/events.ics{query}` and reads the body chunk by chunk. */
export async function feed(query = "", headers: Record<string, string> = {}): Promise<Feed> {
  const res = await SELF.fetch(`${ORIGIN}${NS}/events.ics${query}`, { headers });
  let text = "";
  let chunks = 0;
  if (res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      text += value;
    }
  }
  return { status: res.status, headers: res.headers, text, chunks };
}

/** A VEVENT read back: the fields the tests look at. */
export interface ParsedEvent {
  uid: string;
  summary: string;
  /** DTSTART/DTEND in UTC (`Y-m-d H:i:s`), or the DATE for all-day events. */
  start: string;
  end: string;
  allDay: boolean;
  tzid: string | null;
  component: ICAL.Component;
}

const wp = (t: ICAL.Time) => {
  const p = (n: number) => String(n).padStart(2, "0");
  return t.isDate
    ? `${t.year}-${p(t.month)}-${p(t.day)}`
    : `${t.year}-${p(t.month)}-${p(t.day)} ${p(t.hour)}:${p(t.minute)}:${p(t.second)}`;
};

/** Parses a calendar with ical.js (throws on malformed text) and reads its VEVENTs. */
export function parse(text: string): { calendar: ICAL.Component; events: ParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents("vevent").map((component) => {
    const event = new ICAL.Event(component);
    const utc = (t: ICAL.Time) =>
      t.isDate ? wp(t) : wp(t.convertToZone(ICAL.Timezone.utcTimezone));
    const tz = component.getFirstProperty("dtstart")!.getParameter("tzid");
    return {
      uid: event.uid,
      summary: event.summary,
      start: utc(event.startDate),
      end: utc(event.endDate),
      allDay: event.startDate.isDate,
      tzid: (Array.isArray(tz) ? tz[0] : tz) ?? null,
      component,
    };
  });
  return { calendar, events };
}

/** RFC 5545 TEXT unescaping, for X- properties ical.js keeps raw (it knows no value type for them). */
export const unescapeText = (raw: string) =>
  raw.replace(/\\([\\;,nN])/g, (_, ch: string) => (ch === "n" || ch === "N" ? "\n" : ch));

/** The value of a property as text (unescaped), `undefined` when absent. */
export const prop = (c: ICAL.Component, name: string): string | undefined => {
  const p = c.getFirstProperty(name);
  const value = p?.getFirstValue();
  if (value === null || value === undefined) return undefined;
  return p!.type === "unknown" ? unescapeText(String(value)) : String(value);
};
