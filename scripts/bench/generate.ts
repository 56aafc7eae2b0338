/**
 * The generated calendar of `npm run bench -- --sizes <n>`: n events drawn by the demo calendar's
 * own code (tools/demo: `draftEvent` over its programs, venues, organizers, categories and tags),
 * spread over the past 365 days and the next 730 (so the default window, yesterday … +24 months,
 * holds about 2/3 of them). Venues and organizers are numbered copies of the demo's (~2% and ~1.5%
 * of the events; a copy keeps its template's city, zone and currency, its geo moved a little), so
 * that an event's venue is one of the copies of the venue `draftEvent` chose. Events that mention
 * jazz are mostly drawn again, leaving ~1.5% of them for `search=jazz`. ~5% drafts, a few pending,
 * hidden, featured and sticky. Deterministic for the same size and day; no I/O.
 */
import type { DateTime } from "luxon";
import { sanitizeTitle } from "../../src/text/html";
import type { DemoCalendar } from "../../tools/demo/calendar";
import { slugger } from "../../tools/demo/common";
import { type DraftEvent, draftEvent } from "../../tools/demo/events";
import { organizerRows, termRows, venueRows } from "../../tools/demo/linked";
import { ORGANIZERS, VENUES } from "../../tools/demo/places";
import { createRandom, type Random } from "../../tools/lib/prng";
import type { SqlRow } from "../../tools/lib/sql";

/** Bump when the generated rows change: a dataset built by another version is rebuilt. */
export const GENERATOR_VERSION = 2;

/** Share of the drafts that mention jazz (~6% of the demo's) that are kept: ~1.5% of all events. */
const KEEP_JAZZ = 0.24;

/** The calendar in parts for `demoStatements`: what the events need first, then events by index. */
export interface Generated {
  /** Registry rows, categories and tags, venues, organizers. */
  prelude: DemoCalendar;
  /** The events with index `from` to `to` (excluded, in creation order), their registry rows and links. */
  events(from: number, to: number): DemoCalendar;
}

/**
 * `count` copies of `template` rows (made by `rows(firstId)`, one per template), ids from
 * `firstId`: the k-th copy of a row is titled `<title> <k+1>` and its coordinates moved ±0.05°.
 */
function copies(
  r: Random,
  count: number,
  firstId: number,
  templates: number,
  rows: (firstId: number) => SqlRow[],
): SqlRow[] {
  const slug = slugger();
  const out: SqlRow[] = [];
  for (let k = 0; out.length < count; k++)
    for (const row of rows(firstId + k * templates).slice(0, count - out.length)) {
      const title = k === 0 ? String(row.title) : `${row.title} ${k + 1}`;
      const move = (v: unknown) =>
        v === null ? null : Number((Number(v) + (r.next() - 0.5) / 10).toFixed(6));
      out.push({
        ...row,
        title,
        slug: slug(title),
        ...("geo_lat" in row && k > 0
          ? { geo_lat: move(row.geo_lat), geo_lng: move(row.geo_lng) }
          : {}),
      });
    }
  return out;
}

/** WordPress-style unique slugs (`title`, `title-2`, …), O(1) per slug for titles repeated 1000s of times. */
function eventSlugger(): (title: string) => string {
  const taken = new Set<string>();
  const next = new Map<string, number>();
  return (title) => {
    const base = sanitizeTitle(title) || "post";
    let n = next.get(base) ?? 1;
    let slug = n === 1 ? base : `${base}-${n}`;
    while (taken.has(slug)) slug = `${base}-${++n}`;
    next.set(base, n + 1);
    taken.add(slug);
    return slug;
  };
}

/**
 * Builds the calendar of `size` events around `today` (site-local midnight, a luxon DateTime in the
 * site zone). Online events are in `siteTimezone`.
 * @example const g = generateCalendar(1000, DateTime.now().startOf("day"), "UTC"); g.events(0, 500)
 */
export function generateCalendar(size: number, today: DateTime, siteTimezone: string): Generated {
  const r = createRandom(`tec-edge bench v${GENERATOR_VERSION} ${size}`);
  const venues = copies(
    r,
    Math.max(VENUES.length, Math.round(size * 0.02)),
    1,
    VENUES.length,
    (id) => venueRows(r, today, id),
  );
  const organizers = copies(
    r,
    Math.max(ORGANIZERS.length, Math.round(size * 0.015)),
    1 + venues.length,
    ORGANIZERS.length,
    (id) => organizerRows(r, today, id),
  );
  const { rows: terms, ids: termIds } = termRows(today, 1);
  /** The id of a random copy of template `t` among `rows` (copies of `templates` templates). */
  const copyOf = (rows: SqlRow[], templates: number, t: number) =>
    Number(rows[t + templates * r.int(0, Math.ceil((rows.length - t) / templates) - 1)].id);

  const drafts: DraftEvent[] = [];
  while (drafts.length < size) {
    const d = draftEvent(r, today, r.int(-365, 729), siteTimezone);
    const jazz = /jazz/i.test(`${d.title} ${d.columns.content} ${d.columns.excerpt}`);
    if (!jazz || r.chance(KEEP_JAZZ)) drafts.push(d);
  }
  // Ids follow creation order, as in WordPress.
  drafts.sort((a, b) => String(a.columns.post_date).localeCompare(String(b.columns.post_date)));
  const slug = eventSlugger();
  const firstEventId = 1 + venues.length + organizers.length;
  const rows = drafts.map((d, i) => {
    const id = firstEventId + i;
    const eventSlug = slug(d.title);
    const terms = [
      ...d.categories.map((key) => termIds.categories.get(key)!),
      ...d.tags.map((key) => termIds.tags.get(key)!),
    ];
    return {
      event: {
        id,
        ...d.columns,
        slug: eventSlug,
        status: r.chance(0.05) ? "draft" : r.chance(0.004) ? "pending" : "publish",
        website: r.chance(0.4) ? `https://tickets.example/${eventSlug}` : null,
        hide_from_listings: r.chance(0.005),
        sticky: r.chance(0.002),
        featured: r.chance(0.05),
        ticketed: d.paid && r.chance(0.3),
        venue_id: d.venue === null ? null : copyOf(venues, VENUES.length, d.venue),
      },
      organizers: d.organizers.map((o, position) => ({
        event_id: id,
        organizer_id: copyOf(organizers, ORGANIZERS.length, o),
        position,
      })),
      terms: terms.map((termId) => ({ event_id: id, term_id: termId })),
    };
  });
  const part = (p: Partial<DemoCalendar>): DemoCalendar => ({
    ...{ posts: [], terms: [], venues: [], organizers: [], events: [] },
    ...{ eventOrganizers: [], eventTerms: [], summary: {} },
    ...p,
  });
  const post = (type: string) => (row: SqlRow) => ({ id: row.id, post_type: type });
  return {
    prelude: part({
      posts: [...venues.map(post("tribe_venue")), ...organizers.map(post("tribe_organizer"))],
      ...{ terms, venues, organizers },
    }),
    events(from, to) {
      const slice = rows.slice(from, to);
      return part({
        posts: slice.map((e) => post("tribe_events")(e.event)),
        events: slice.map((e) => e.event),
        eventOrganizers: slice.flatMap((e) => e.organizers),
        eventTerms: slice.flatMap((e) => e.terms),
      });
    },
  };
}
