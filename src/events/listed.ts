/**
 * What the event archive lists (tec-reference §6.1; contract §7.8): the rows of `events` — single
 * events, series (as their first occurrence) and overrides — and the occurrences of series in
 * `event_occurrences`, as one list in the archive order. Both sides are read from their own
 * archive index (`events_archive`, `event_occurrences_archive`), merged by SQLite in order, so a page
 * is still one statement; a calendar without series reads an empty second side.
 *
 * Each listed item is `{id, src, occ}`: the id it is shown with, the event row it shows (itself, or
 * for an occurrence its series) and whether it is an occurrence; `k1`…`k3` are its order keys.
 */
import { and, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import type { AuthUser } from "../access/capabilities";
import type { Db } from "../db/client";
import { contentVersion, eventOccurrences, events } from "../db/schema";
import { type ComputedSide, computedTable } from "./computed";
import { assemble, EVENT_COLUMNS, type RelatedRows } from "./load";
import type { EventRecord, EventRow } from "./record";
import { type OccurrenceRow, occurrenceRecord } from "./series/occurrences";

/** An item of a page, in order. */
export interface Listed {
  id: number;
  src: number;
  occ: number;
}

/**
 * The sides' WHERE clauses (src/events/filters.ts `whereClause`, `occurrenceWhere`), and the
 * occurrences computed past their series' stored horizons when the window reaches there
 * (src/events/computed.ts: a third side, filtered as the stored occurrences are).
 */
export interface ListedWhere {
  events: SQL;
  occurrences: SQL;
  computed?: ComputedSide;
}

/**
 * The archive order's keys (§6.1): start, post date, id; with `include`/`uid`, post date, id (the
 * third key repeats the first: the statement sorts on three).
 */
function keys(ignoresDates: boolean) {
  const e = ignoresDates
    ? [events.postDate, events.id, events.postDate]
    : [events.startDate, events.postDate, events.id];
  const occ = (o: typeof eventOccurrences) =>
    ignoresDates ? [o.postDate, o.id, o.postDate] : [o.startDate, o.postDate, o.id];
  return { e, occ: occ(eventOccurrences), computed: occ(computedTable as never) };
}

/** A page of the archive: `{limit, offset}`, or `{limit, after}` with the last item's keys. */
export interface ListedPage {
  limit: number;
  offset?: number;
  after?: [string, string | number, string | number];
}

/**
 * The archive's page, or every item after `after` (the feed's keyset, `limit` items): one compound
 * statement ordered by `k1, k2, k3`.
 */
export function listedQuery(db: Db, where: ListedWhere, ignoresDates: boolean, page: ListedPage) {
  const both = listedUnion(db, where, ignoresDates, page.after)
    .orderBy(sql`k1`, sql`k2`, sql`k3`)
    .limit(page.limit);
  return page.offset ? both.offset(page.offset) : both;
}

/**
 * The key an item is listed by unexpanded (contract §7.8, `expand=false`): an occurrence's (stored
 * or computed) is its series'; an event row's (single event, series, override) its own.
 */
const UNEXPANDED_KEY = sql.raw("CASE WHEN occ = 1 THEN src ELSE id END");

/**
 * The unexpanded archive's page (contract §7.8, `expand=false`; Google Calendar's
 * `singleEvents=false`): each single event, each series and each override once — a series when
 * one of its own events (its first, a stored or computed occurrence) is listed, as its first event —
 * at the place of the first of its listed items, in one statement.
 */
export function unexpandedQuery(
  db: Db,
  where: ListedWhere,
  ignoresDates: boolean,
  page: ListedPage,
) {
  const grouped = sql`SELECT g AS id, g AS src, 0 AS occ, k1, k2, k3 FROM (SELECT ${UNEXPANDED_KEY} AS g, k1, k2, k3, row_number() OVER (PARTITION BY ${UNEXPANDED_KEY} ORDER BY k1, k2, k3) AS nth FROM (${listedUnion(db, where, ignoresDates)})) WHERE nth = 1`;
  const q = db
    .select({
      id: sql<number>`id`,
      src: sql<number>`src`,
      occ: sql<number>`occ`,
      k1: sql<string>`k1`,
      k2: sql<string | number>`k2`,
      k3: sql<string | number>`k3`,
    })
    .from(sql`(${grouped})`)
    .orderBy(sql`k1`, sql`k2`, sql`k3`)
    .limit(page.limit);
  return page.offset ? q.offset(page.offset) : q;
}

/** Every item of the archive (each side's), unordered; with `after`, those past its keys. */
function listedUnion(
  db: Db,
  where: ListedWhere,
  ignoresDates: boolean,
  after?: ListedPage["after"],
) {
  const k = keys(ignoresDates);
  const past = (columns: SQLWrapper[]) =>
    after
      ? sql`(${columns[0]}, ${columns[1]}, ${columns[2]}) > (${after[0]}, ${after[1]}, ${after[2]})`
      : undefined;
  const first = db
    .select({
      id: sql<number>`${events.id}`.as("id"),
      src: sql<number>`${events.id}`.as("src"),
      occ: sql<number>`0`.as("occ"),
      k1: sql<string>`${k.e[0]}`.as("k1"),
      k2: sql<string | number>`${k.e[1]}`.as("k2"),
      k3: sql<string | number>`${k.e[2]}`.as("k3"),
    })
    .from(events)
    .where(and(where.events, past(k.e)));
  const o = eventOccurrences;
  const second = db
    .select({
      id: sql<number>`${o.id}`.as("id"),
      src: sql<number>`${o.seriesId}`.as("src"),
      occ: sql<number>`1`.as("occ"),
      k1: sql<string>`${k.occ[0]}`.as("k1"),
      k2: sql<string | number>`${k.occ[1]}`.as("k2"),
      k3: sql<string | number>`${k.occ[2]}`.as("k3"),
    })
    .from(o)
    .where(and(where.occurrences, past(k.occ)));
  const c = computedTable;
  const third = where.computed
    ? db
        .select({
          id: sql<number>`${c.id}`.as("id"),
          src: sql<number>`${c.seriesId}`.as("src"),
          occ: sql<number>`1`.as("occ"),
          k1: sql<string>`${k.computed[0]}`.as("k1"),
          k2: sql<string | number>`${k.computed[1]}`.as("k2"),
          k3: sql<string | number>`${k.computed[2]}`.as("k3"),
        })
        .from(where.computed.from)
        .where(and(where.computed.where, past(k.computed)))
    : undefined;
  return third ? unionAll(first, second, third) : unionAll(first, second);
}

/** A total counted before, and the content version it was counted at (`listedTotal`). */
export interface KnownTotal {
  version: number;
  total: number;
}

/**
 * How many items the archive lists (every side; `unexpanded`: its series once), as one statement, with the content version it
 * read (the `content_version` row, src/db/schema.ts). Given a `known` total of the same WHERE
 * clauses, the statement answers it without counting when the version it reads is the one `known`
 * was counted at — checked inside the statement, so in the same snapshot as the count it skips:
 * an anonymous archive's total changes only with what anonymous readers can see, which moves the
 * version (drizzle/0011_content_version_triggers.sql, 0013). A calendar of 400,000 listed
 * occurrences takes ~70 ms to count.
 */
export function listedTotal(
  db: Db,
  where: ListedWhere,
  known?: KnownTotal,
  ignoresDates = false,
  unexpanded = false,
) {
  const computed = where.computed
    ? sql` + (SELECT count(*) FROM ${where.computed.from} WHERE ${where.computed.where})`
    : sql``;
  // Unexpanded (`unexpandedQuery`): the distinct keys of the items.
  const count = unexpanded
    ? sql`(SELECT count(DISTINCT ${UNEXPANDED_KEY}) FROM (${listedUnion(db, where, ignoresDates)}))`
    : sql`(SELECT count(*) FROM ${events} WHERE ${where.events}) + (SELECT count(*) FROM ${eventOccurrences} WHERE ${where.occurrences})${computed}`;
  const version = sql`(SELECT ${contentVersion.version} FROM ${contentVersion} WHERE ${contentVersion.id} = 1)`;
  return db
    .select({
      version: sql<number | null>`v`,
      total: known
        ? sql<number>`CASE WHEN v = ${known.version} THEN ${known.total} ELSE ${count} END`
        : sql<number>`${count}`,
    })
    .from(sql`(SELECT ${version} AS v)`);
}

/** The event rows a page shows (its items' `src`), by a page statement given as SQL. */
export const listedRows = (db: Db, page: SQL) =>
  db.select(EVENT_COLUMNS).from(events).where(sql`${events.id} IN (SELECT src FROM ${page})`);

/** The occurrence rows of a page's occurrences. */
export const listedOccurrences = (db: Db, page: SQL) =>
  db
    .select()
    .from(eventOccurrences)
    .where(sql`${eventOccurrences.id} IN (SELECT id FROM ${page} WHERE occ = 1)`);

/**
 * A page's records in its order: each event row's, and for an occurrence its series' record with
 * the occurrence's row (src/events/series/occurrences.ts), linked posts as `viewer` may see them.
 */
export function assembleListed(
  items: Listed[],
  rows: EventRow[],
  occurrences: OccurrenceRow[],
  related: RelatedRows,
  viewer: AuthUser | null,
): EventRecord[] {
  const records = new Map(assemble(rows, related, viewer).map((r) => [r.row.id, r]));
  const occurrence = new Map(occurrences.map((o) => [o.id, o]));
  return items.flatMap((item) => {
    const record = records.get(item.src);
    if (!record) return [];
    if (!item.occ) return [record];
    const o = occurrence.get(item.id);
    return o ? [occurrenceRecord(record, o)] : [];
  });
}
