/**
 * The benchmark calendar: `size` events with ~2% as many venues (most with coordinates), ~1.5% as many
 * organizers, 20 categories (14 nested) and 60 tags, written the way the worker writes them (a `posts`
 * registry row per post, UTC copies of every date, zone abbreviations from src/time/zone.ts, term
 * counts recomputed by SQL at the end).
 *
 * Events are spread uniformly over the past 365 days and the next 730 (so the default window,
 * yesterday … +24 months, holds about 2/3 of them), in their venue's time zone. Each has 1–3 terms,
 * 0–2 organizers, a venue 85% of the time; ~5% are drafts, a few are hidden, featured, sticky, all-day
 * or multi-day. About 1.5% are about jazz (the only rows whose text contains "jazz").
 *
 * Deterministic: the same size, seed and day always give the same rows. Generation is pure (no I/O).
 */
import { DateTime, IANAZone } from "luxon";
import { currencyFromCost } from "../../src/events/cost";
import { sanitizeTitle } from "../../src/text/html";
import { zoneAbbreviation } from "../../src/time/zone";
import { createRandom, type Random } from "../lib/prng";
import type { SqlRow } from "../lib/sql";
import {
  CATEGORIES,
  CITIES,
  type City,
  CLOSERS,
  JAZZ_SENTENCES,
  JAZZ_TOPICS,
  MIDDLES,
  OPENERS,
  ORGANIZER_FIRST,
  ORGANIZER_KIND,
  STREETS,
  TAGS,
  TITLE_PREFIXES,
  TOPICS,
  VENUE_FIRST,
  VENUE_KIND,
} from "./vocabulary";

/** Bump when the generated rows change, so that reused state directories can be told apart. */
export const DATASET_VERSION = 1;

export interface DatasetOptions {
  /** Number of events. */
  size: number;
  /** Site-local calendar day the calendar is built around, `yyyy-MM-dd`. */
  today: string;
  /** Site time zone (post dates and events without venue). */
  siteTimezone: string;
  seed?: string;
}

/** Rows for the tables that must exist before events (ids 1… in the posts registry). */
export interface Prelude {
  posts: SqlRow[];
  terms: SqlRow[];
  venues: SqlRow[];
  organizers: SqlRow[];
}

/** One slice of events with their registry rows and links. */
export interface EventChunk {
  posts: SqlRow[];
  events: SqlRow[];
  eventOrganizers: SqlRow[];
  eventTerms: SqlRow[];
}

export interface DatasetSummary {
  events: number;
  published: number;
  drafts: number;
  pending: number;
  hidden: number;
  featured: number;
  sticky: number;
  allDay: number;
  multiDay: number;
  withVenue: number;
  jazz: number;
  /** Published, listed events that start in the default window (yesterday … +24 months). */
  inDefaultWindow: number;
  venues: number;
  venuesWithGeo: number;
  organizers: number;
  categories: number;
  tags: number;
  termLinks: number;
  organizerLinks: number;
}

export interface Dataset {
  prelude: Prelude;
  /** Events in id order, `chunkSize` at a time (rows are built lazily, chunk by chunk). */
  chunks(chunkSize: number): Generator<EventChunk>;
  summary: DatasetSummary;
}

const DAY = 86_400_000;
const fmt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

/** Time-zone arithmetic on epoch milliseconds (luxon only for offsets and abbreviations, cached). */
class Zones {
  private zones = new Map<string, IANAZone>();
  private abbreviations = new Map<string, string>();

  private zone(name: string): IANAZone {
    let z = this.zones.get(name);
    if (!z) {
      z = IANAZone.create(name);
      this.zones.set(name, z);
    }
    return z;
  }

  private days = new Map<string, number>();

  /**
   * Offset from UTC in minutes at the instant `utcMs`. Intl is slow, so offsets are cached per zone and
   * UTC day: when a day starts and ends with the same offset (no transition that day), that offset holds
   * all day; only transition days are computed exactly.
   */
  offset(name: string, utcMs: number): number {
    const day = Math.floor(utcMs / DAY);
    const key = `${name}|${day}`;
    let cached = this.days.get(key);
    if (cached === undefined) {
      const zone = this.zone(name);
      const first = zone.offset(day * DAY);
      cached = first === zone.offset(day * DAY + DAY - 1) ? first : NaN;
      this.days.set(key, cached);
    }
    return Number.isNaN(cached) ? this.zone(name).offset(utcMs) : cached;
  }

  /** The UTC instant of a wall-clock reading (given as if it were UTC) in zone `name`. */
  toUtc(name: string, wallMs: number): number {
    const first = this.offset(name, wallMs);
    const utc = wallMs - first * 60_000;
    const second = this.offset(name, utc);
    return second === first ? utc : wallMs - second * 60_000;
  }

  /** `Y-m-d H:i:s` of `utcMs` on the wall clock of `name`. */
  local(name: string, utcMs: number): string {
    return fmt(utcMs + this.offset(name, utcMs) * 60_000);
  }

  /** The abbreviation the worker would store (src/time/zone.ts), cached per zone and offset. */
  abbreviation(name: string, utcMs: number): string {
    const key = `${name}|${this.offset(name, utcMs)}`;
    let abbr = this.abbreviations.get(key);
    if (abbr === undefined) {
      abbr = zoneAbbreviation(name, DateTime.fromMillis(utcMs, { zone: name }));
      this.abbreviations.set(key, abbr);
    }
    return abbr;
  }
}

/** WordPress-style unique slugs (`title`, `title-2`, …) in O(1) per slug. */
function slugger(): (title: string) => string {
  const taken = new Set<string>();
  const next = new Map<string, number>();
  return (title) => {
    const base = sanitizeTitle(title) || "post";
    let slug = base;
    let n = next.get(base) ?? 2;
    while (taken.has(slug)) slug = `${base}-${n++}`;
    next.set(base, n);
    taken.add(slug);
    return slug;
  };
}

/** Picks an index with probability proportional to `weights`. */
function weighted(
  r: Random,
  weights: readonly number[],
  total = weights.reduce((a, b) => a + b, 0),
): number {
  let x = r.next() * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i];
    if (x < 0) return i;
  }
  return weights.length - 1;
}

interface PostDates {
  post_date: string;
  post_date_gmt: string;
  post_modified: string;
  post_modified_gmt: string;
  /** The change time `modified_after` filters on (contract §7.3): the last modification. */
  changed_gmt: string;
}

interface Linked {
  id: number;
  city?: City;
}

interface DraftEvent {
  createdMs: number;
  modifiedMs: number;
  title: string;
  content: string;
  excerpt: string;
  startWall: number;
  endWall: number;
  zone: string;
  allDay: boolean;
  cost: string[];
  currencyCode: string;
  venue: number | null;
  organizers: number[];
  terms: number[];
  status: string;
  hidden: boolean;
  featured: boolean;
  sticky: boolean;
  ticketed: boolean;
  website: boolean;
  jazz: boolean;
}

/**
 * Builds the calendar. Venues, organizers and terms are built at once; event rows are built lazily by
 * {@link Dataset.chunks} (the drafts, without their rows, are kept to sort them into id order).
 * @example const ds = buildDataset({ size: 1000, today: "2026-11-22", siteTimezone: "UTC" });
 */
export function buildDataset(options: DatasetOptions): Dataset {
  const { size, siteTimezone } = options;
  const r = createRandom(`${options.seed ?? "tec-edge bench"} v${DATASET_VERSION} ${size}`);
  const zones = new Zones();
  const todayWall = Date.parse(`${options.today}T00:00:00Z`);
  if (!Number.isFinite(todayWall))
    throw new Error(`today must be yyyy-MM-dd, got ${options.today}`);
  // "Now" for post dates: noon of the site-local day.
  const nowUtc = zones.toUtc(siteTimezone, todayWall + DAY / 2);
  const postDates = (createdUtc: number, modifiedUtc: number): PostDates => ({
    post_date: zones.local(siteTimezone, createdUtc),
    post_date_gmt: fmt(createdUtc),
    post_modified: zones.local(siteTimezone, modifiedUtc),
    post_modified_gmt: fmt(modifiedUtc),
    changed_gmt: fmt(modifiedUtc),
  });
  const officeHours = () => (r.int(8, 17) * 3600 + r.int(0, 59) * 60 + r.int(0, 59)) * 1000;

  let nextPostId = 1;
  const posts: SqlRow[] = [];

  // Terms: categories (parents before children), then tags; ids from 1 in the shared term sequence.
  const terms: SqlRow[] = [];
  const categoryIds = new Map<string, number>();
  const termStamp = fmt(nowUtc - 400 * DAY);
  for (const c of CATEGORIES) {
    const id = terms.length + 1;
    categoryIds.set(c.slug, id);
    terms.push({
      id,
      taxonomy: "tribe_events_cat",
      name: c.name,
      slug: c.slug,
      description: `${c.name} events${c.parent ? ` (part of ${CATEGORIES.find((p) => p.slug === c.parent)!.name})` : ""}.`,
      parent: c.parent ? categoryIds.get(c.parent)! : 0,
      modified_gmt: termStamp,
    });
  }
  const tagIds = TAGS.map((name) => {
    const id = terms.length + 1;
    terms.push({
      id,
      taxonomy: "post_tag",
      name: name.replace(/-/g, " "),
      slug: name,
      description: "",
      parent: 0,
      modified_gmt: termStamp,
    });
    return id;
  });

  // Venues: ~2% of the events, spread over cities by weight; 90% with coordinates.
  const venueSlug = slugger();
  const venues: SqlRow[] = [];
  const venueInfo: Linked[] = [];
  const cityWeights = CITIES.map((c) => c.weight);
  const venueCount = Math.max(5, Math.round(size * 0.02));
  for (let i = 0; i < venueCount; i++) {
    const id = nextPostId++;
    const city = CITIES[weighted(r, cityWeights)];
    const title = `${r.pick(VENUE_FIRST)} ${r.pick(VENUE_KIND)}${r.chance(0.3) ? ` ${city.city}` : ""}`;
    const created = nowUtc - r.int(400, 1500) * DAY + officeHours();
    const geo = r.chance(0.9);
    const us = city.country === "United States";
    const slug = venueSlug(title);
    posts.push({ id, post_type: "tribe_venue" });
    venueInfo.push({ id, city });
    venues.push({
      id,
      author: 1,
      status: "publish",
      slug,
      title,
      content: `<p>${title} is a ${r.pick(["cosy", "spacious", "historic", "modern", "friendly"])} venue in ${city.city} with room for ${r.int(3, 80) * 10} people.</p>`,
      excerpt: "",
      ...postDates(created, Math.min(created + r.int(0, 300) * DAY, nowUtc)),
      address: `${r.int(1, 999)} ${r.pick(STREETS)}`,
      city: city.city,
      country: city.country,
      province: city.province,
      state: city.state,
      zip: us ? String(r.int(10000, 99999)) : String(r.int(1000, 99999)),
      phone: `${city.phone}${String(r.int(0, 99)).padStart(2, "0")}`,
      stateprovince: us ? city.state : city.province,
      website: r.chance(0.7) ? `https://${slug}.example` : "",
      show_map: true,
      show_map_link: true,
      geo_lat: geo ? Number((city.centre[0] + (r.next() - 0.5) * 0.2).toFixed(6)) : null,
      geo_lng: geo ? Number((city.centre[1] + (r.next() - 0.5) * 0.2).toFixed(6)) : null,
    });
  }

  // Organizers: ~1.5% of the events.
  const organizerSlug = slugger();
  const organizers: SqlRow[] = [];
  const organizerCount = Math.max(5, Math.round(size * 0.015));
  for (let i = 0; i < organizerCount; i++) {
    const id = nextPostId++;
    const title = `${r.pick(ORGANIZER_FIRST)} ${r.pick(ORGANIZER_KIND)}`;
    const slug = organizerSlug(title);
    const created = nowUtc - r.int(400, 1500) * DAY + officeHours();
    posts.push({ id, post_type: "tribe_organizer" });
    organizers.push({
      id,
      author: 1,
      status: "publish",
      slug,
      title,
      content: `<p>${title} has been organizing events since ${r.int(1995, 2024)}.</p>`,
      excerpt: "",
      ...postDates(created, Math.min(created + r.int(0, 300) * DAY, nowUtc)),
      phone: `+1 555-01${String(r.int(0, 99)).padStart(2, "0")}`,
      website: r.chance(0.8) ? `https://${slug}.example` : "",
      email: `hello@${slug}.example`,
    });
  }

  // Events, as drafts (no ids yet): ids follow creation order, as in WordPress.
  const catWeights = CATEGORIES.map((c) => c.weight);
  const tagWeights = TAGS.map((_, i) => 1 / (i + 1));
  const tagTotal = tagWeights.reduce((a, b) => a + b, 0);
  const pickOrganizers = (n: number): number[] => {
    const out: number[] = [];
    while (out.length < n) {
      const id = Number(organizers[r.int(0, organizers.length - 1)].id);
      if (!out.includes(id)) out.push(id);
    }
    return out;
  };
  const drafts: DraftEvent[] = new Array(size);
  for (let i = 0; i < size; i++) {
    const cat = CATEGORIES[weighted(r, catWeights)];
    const top = cat.parent ?? cat.slug;
    const jazz = top === "music" && r.chance(0.05);
    const topic = jazz ? r.pick(JAZZ_TOPICS) : r.pick(TOPICS[top]);
    const title = `${r.pick(TITLE_PREFIXES)}${topic} ${r.pick(cat.nouns)}`;

    // Terms: 1–3 in all; the category, sometimes its parent, then tags.
    const want = r.pick([1, 2, 2, 3, 3]);
    const termList = [categoryIds.get(cat.slug)!];
    if (cat.parent && want > 1 && r.chance(0.5)) termList.push(categoryIds.get(cat.parent)!);
    while (termList.length < want) {
      const tag = tagIds[weighted(r, tagWeights, tagTotal)];
      if (!termList.includes(tag)) termList.push(tag);
    }

    const hasVenue = r.chance(0.85);
    const venueIndex = hasVenue ? r.int(0, venueInfo.length - 1) : null;
    const city = venueIndex === null ? null : venueInfo[venueIndex].city!;
    const zone = city?.timezone ?? siteTimezone;

    const dayOffset = r.int(-365, 729);
    const allDay = r.chance(0.04);
    const multiDay = allDay ? r.chance(0.3) : r.chance(0.01);
    let startWall: number;
    let endWall: number;
    if (allDay) {
      startWall = todayWall + dayOffset * DAY;
      endWall = startWall + (multiDay ? r.int(1, 3) : 0) * DAY + DAY - 1000;
    } else {
      startWall =
        todayWall + dayOffset * DAY + (r.int(9, 21) * 60 + r.pick([0, 0, 30, 15, 45])) * 60_000;
      endWall =
        startWall + (multiDay ? r.int(1, 2) * DAY : 0) + r.pick([60, 90, 120, 120, 180]) * 60_000;
    }
    const startUtc = zones.toUtc(zone, startWall);

    const currency = city?.currency ?? { symbol: "$", position: "prefix" as const, code: "USD" };
    const scale = currency.code === "JPY" ? 100 : 1;
    const money = (n: number) =>
      currency.position === "prefix"
        ? `${currency.symbol}${n * scale}`
        : `${n * scale}${currency.symbol}`;
    const kind = r.next();
    const lo = r.int(1, 8) * 5;
    const cost =
      kind < 0.3
        ? []
        : kind < 0.5
          ? ["Free"]
          : kind < 0.85
            ? [money(lo)]
            : [`${money(lo)} - ${money(lo + r.int(1, 6) * 5)}`];
    const symbol = currencyFromCost(cost).symbol;

    const cityName = city?.city ?? "town";
    const fill = (s: string) =>
      s
        .replace("{title}", title)
        .replace("{topic}", topic.toLowerCase())
        .replace("{city}", cityName);
    const paragraphs = [
      `<p>${fill(r.pick(OPENERS))} ${jazz ? r.pick(JAZZ_SENTENCES) : r.pick(MIDDLES)}</p>`,
      `<p>${r.pick(MIDDLES)} ${r.pick(CLOSERS)}</p>`,
    ];
    if (r.chance(0.4))
      paragraphs.push(`<ul>\n<li>${r.pick(MIDDLES)}</li>\n<li>${r.pick(CLOSERS)}</li>\n</ul>`);

    // Created 7–120 days before the start, but never after "now".
    const createdDay = Math.min(startUtc - r.int(7, 120) * DAY, nowUtc - r.int(1, 5) * DAY);
    const created = createdDay - (createdDay % DAY) + officeHours();
    const modified = Math.min(created + r.int(0, 10) * DAY + r.int(0, 5400) * 1000, nowUtc);
    const status = r.chance(0.05) ? "draft" : r.chance(0.004) ? "pending" : "publish";
    drafts[i] = {
      createdMs: created,
      modifiedMs: modified,
      title,
      content: paragraphs.join("\n"),
      excerpt: r.chance(0.5) ? fill(r.pick(OPENERS)) : "",
      startWall,
      endWall,
      zone,
      allDay,
      cost,
      currencyCode: symbol ? currency.code : "",
      venue: venueIndex === null ? null : venueInfo[venueIndex].id,
      organizers: pickOrganizers(r.pick([0, 1, 1, 1, 1, 2])),
      terms: termList,
      status,
      hidden: r.chance(0.005),
      featured: r.chance(0.05),
      sticky: r.chance(0.002),
      ticketed: cost.length > 0 && cost[0] !== "Free" && r.chance(0.3),
      website: r.chance(0.3),
      jazz,
    };
  }
  drafts.sort((a, b) => a.createdMs - b.createdMs);
  const firstEventId = nextPostId;

  const windowStart = todayWall - DAY;
  const windowEnd = Date.parse(
    DateTime.fromMillis(todayWall, { zone: "utc" }).plus({ months: 24 }).toISO()!,
  );
  const count = (pred: (d: DraftEvent) => boolean) =>
    drafts.reduce((n, d) => n + (pred(d) ? 1 : 0), 0);
  const summary: DatasetSummary = {
    events: size,
    published: count((d) => d.status === "publish"),
    drafts: count((d) => d.status === "draft"),
    pending: count((d) => d.status === "pending"),
    hidden: count((d) => d.hidden),
    featured: count((d) => d.featured),
    sticky: count((d) => d.sticky),
    allDay: count((d) => d.allDay),
    multiDay: count((d) => d.endWall - d.startWall >= DAY),
    withVenue: count((d) => d.venue !== null),
    jazz: count((d) => d.jazz),
    inDefaultWindow: count(
      (d) =>
        d.status === "publish" &&
        !d.hidden &&
        d.startWall >= windowStart &&
        d.startWall <= windowEnd,
    ),
    venues: venues.length,
    venuesWithGeo: venues.filter((v) => v.geo_lat !== null).length,
    organizers: organizers.length,
    categories: CATEGORIES.length,
    tags: TAGS.length,
    termLinks: drafts.reduce((n, d) => n + d.terms.length, 0),
    organizerLinks: drafts.reduce((n, d) => n + d.organizers.length, 0),
  };

  const eventSlug = slugger();
  function* chunks(chunkSize: number): Generator<EventChunk> {
    for (let from = 0; from < drafts.length; from += chunkSize) {
      const chunk: EventChunk = { posts: [], events: [], eventOrganizers: [], eventTerms: [] };
      for (let i = from; i < Math.min(from + chunkSize, drafts.length); i++) {
        const d = drafts[i];
        const id = firstEventId + i;
        const slug = eventSlug(d.title);
        const startUtc = zones.toUtc(d.zone, d.startWall);
        const endUtc = zones.toUtc(d.zone, d.endWall);
        chunk.posts.push({ id, post_type: "tribe_events" });
        chunk.events.push({
          id,
          author: 1,
          status: d.status,
          slug,
          title: d.title,
          content: d.content,
          excerpt: d.excerpt,
          ...postDates(d.createdMs, d.modifiedMs),
          start_date: fmt(d.startWall),
          end_date: fmt(d.endWall),
          start_date_utc: fmt(startUtc),
          end_date_utc: fmt(endUtc),
          timezone: d.zone,
          timezone_abbr: zones.abbreviation(d.zone, startUtc),
          all_day: d.allDay,
          cost: JSON.stringify(d.cost),
          currency_symbol: currencyFromCost(d.cost).symbol,
          currency_position: currencyFromCost(d.cost).position,
          currency_code: d.currencyCode,
          website: d.website ? `https://tickets.example/${slug}` : null,
          show_map: true,
          show_map_link: true,
          hide_from_listings: d.hidden,
          sticky: d.sticky,
          featured: d.featured,
          ticketed: d.ticketed,
          venue_id: d.venue,
        });
        for (const [position, organizerId] of d.organizers.entries()) {
          chunk.eventOrganizers.push({ event_id: id, organizer_id: organizerId, position });
        }
        for (const termId of d.terms) chunk.eventTerms.push({ event_id: id, term_id: termId });
      }
      yield chunk;
    }
  }

  return { prelude: { posts, terms, venues, organizers }, chunks, summary };
}
