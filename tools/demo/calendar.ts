/**
 * The deterministic demo calendar: the same seed and the same "today" always give the same rows.
 * About 300 events over the coming 12 months plus a few in the last days (so that yesterday and
 * today have events), 15 venues, 12 organizers, 8 categories and 15 tags, with every row the API
 * needs: `posts` registry entries, organizer links in order, term links. Term counts are left to
 * the SQL (see `demoSql`), so they are computed exactly as the worker computes them.
 */
import type { DateTime } from "luxon";
import { createRandom } from "../lib/prng";
import type { SqlRow } from "../lib/sql";
import { slugger } from "./common";
import { type DraftEvent, draftEvent } from "./events";
import { organizerRows, termRows, venueRows } from "./linked";

/** Password of the password-protected demo events (stored only as its SHA-256). */
export const DEMO_PASSWORD = "letmein";
/**
 * SHA-256 of `DEMO_PASSWORD`, hex (written out, so that the calendar builds without Node's crypto:
 * the tests build it inside workerd; tools/demo/calendar.test.ts checks it).
 */
export const DEMO_PASSWORD_DIGEST =
  "1c8bfe8f801d79745c4631d09fff36c82aa37fc4cce4fc946683d7b336b63032";

/** Inputs of `buildDemoCalendar`: with the same values, the same calendar. */
export interface DemoOptions {
  /** Site-local midnight of the day the calendar is built around (a luxon DateTime in the site zone). */
  today: DateTime;
  /** Zone of online events: the site's (IANA or `UTC±H`). */
  siteTimezone: string;
  /** First free post id (venues, organizers and events share the sequence). */
  firstPostId: number;
  /** First free term id (categories and tags share the sequence). */
  firstTermId: number;
  /** Number of upcoming events (default 300). */
  upcoming?: number;
  seed?: string;
}

/** Rows per table (snake_case columns) and a summary. */
export interface DemoCalendar {
  posts: SqlRow[];
  terms: SqlRow[];
  venues: SqlRow[];
  organizers: SqlRow[];
  events: SqlRow[];
  eventOrganizers: SqlRow[];
  eventTerms: SqlRow[];
  /** Event counts by kind, for the progress line. */
  summary: Record<string, number>;
}

/** Day offsets of the past events: a few days ago up to today. */
const RECENT_OFFSETS = [-4, -3, -2, -1, -1, 0, 0, 0];

/**
 * Builds the demo calendar.
 * @example buildDemoCalendar({ today: DateTime.utc().startOf("day"), siteTimezone: "UTC", firstPostId: 1, firstTermId: 1 })
 */
export function buildDemoCalendar(options: DemoOptions): DemoCalendar {
  const r = createRandom(options.seed ?? "tec-edge demo calendar v1");
  const { today } = options;
  const venues = venueRows(r, today, options.firstPostId);
  const organizers = organizerRows(r, today, options.firstPostId + venues.length);
  const { rows: terms, ids: termIds } = termRows(today, options.firstTermId);

  const offsets = [
    ...RECENT_OFFSETS,
    ...Array.from({ length: options.upcoming ?? 300 }, () => r.int(1, 365)),
  ];
  // Ids follow creation order, as in WordPress.
  const drafts = offsets
    .map((offset) => draftEvent(r, today, offset, options.siteTimezone))
    .sort((a, b) => String(a.columns.post_date).localeCompare(String(b.columns.post_date)));
  const flags = assignFlags(r, drafts);

  const firstEventId = options.firstPostId + venues.length + organizers.length;
  const slug = slugger();
  const events: SqlRow[] = [];
  const eventOrganizers: SqlRow[] = [];
  const eventTerms: SqlRow[] = [];
  drafts.forEach((d, i) => {
    const id = firstEventId + i;
    const f = flags[i];
    const eventSlug = slug(d.title);
    events.push({
      id,
      ...d.columns,
      slug: eventSlug,
      status: f.status,
      password_digest: f.password ? DEMO_PASSWORD_DIGEST : "",
      website: r.chance(0.4) ? `https://tickets.example/${eventSlug}` : null,
      hide_from_listings: f.hidden,
      sticky: f.sticky,
      featured: f.featured,
      ticketed: d.paid && r.chance(0.3),
      venue_id: d.venue === null ? null : Number(venues[d.venue].id),
    });
    for (const [position, o] of d.organizers.entries()) {
      eventOrganizers.push({ event_id: id, organizer_id: Number(organizers[o].id), position });
    }
    for (const key of d.categories)
      eventTerms.push({ event_id: id, term_id: termIds.categories.get(key)! });
    for (const key of d.tags) eventTerms.push({ event_id: id, term_id: termIds.tags.get(key)! });
  });

  const posts = [
    ...venues.map((v) => ({ id: v.id, post_type: "tribe_venue" })),
    ...organizers.map((o) => ({ id: o.id, post_type: "tribe_organizer" })),
    ...events.map((e) => ({ id: e.id, post_type: "tribe_events" })),
  ];
  const count = (pred: (e: SqlRow) => boolean) => events.filter(pred).length;
  const summary = {
    events: events.length,
    published: count((e) => e.status === "publish"),
    draft: count((e) => e.status === "draft"),
    pending: count((e) => e.status === "pending"),
    private: count((e) => e.status === "private"),
    featured: count((e) => e.featured === true),
    sticky: count((e) => e.sticky === true),
    hidden: count((e) => e.hide_from_listings === true),
    password: count((e) => e.password_digest !== ""),
    allDay: count((e) => e.all_day === true),
    multiDay: count((e) => String(e.start_date).slice(0, 10) !== String(e.end_date).slice(0, 10)),
    venues: venues.length,
    organizers: organizers.length,
    terms: terms.length,
  };
  return { posts, terms, venues, organizers, events, eventOrganizers, eventTerms, summary };
}

interface Flags {
  status: string;
  password: boolean;
  hidden: boolean;
  sticky: boolean;
  featured: boolean;
}

/**
 * Exact numbers of each kind, drawn at random: ~5% drafts, a few pending and private, a few password
 * protected and hidden (upcoming events only, so yesterday and today stay visible), ~8% featured,
 * a few sticky.
 */
function assignFlags(r: Random, drafts: DraftEvent[]): Flags[] {
  const flags: Flags[] = drafts.map(() => ({
    status: "publish",
    password: false,
    hidden: false,
    sticky: false,
    featured: false,
  }));
  const upcoming = r.shuffle([...drafts.keys()].filter((i) => !drafts[i].recent));
  const take = (n: number) => upcoming.splice(0, n);
  for (const i of take(Math.round(drafts.length * 0.05))) flags[i].status = "draft";
  for (const i of take(4)) flags[i].status = "pending";
  for (const i of take(3)) flags[i].status = "private";
  for (const i of take(4)) flags[i].password = true;
  for (const i of take(4)) flags[i].hidden = true;
  const published = [...drafts.keys()].filter((i) => flags[i].status === "publish");
  for (const i of r.sample(published, Math.round(drafts.length * 0.08))) flags[i].featured = true;
  for (const i of r.sample(published, 6)) flags[i].sticky = true;
  return flags;
}

type Random = ReturnType<typeof createRandom>;
