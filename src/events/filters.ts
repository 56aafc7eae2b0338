/**
 * The WHERE clause of the event archive (tec-reference §6.1–§6.3 with contract §4), and the lookups
 * that validate referenced ids, slugs and names in the same batch as the page (so a filtered list
 * still costs one D1 round trip).
 */
import {
  and,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  notInArray,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { AuthUser } from "../access/capabilities";
import { can } from "../access/capabilities";
import type { Db } from "../db/client";
import { eventVisibility } from "../db/post-access";
import {
  eventOccurrences,
  eventOrganizers,
  events,
  eventTerms,
  organizers,
  posts,
  type Taxonomy,
  terms,
  venues,
} from "../db/schema";
import { inList, searchablePasswords } from "../db/sql";
import { changedAfter } from "../sync/cursor";
import { refsCondition } from "../terms/query";
import { eventChangedSince, type Since } from "./changed";
import { ARCHIVE_DATES, type DateParam } from "./date-fields";
import type { DateFilters } from "./dates";
import { type FilterRule, filterRule } from "./filter-visibility";
import { seriesOfId, uidNamed } from "./series-filters";

/** Which term filters name common terms (src/events/term-weights.ts). */
export type CommonTerms = { categories?: boolean; tags?: boolean };

/** Everything that narrows the archive, already validated. */
export interface EventFilters {
  statuses: string[];
  dates: DateFilters;
  search?: string;
  /**
   * Digest of the request's `password` (`""` for none): protected events it opens are searched,
   * and filtered by what they show (src/events/filter-visibility.ts).
   */
  password?: string;
  /** `context=edit` was asked for: protected events the viewer may edit show every field (§4.7). */
  editContext?: boolean;
  categories?: string[];
  tags?: string[];
  venue?: number[];
  organizer?: number[];
  featured?: boolean;
  geoloc?: boolean;
  near?: { lat: number; lng: number; radiusKm: number };
  include?: number[];
  postParent?: number;
  ticketed?: boolean;
  /** UTC `Y-m-d H:i:s`. */
  modifiedAfter?: string;
  /** A position of the sync clock: only events changed after it (contract §7.3). */
  syncCursor?: number;
  /**
   * iCalendar UIDs (contract §7.8): the events with one of them, and every event of a series with
   * one (its overrides and occurrences) — a stored UID, or the `{id}@{host}` the feed gives an
   * event without one (`uidIds`: those ids, for the request's host).
   */
  uid?: string[];
  uidIds?: number[];
  /** Series ids: only their events (the series, its overrides, its occurrences). */
  series?: number[];
  /**
   * An event id (`GET /events/{id}/instances`, contract §7.8): only the events of its series —
   * named by the series' id, one of its occurrences' or overrides' (a computed one's too) — or, for
   * a single event, the event itself.
   */
  seriesOf?: number;
}

/** Words of a search phrase (§6.3): quoted phrases kept together, `-word` excluded. */
export function searchTerms(search: string): { include: string[]; exclude: string[] } {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const m of search.matchAll(/(-?)"([^"]+)"|(-?)(\S+)/g)) {
    const negative = (m[1] ?? m[3]) === "-";
    const word = (m[2] ?? m[4] ?? "").trim();
    if (word === "" || word === "-") continue;
    (negative ? exclude : include).push(word.slice(0, 100));
  }
  return { include: include.slice(0, 20), exclude: exclude.slice(0, 20) };
}

/** An FTS5 phrase: user text never reaches FTS syntax unquoted. */
const phrase = (word: string) => `"${word.replace(/"/g, '""')}"`;
const likeEscape = (word: string) => word.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * Events matching search words: all of them (`every`) or any of them. Words of three characters or
 * more go to the trigram index as one FTS5 expression, shorter ones through LIKE over a JSON list, so
 * a search costs at most two bound parameters however many words it has (D1 allows 100 per
 * statement, and a list's statements repeat the filter).
 */
export function wordsMatch(
  words: string[],
  every: boolean,
  id: SQLWrapper,
): { fts?: SQL; like?: SQL } {
  const long = words.filter((w) => [...w].length >= 3);
  const short = words.filter((w) => [...w].length < 3).map(likeEscape);
  const out: { fts?: SQL; like?: SQL } = {};
  if (long.length) {
    out.fts = sql`${id} IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ${long.map(phrase).join(every ? " AND " : " OR ")})`;
  }
  if (short.length) {
    const hit = sql`(${events.title} LIKE '%' || j.value || '%' ESCAPE '\\' OR ${events.content} LIKE '%' || j.value || '%' ESCAPE '\\' OR ${events.excerpt} LIKE '%' || j.value || '%' ESCAPE '\\')`;
    const list = JSON.stringify(short);
    out.like = every
      ? sql`NOT EXISTS (SELECT 1 FROM json_each(${list}) j WHERE NOT ${hit})`
      : sql`EXISTS (SELECT 1 FROM json_each(${list}) j WHERE ${hit})`;
  }
  return out;
}

/** Terms matched by id, slug or name (contract §4 row 22), as a subquery of term ids. */
export function termIdsMatching(db: Db, taxonomy: Taxonomy, refs: string[]) {
  return db
    .select({ id: terms.id })
    .from(terms)
    .where(and(eq(terms.taxonomy, taxonomy), refsCondition(refs)));
}

/**
 * Events with any of the terms `ids` (§6.3: OR within `categories`, within `tags`): by the list of
 * the terms' events, read once — or, for `common` terms, by probing each archive row's terms: the
 * archive is scanned in its order, so a page of a common term is found after a few hundred rows,
 * where the list reads every event of the term first (15,000 for the most used category of 100,000
 * events). For rare terms the list is the better plan (src/events/term-weights.ts decides).
 */
function termFilter(db: Db, ids: SQLWrapper, common: boolean, id: SQLWrapper): SQL {
  if (common)
    return sql`EXISTS (SELECT 1 FROM ${eventTerms} WHERE ${eventTerms.eventId} = ${id} AND ${eventTerms.termId} IN ${ids})`;
  return inArray(
    id,
    db.select({ id: eventTerms.eventId }).from(eventTerms).where(inArray(eventTerms.termId, ids)),
  );
}

/** A content condition, and what it asks about. */
interface ContentCondition {
  cond: SQL;
  /** It asks only about the event's id, not its row on `events`. */
  byId: boolean;
  /** Nearly every event passes it (only password-protected ones may fail a search's). */
  nearlyAll?: boolean;
}

/**
 * The conditions on an event's own content (search, terms, venue, organizers, flags, post parent),
 * on `events`: the same for a single event and for a series, whose occurrences show its content.
 * @param id the event's id: `events.id`, or an occurrence's `series_id` for the conditions that
 *   only ask about the id (terms, organizers, search words in the index), so that an occurrence is
 *   tested without reading its series' row; the others are always on `events`.
 */
function contentConditions(
  db: Db,
  f: EventFilters,
  user: AuthUser | null,
  common: CommonTerms,
  id: SQLWrapper = events.id,
): ContentCondition[] {
  const conds: ContentCondition[] = [];
  const push = (cond: SQL | undefined, byId: boolean, nearlyAll?: true) =>
    cond && conds.push({ cond, byId, nearlyAll });
  const rule = filterRuleOf(db, f, user);
  // The event's protection is one condition whichever filters read what it hides: added once
  // (D1 binds at most 100 values in a statement, and a list's statements repeat the filters).
  let eventRuled = false;
  const pushEventRule = (cond: SQL | undefined) => {
    if (!cond || eventRuled) return;
    eventRuled = true;
    push(cond, true);
  };
  if (f.search) {
    push(
      searchablePasswords(
        events,
        user && { id: user.id, editor: can(user, "edit_others_posts") },
        f.password ?? "",
      ),
      false,
      true,
    );
    const words = searchTerms(f.search);
    const included = wordsMatch(words.include, true, id);
    push(included.fts, true);
    push(included.like, false);
    const excluded = wordsMatch(words.exclude, false, id);
    if (excluded.fts || excluded.like)
      push(sql`NOT (${or(excluded.fts, excluded.like)})`, excluded.like === undefined);
  }
  for (const [taxonomy, refs] of [
    ["tribe_events_cat", f.categories],
    ["post_tag", f.tags],
  ] as const) {
    if (!refs) continue;
    const name = taxonomy === "tribe_events_cat" ? "categories" : "tags";
    push(termFilter(db, termIdsMatching(db, taxonomy, refs), common[name] ?? false, id), true);
    pushEventRule(rule.scope(name).event(id));
  }
  if (f.venue)
    push(
      inArray(events.venueId, rule.scope("venue").linked("venue", inList(venues.id, f.venue))),
      false,
    );
  if (f.organizer) {
    const named = rule.scope("organizer").linked("organizer", inList(organizers.id, f.organizer));
    push(
      inArray(
        id,
        db
          .select({ id: eventOrganizers.eventId })
          .from(eventOrganizers)
          .where(inArray(eventOrganizers.organizerId, named)),
      ),
      true,
    );
  }
  if (f.featured !== undefined) {
    push(eq(events.featured, f.featured), false);
    pushEventRule(rule.scope("featured").event(id));
  }
  if (f.ticketed !== undefined) {
    push(eq(events.ticketed, f.ticketed), false);
    pushEventRule(rule.scope("ticketed").event(id));
  }
  if (f.geoloc !== undefined) {
    const geoloc = rule.scope("geoloc");
    const { lat, lng } = { lat: venues.geoLat, lng: venues.geoLng };
    const located = and(isNotNull(lat), isNotNull(lng), or(ne(lat, 0), ne(lng, 0)));
    const unlocated = or(isNull(lat), isNull(lng), and(eq(lat, 0), eq(lng, 0)));
    if (f.geoloc) {
      push(inArray(events.venueId, geoloc.linked("venue", located)), false);
      pushEventRule(geoloc.event(id));
    } else {
      // No venue the viewer may read, or one whose coordinates the answer shows, unset. Blanked
      // coordinates are neither (src/events/filter-visibility.ts rule 2).
      push(
        or(
          isNull(events.venueId),
          notInArray(events.venueId, rule.scope("venue").linked("venue")),
          and(geoloc.event(id), inArray(events.venueId, geoloc.linked("venue", unlocated))),
        ),
        false,
      );
    }
  }
  if (f.near) {
    const near = rule.scope("near");
    push(inArray(events.venueId, near.linked("venue", venuesNear(f.near))), false);
    pushEventRule(near.event(id));
  }
  if (f.postParent !== undefined) push(eq(events.postParent, f.postParent), false);
  return conds;
}

/** The date filters, on the given start and end columns. */
function dateConditions(f: EventFilters, start: SQLiteColumn, end: SQLiteColumn): SQL[] {
  const out: SQL[] = [];
  for (const [param, filter] of Object.entries(ARCHIVE_DATES)) {
    const value = f.dates[param as DateParam];
    if (value) out.push(filter.compare(filter.column === events.startDate ? start : end, value));
  }
  return out;
}

/** The sync filters asked for (contract §7.3): `modified_after`, `sync_cursor`, both or neither. */
const sinceOf = (f: EventFilters): Since[] => [
  ...(f.modifiedAfter ? [{ instant: f.modifiedAfter }] : []),
  ...(f.syncCursor !== undefined ? [{ cursor: f.syncCursor }] : []),
];

/**
 * The archive's WHERE clause on `events`: single events, series (as their first occurrence) and
 * overrides (contract §7.8), each listed as the event it is.
 * @param common which term filters name common terms (`termFilter`); absent: none.
 */
export function whereClause(
  db: Db,
  f: EventFilters,
  user: AuthUser | null,
  common: CommonTerms = {},
): SQL {
  const conds: Array<SQL | undefined> = [
    eq(events.hideFromListings, false),
    f.statuses.length === 1 ? eq(events.status, f.statuses[0]) : inList(events.status, f.statuses),
    eventVisibility(user),
    ...dateConditions(f, events.startDate, events.endDate),
    ...contentConditions(db, f, user, common).map((c) => c.cond),
  ];
  if (f.include) conds.push(inList(events.id, f.include));
  for (const since of sinceOf(f)) conds.push(eventChangedSince(db, since));
  if (f.uid) {
    const named = uidNamed(db, f);
    conds.push(or(inArray(events.id, named), inArray(events.seriesId, named)));
  }
  if (f.series) conds.push(inList(events.seriesId, f.series));
  if (f.seriesOf !== undefined) {
    const series = seriesOfId(f.seriesOf);
    conds.push(
      or(eq(events.seriesId, series), and(isNull(events.seriesId), eq(events.id, series))),
    );
  }
  return and(...conds)!;
}

/**
 * The archive's WHERE clause on `event_occurrences` (contract §7.8): the occurrences of series that
 * match as their series does (by its id, or by its row on `events` in a subquery when a filter asks
 * about the row), each by its own dates and id; a `uid` names its series.
 * @param o the occurrences' table: `event_occurrences`, or the occurrences computed past the stored
 *   horizon under its columns' names (src/events/computed.ts).
 */
export function occurrenceWhere(
  db: Db,
  f: EventFilters,
  user: AuthUser | null,
  common: CommonTerms = {},
  o: typeof eventOccurrences = eventOccurrences,
): SQL {
  const seriesWhere = (...where: Array<SQL | undefined>) =>
    inArray(
      o.seriesId,
      db
        .select({ id: events.id })
        .from(events)
        .where(and(...where)),
    );
  // The conditions that only ask about the series' id test `series_id` itself. The others read the
  // series' row: probed as the archive index yields each occurrence that passed the first ones (as
  // `termFilter` probes events) when most occurrences pass them — a page of a common term, or the
  // password rule of a search, which would otherwise read every event the words match; else they
  // make the list of matching series, with the rest.
  const direct = contentConditions(db, f, user, common, o.seriesId);
  const byRow = direct.filter((c) => !c.byId);
  let content: SQL | undefined;
  if (byRow.length === 0) content = and(...direct.map((c) => c.cond));
  else if (common.categories || common.tags || byRow.every((c) => c.nearlyAll))
    content = and(
      ...direct.filter((c) => c.byId).map((c) => c.cond),
      sql`EXISTS (SELECT 1 FROM ${events} WHERE ${events.id} = ${o.seriesId} AND ${and(...byRow.map((c) => c.cond))})`,
    );
  else content = seriesWhere(...contentConditions(db, f, user, common).map((c) => c.cond));
  const conds: Array<SQL | undefined> = [
    eq(o.hideFromListings, false),
    f.statuses.length === 1 ? eq(o.status, f.statuses[0]) : inList(o.status, f.statuses),
    eventVisibility(user, o.status, (author) => seriesWhere(eq(events.author, author))),
    ...dateConditions(f, o.startDate, o.endDate),
    content,
  ];
  if (f.include) conds.push(inList(o.id, f.include));
  // Changed on its own (moved, made), or shows a change of its series (or of what it shows).
  for (const since of sinceOf(f))
    conds.push(
      or(
        "cursor" in since
          ? inArray(o.id, changedAfter(db, "event", since.cursor))
          : gt(o.changedGmt, since.instant),
        seriesWhere(eventChangedSince(db, since)),
      ),
    );
  if (f.uid) conds.push(inArray(o.seriesId, uidNamed(db, f)));
  if (f.series) conds.push(inList(o.seriesId, f.series));
  if (f.seriesOf !== undefined) conds.push(eq(o.seriesId, seriesOfId(f.seriesOf)));
  return and(...conds)!;
}

/**
 * Venues within `radiusKm` of a point, as a condition on `venues`: a bounding box on the index, then
 * the equirectangular distance (accurate to well under 1% at these ranges; SQLite has no
 * trigonometry to spare).
 */
function venuesNear(near: { lat: number; lng: number; radiusKm: number }): SQL {
  const KM_PER_DEGREE = 111.32;
  const dLat = near.radiusKm / KM_PER_DEGREE;
  const cos = Math.max(Math.cos((near.lat * Math.PI) / 180), 0.01);
  const dLng = near.radiusKm / (KM_PER_DEGREE * cos);
  const x = sql`((${venues.geoLng} - ${near.lng}) * ${cos})`;
  const y = sql`(${venues.geoLat} - ${near.lat})`;
  return and(
    gte(venues.geoLat, near.lat - dLat),
    lte(venues.geoLat, near.lat + dLat),
    gte(venues.geoLng, near.lng - dLng),
    lte(venues.geoLng, near.lng + dLng),
    sql`(${x} * ${x} + ${y} * ${y}) <= ${(near.radiusKm / KM_PER_DEGREE) ** 2}`,
  )!;
}

/** The filter rule of a request (src/events/filter-visibility.ts), from its filters and user. */
export const filterRuleOf = (db: Db, f: EventFilters, user: AuthUser | null): FilterRule =>
  filterRule(db, { user, password: f.password ?? "", editContext: f.editContext ?? false });

/**
 * Lookups that prove referenced things exist (§3 `is_event_category`, `is_post_tag`,
 * `is_venue_id_list`, `is_organizer_id_list`, `is_event_id`), to run in the page's batch.
 * Each returns the rows found; `missingRefs` compares them with what was asked.
 */
export function existenceQueries(db: Db, f: EventFilters, user: AuthUser | null) {
  const rule = filterRuleOf(db, f, user);
  const termsNamed = (taxonomy: Taxonomy, refs: string[] | undefined) =>
    refs &&
    db
      .select({ id: terms.id, slug: terms.slug, name: terms.name, count: terms.count })
      .from(terms)
      .where(and(eq(terms.taxonomy, taxonomy), refsCondition(refs)));
  // A post the viewer may not read is one that does not exist (src/events/filter-visibility.ts).
  const parent = f.postParent;
  const readableParent = rule.readable("event");
  const o = eventOccurrences;
  return {
    categories: termsNamed("tribe_events_cat", f.categories),
    tags: termsNamed("post_tag", f.tags),
    venue: f.venue
      ? db
          .select({ id: venues.id })
          .from(venues)
          .where(and(inList(venues.id, f.venue), rule.readable("venue")))
      : undefined,
    organizer: f.organizer
      ? db
          .select({ id: organizers.id })
          .from(organizers)
          .where(and(inList(organizers.id, f.organizer), rule.readable("organizer")))
      : undefined,
    post_parent:
      parent === undefined
        ? undefined
        : db
            .select({ id: posts.id })
            .from(posts)
            .where(
              and(
                eq(posts.id, parent),
                eq(posts.postType, "tribe_events"),
                sql`${posts.deletedGmt} IS NULL`,
                // An event, or an occurrence of a series (which is read as its series is).
                readableParent &&
                  or(
                    inArray(
                      posts.id,
                      db
                        .select({ id: events.id })
                        .from(events)
                        .where(and(eq(events.id, parent), readableParent)),
                    ),
                    inArray(
                      posts.id,
                      db
                        .select({ id: o.id })
                        .from(o)
                        .innerJoin(events, eq(events.id, o.seriesId))
                        .where(and(eq(o.id, parent), readableParent)),
                    ),
                  ),
              ),
            ),
  };
}

/** What `existenceQueries` found, by filter name (absent: not asked). */
export type FoundRefs = Partial<
  Record<
    "categories" | "tags" | "venue" | "organizer" | "post_parent",
    Array<{ id: number; slug?: string; name?: string; count?: number }> | undefined
  >
>;

/** Names of filters whose references were not all found. */
export function missingRefs(f: EventFilters, found: FoundRefs): string[] {
  const bad: string[] = [];
  for (const name of ["categories", "tags"] as const) {
    const refs = f[name];
    if (!refs) continue;
    const rows = found[name] ?? [];
    const ok = (r: string) =>
      rows.some(
        (t) =>
          String(t.id) === r ||
          t.slug === r.toLowerCase() ||
          (t.name ?? "").toLowerCase() === r.toLowerCase(),
      );
    if (!refs.every(ok)) bad.push(name);
  }
  for (const name of ["venue", "organizer"] as const) {
    const ids = f[name];
    if (ids && (found[name] ?? []).length !== ids.length) bad.push(name);
  }
  if (f.postParent !== undefined && (found.post_parent ?? []).length === 0) bad.push("post_parent");
  return bad;
}
