/**
 * The generated calendars of `npm run bench`: `--sizes <n>`, n events drawn by the demo calendar's
 * own code (tools/demo: `draftEvent` over its programs, venues, organizers, categories and tags),
 * spread over the past 365 days and the next 730 (so the default window, yesterday … +24 months,
 * holds about 2/3 of them). Venues and organizers are numbered copies of the demo's (~2% and ~1.5%
 * of the events; a copy keeps its template's city, zone and currency, its geo moved a little), so
 * that an event's venue is one of the copies of the venue `draftEvent` chose. Events that mention
 * jazz are mostly drawn again, leaving ~1.5% of them for `search=jazz`. ~5% drafts, a few pending,
 * hidden, featured and sticky.
 *
 * `--sizes series` (`SERIES`): as many single events, and as many recurring series (contract §7.8)
 * drawn the same way, each `RRULE:FREQ=WEEKLY;COUNT=52` from its start, which lies in the past year
 * or early enough for all 52 to be materialized within the horizon of a write made today (so every
 * series is complete, as the API leaves it). The series rows, their lines and horizon, and their
 * occurrences (ids right after the series' own, as a create reserves them) are those of
 * src/events/series/regenerate.ts `materialize`, the API's own expansion. Deterministic for the same
 * dataset and day; no I/O.
 */
import type { DateTime } from "luxon";
import { IdAllocator } from "../../src/db/ids";
import { parseLines } from "../../src/events/series/lines";
import { COMPLETE, HORIZON_DAYS, horizonAt, materialize } from "../../src/events/series/regenerate";
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

/** What a generated dataset holds: single events, and weekly series of `weeks` occurrences. */
export interface GeneratedSpec {
  singles: number;
  series: number;
  weeks: number;
}

/** `--sizes series`: 10,000 weekly series × 52 occurrences among 10,000 single events. */
export const SERIES: GeneratedSpec = { singles: 10_000, series: 10_000, weeks: 52 };

/** The generated dataset a `--sizes` name stands for (`series`, or a number of single events). */
export function generatedSpec(dataset: string): GeneratedSpec {
  return dataset === "series" ? SERIES : { singles: Number(dataset), series: 0, weeks: 0 };
}

/** A dataset's name in the report. */
export function datasetLabel(dataset: string): string {
  if (dataset === "demo") return "demo calendar";
  const { singles, series, weeks } = generatedSpec(dataset);
  const n = (x: number) => x.toLocaleString("en-US");
  if (!series) return `${n(singles)} events`;
  return `${n(series)} weekly series × ${weeks} occurrences, ${n(singles)} single events`;
}

/** Event rows (series and single events) a dataset has. */
export const eventRowsOf = (spec: GeneratedSpec) => spec.singles + spec.series;

/** The calendar in parts for `demoStatements`: what the events need first, then events by index. */
export interface Generated {
  /** Registry rows, categories and tags, venues, organizers. */
  prelude: DemoCalendar;
  /**
   * The events with index `from` to `to` (excluded, in creation order), their registry rows (their
   * occurrences' too) and links, and the rows of `event_occurrences` of the series among them.
   */
  events(from: number, to: number): DemoCalendar & { occurrences: SqlRow[] };
  /** Events per D1 batch that keep a batch about as large as 2,000 single events. */
  chunk: number;
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
 * Runs `f` with `Intl.DateTimeFormat` remembered by its arguments (a format is immutable: the same
 * arguments, the same answers). luxon makes a new one for every zone name it prints, and the zone
 * abbreviations of src/time/zone.ts ask for up to nine per date: ~0.4 ms each, ~12× less remembered
 * (510,000 occurrences of `SERIES` took minutes without it).
 */
function withFormatMemo<T>(f: () => T): T {
  const original = Intl.DateTimeFormat;
  const made = new Map<string, Intl.DateTimeFormat>();
  const memo = function DateTimeFormat(
    locales?: string | string[],
    options?: Intl.DateTimeFormatOptions,
  ) {
    const key = JSON.stringify([locales, options]);
    let format = made.get(key);
    if (!format) {
      format = new original(locales, options);
      made.set(key, format);
    }
    return format;
  } as typeof Intl.DateTimeFormat;
  Object.assign(memo, {
    supportedLocalesOf: original.supportedLocalesOf,
    prototype: original.prototype,
  });
  Intl.DateTimeFormat = memo;
  try {
    return f();
  } finally {
    Intl.DateTimeFormat = original;
  }
}

/**
 * Builds the calendar of `spec` (a number: that many single events) around `today` (site-local
 * midnight, a luxon DateTime in the site zone). Online events are in `siteTimezone`.
 * @example const g = generateCalendar(1000, DateTime.now().startOf("day"), "UTC"); g.events(0, 500)
 */
export function generateCalendar(
  spec: number | GeneratedSpec,
  today: DateTime,
  siteTimezone: string,
): Generated {
  return withFormatMemo(() => build(spec, today, siteTimezone));
}

function build(spec: number | GeneratedSpec, today: DateTime, siteTimezone: string): Generated {
  const { singles, series, weeks } =
    typeof spec === "number" ? { singles: spec, series: 0, weeks: 0 } : spec;
  const size = singles + series;
  const r = createRandom(
    `tec-edge bench v${GENERATOR_VERSION} ${singles}${series ? ` series ${series}x${weeks}` : ""}`,
  );
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

  const drafts: Array<DraftEvent & { series?: boolean }> = [];
  const draw = (count: number, lastDay: number, series: boolean) => {
    for (let n = 0; n < count; ) {
      const d = draftEvent(r, today, r.int(-365, lastDay), siteTimezone);
      const jazz = /jazz/i.test(`${d.title} ${d.columns.content} ${d.columns.excerpt}`);
      if (!jazz || r.chance(KEEP_JAZZ)) {
        drafts.push(series ? { ...d, series } : d);
        n++;
      }
    }
  };
  draw(singles, 729, false);
  // A series' last start (its first + weeks - 1 weeks, two days to spare for zones) before the horizon.
  draw(series, HORIZON_DAYS - 7 * (weeks - 1) - 2, true);
  // Ids follow creation order, as in WordPress (a series' occurrences right after it).
  drafts.sort((a, b) => String(a.columns.post_date).localeCompare(String(b.columns.post_date)));
  const slug = eventSlugger();
  const horizon = horizonAt(today);
  let nextId = 1 + venues.length + organizers.length;
  const rows = drafts.map((d) => {
    const id = nextId++;
    const eventSlug = slug(d.title);
    const terms = [
      ...d.categories.map((key) => termIds.categories.get(key)!),
      ...d.tags.map((key) => termIds.tags.get(key)!),
    ];
    const event: SqlRow = {
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
      ...{ series_id: null, recurrence: null, occurrence_start: null, horizon_gmt: null },
    };
    const occurrences: SqlRow[] = [];
    if (d.series) {
      const c = d.columns;
      const times = {
        timezone: String(c.timezone),
        allDay: Boolean(c.all_day),
        startDate: String(c.start_date),
        endDate: String(c.end_date),
        startDateUtc: String(c.start_date_utc),
        endDateUtc: String(c.end_date_utc),
      };
      const frame = { timezone: times.timezone, allDay: times.allDay, start: times.startDate };
      const rec = parseLines([`RRULE:FREQ=WEEKLY;COUNT=${weeks}`], frame);
      const ids = Array.from({ length: weeks - 1 }, (_, k) => id + 1 + k);
      const m = materialize(
        { ...times, id, rec },
        { horizonGmt: horizon },
        new Map(),
        new Map(),
        IdAllocator.of(ids),
      );
      if (m.horizonGmt !== COMPLETE || m.occurrences.length !== weeks - 1)
        throw new Error(
          `series ${id} from ${times.startDate}: not all ${weeks} within the horizon`,
        );
      nextId += m.occurrences.length;
      Object.assign(event, {
        series_id: id,
        recurrence: JSON.stringify(m.lines),
        occurrence_start: times.startDate,
        horizon_gmt: m.horizonGmt,
      });
      // What src/events/series/regenerate.ts `insertOccurrences` writes: the series' status, listing
      // flag and post date; the write's time (here the series' last change).
      for (const o of m.occurrences)
        occurrences.push({
          id: o.id,
          series_id: id,
          occurrence_start: o.occurrenceStart,
          start_date: o.startDate,
          end_date: o.endDate,
          start_date_utc: o.startDateUtc,
          end_date_utc: o.endDateUtc,
          timezone_abbr: o.timezoneAbbr,
          status: event.status,
          hide_from_listings: event.hide_from_listings,
          post_date: event.post_date,
          changed_gmt: event.changed_gmt,
        });
    }
    return {
      event,
      occurrences,
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
      const occurrences = slice.flatMap((e) => e.occurrences);
      return {
        ...part({
          posts: [...slice.map((e) => e.event), ...occurrences].map(post("tribe_events")),
          events: slice.map((e) => e.event),
          eventOrganizers: slice.flatMap((e) => e.organizers),
          eventTerms: slice.flatMap((e) => e.terms),
        }),
        occurrences,
      };
    },
    // A series brings `weeks - 1` occurrence rows (and registry rows), far lighter than an event row.
    chunk: series ? Math.round(2000 / (1 + (weeks * series) / size / 10)) : 2000,
  };
}
