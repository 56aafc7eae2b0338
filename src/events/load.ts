/**
 * Set-based loading of what a page of events links to (contract §2: no query per row). Given the
 * page's ids as a subquery, four queries fetch the venues, organizers, terms and images of the whole
 * page; they run in the same `batch()` as the page itself, so a list costs one D1 round trip.
 */
import { type Column, getTableColumns, getTableName, type SQL, sql, type Table } from "drizzle-orm";
import { type AuthUser, canReadPost } from "../access/capabilities";
import type { Db } from "../db/client";
import {
  eventOrganizers,
  events,
  eventTerms,
  media,
  organizers,
  terms,
  venues,
} from "../db/schema";
import type { OrganizerRow, VenueRow } from "../linked-posts/record";
import type { MediaRow } from "../media/serialize";
import type { TermRow } from "../terms/serialize";
import type { EventRecord, EventRow, OverrideStart } from "./record";

/** The page's event ids: a parenthesized subquery (`(SELECT id ... LIMIT n)`) or a literal list. */
export type IdSet = SQL | number[];

/** A table's columns by field name, listed once per table (not once per decoded row). */
const COLUMNS = new Map<Table, Array<[string, Column]>>();
function columnsOf(table: Table): Array<[string, Column]> {
  const known = COLUMNS.get(table);
  if (known) return known;
  const list = Object.entries(getTableColumns(table));
  COLUMNS.set(table, list);
  return list;
}

/**
 * `json_object('field', "table"."column", …)` of every column of `table`, keyed by drizzle's field
 * names, read back by `decodeRow`.
 * @param shown expressions read in place of some columns (by field name), e.g. `EVENT_COLUMNS`'.
 */
export function rowObject(table: Table, shown: Record<string, SQL> = {}): SQL {
  const parts = columnsOf(table).map(
    // Field names are identifiers of the schema, written as literals (not bound: D1 allows 100
    // parameters per statement, and the page's filters need theirs).
    ([field, column]) => sql`${sql.raw(`'${field}'`)}, ${shown[field] ?? column}`,
  );
  return sql`json_object(${sql.join(parts, sql`, `)})`;
}

/** A column of `events` named with its table (`"events"."series_id"`), also inside a subquery. */
const eventColumn = (column: Column) =>
  sql`${sql.identifier(getTableName(events))}.${sql.identifier(column.name)}`;

/**
 * What an event row shows of its series (contract §7.8) for `column`: a series' (or single event's)
 * own; an override's is its series' — the lines (`series.recurrence`: stored once, on the series),
 * the iCalendar UID (`series.uid`) and the series it was split from (`series.split_from`), which
 * an override's own columns do not hold.
 */
function fromSeries<C extends Column>(column: C) {
  return sql<
    C["_"]["data"] | null
  >`CASE WHEN ${eventColumn(events.seriesId)} IS NULL OR ${eventColumn(events.seriesId)} = ${eventColumn(events.id)} THEN ${eventColumn(column)} ELSE (SELECT s.${sql.identifier(column.name)} FROM ${events} s WHERE s.${sql.identifier(events.id.name)} = ${eventColumn(events.seriesId)}) END`.mapWith(
    column,
  );
}

/** The columns an event row shows as its series' (`fromSeries`), by field name. */
const FROM_SERIES = {
  recurrence: fromSeries(events.recurrence),
  uid: fromSeries(events.uid),
  splitFrom: fromSeries(events.splitFrom),
};

/**
 * On a series, a JSON list of its overrides that may have moved (`OverrideStart`s: those whose local
 * start, zone or all-day flag is not their series' for their original start; the instants decide,
 * src/events/series/schedule.ts), for JSON-LD's `exceptDate` (contract §7.8); null on other rows. One
 * lookup of the `events_series` index per series row, in the statement that reads the row.
 */
const overrideStartsJson = sql`CASE WHEN ${eventColumn(events.seriesId)} = ${eventColumn(events.id)} THEN (SELECT json_group_array(json_array(m.${sql.identifier(events.occurrenceStart.name)}, m.${sql.identifier(events.startDate.name)}, m.${sql.identifier(events.startDateUtc.name)}, m.${sql.identifier(events.allDay.name)})) FROM ${events} m WHERE m.${sql.identifier(events.seriesId.name)} = ${eventColumn(events.id)} AND m.${sql.identifier(events.id.name)} <> m.${sql.identifier(events.seriesId.name)} AND NOT (m.${sql.identifier(events.startDate.name)} = m.${sql.identifier(events.occurrenceStart.name)} AND m.${sql.identifier(events.timezone.name)} = ${eventColumn(events.timezone)} AND m.${sql.identifier(events.allDay.name)} = ${eventColumn(events.allDay)})) END`;

/** `overrideStartsJson`'s value (a JSON text, or the list `rowObject` embeds) as `OverrideStart`s. */
function overrideStarts(value: unknown): OverrideStart[] | null {
  const list = typeof value === "string" ? JSON.parse(value) : value;
  if (!Array.isArray(list)) return null;
  return list.map(([original, start, utc, allDay]) => [original, start, utc, Boolean(allDay)]);
}

/**
 * The columns of an event row as every reader that shows it selects them (`db.select(EVENT_COLUMNS)
 * .from(events)`): each column, what an override shows of its series (`fromSeries`), and a
 * series' `overrideStarts`.
 */
export const EVENT_COLUMNS = {
  ...getTableColumns(events),
  ...FROM_SERIES,
  overrideStarts: sql<OverrideStart[] | null>`${overrideStartsJson}`.mapWith(overrideStarts),
};

/** `rowObject` of an event row as every reader that shows it reads it (`EVENT_COLUMNS`); `decodeEventRow` reads it back. */
export const eventRowObject = (): SQL =>
  sql`json_insert(${rowObject(events, FROM_SERIES)}, '$.overrideStarts', json(${overrideStartsJson}))`;

/** An event row from `eventRowObject`'s JSON. */
export function decodeEventRow(raw: Record<string, unknown>): EventRow {
  return { ...decodeRow(events, raw), overrideStarts: overrideStarts(raw.overrideStarts) };
}

/** A row from `rowObject`'s JSON, each value mapped as drizzle maps the column (booleans, JSON). */
export function decodeRow<T extends Table>(
  table: T,
  raw: Record<string, unknown>,
): T["$inferSelect"] {
  const out: Record<string, unknown> = {};
  for (const [field, column] of columnsOf(table)) {
    const value = raw[field];
    out[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T["$inferSelect"];
}

/**
 * What a set of events links to — venues, organizers (in their order), terms and the images of all
 * three — in **one** statement that answers one JSON text, to put in a batch after the page query.
 * The page's ids are chosen once (a materialized CTE), not once per kind of related row: on a
 * filtered archive each choice re-reads the filter's rows.
 */
export function relatedQueries(db: Db, ids: IdSet) {
  return { related: db.select({ text: relatedText(ids) }).from(sql`(SELECT 1)`) };
}

/** `relatedQueries`' statement as a scalar subquery: one JSON text (`relatedRows` reads it). */
export function relatedText(ids: IdSet): SQL<string> {
  const page = Array.isArray(ids)
    ? sql`SELECT value FROM json_each(${JSON.stringify(ids)})`
    : sql`SELECT * FROM ${ids}`;
  return sql<string>`(WITH page(id) AS MATERIALIZED (${page}),
    linked(venue_id, image_id) AS MATERIALIZED (SELECT ${events.venueId}, ${events.imageId} FROM ${events} WHERE ${events.id} IN (SELECT id FROM page)),
    orgs AS MATERIALIZED (SELECT ${eventOrganizers.eventId} AS event_id, ${eventOrganizers.position} AS position, ${organizers.id} AS id, ${organizers.imageId} AS image_id, ${rowObject(organizers)} AS o FROM ${eventOrganizers} JOIN ${organizers} ON ${organizers.id} = ${eventOrganizers.organizerId} WHERE ${eventOrganizers.eventId} IN (SELECT id FROM page)),
    vens AS MATERIALIZED (SELECT ${venues.id} AS id, ${venues.imageId} AS image_id, ${rowObject(venues)} AS v FROM ${venues} WHERE ${venues.id} IN (SELECT venue_id FROM linked))
    SELECT json_object(
      'venues', (SELECT json_group_array(json(v)) FROM vens),
      'organizers', (SELECT json_group_array(json(x)) FROM (SELECT json_object('eventId', event_id, 'organizer', json(o)) AS x FROM orgs ORDER BY event_id, position)),
      'terms', (SELECT json_group_array(json_object('eventId', ${eventTerms.eventId}, 'term', ${rowObject(terms)})) FROM ${eventTerms} JOIN ${terms} ON ${terms.id} = ${eventTerms.termId} WHERE ${eventTerms.eventId} IN (SELECT id FROM page)),
      'media', (SELECT json_group_array(${rowObject(media)}) FROM ${media} WHERE ${media.id} IN (SELECT image_id FROM linked UNION SELECT image_id FROM vens UNION SELECT image_id FROM orgs))
    ))`;
}

/** `relatedQueries`' answer as rows. */
export function relatedRows(result: Array<{ text: string }>): RelatedRows {
  return relatedFromText(result[0]?.text ?? "{}");
}

/** `relatedText`'s JSON as rows. */
export function relatedFromText(text: string): RelatedRows {
  const raw = JSON.parse(text) as {
    venues?: Record<string, unknown>[];
    organizers?: Array<{ eventId: number; organizer: Record<string, unknown> }>;
    terms?: Array<{ eventId: number; term: Record<string, unknown> }>;
    media?: Record<string, unknown>[];
  };
  return {
    venues: (raw.venues ?? []).map((v) => decodeRow(venues, v)),
    organizers: (raw.organizers ?? []).map(({ eventId, organizer }) => ({
      eventId,
      organizer: decodeRow(organizers, organizer),
    })),
    terms: (raw.terms ?? []).map(({ eventId, term }) => ({
      eventId,
      term: decodeRow(terms, term),
    })),
    media: (raw.media ?? []).map((m) => decodeRow(media, m)),
  };
}

export interface RelatedRows {
  venues: VenueRow[];
  organizers: Array<{ eventId: number; organizer: OrganizerRow }>;
  terms: Array<{ eventId: number; term: TermRow }>;
  media: MediaRow[];
}

/**
 * Joins event rows with their related rows, keeping the rows' order, as `viewer` may see them: a
 * venue or organizer is embedded only if the viewer could `GET` it (published, or readable by them:
 * its author, editors — tec-reference §4.7 `read_post`); otherwise the event shows no venue and
 * leaves that organizer out. Every renderer (JSON, `json_ld`, the iCalendar feed) gets its
 * records from here, so none can embed a hidden draft, private or trashed linked post.
 * @param viewer the request's user, null when anonymous.
 */
export function assemble(
  rows: EventRow[],
  related: RelatedRows,
  viewer: AuthUser | null,
): EventRecord[] {
  const mediaById = new Map(related.media.map((m) => [m.id, m]));
  const image = (id: number | null) => (id === null ? null : (mediaById.get(id) ?? null));
  const venueById = new Map(related.venues.map((v) => [v.id, v]));
  const organizersOf = new Map<number, EventRecord["organizers"]>();
  for (const { eventId, organizer } of related.organizers) {
    if (!canReadPost(viewer, organizer)) continue;
    const list = organizersOf.get(eventId) ?? [];
    list.push({ row: organizer, image: image(organizer.imageId) });
    organizersOf.set(eventId, list);
  }
  const termsOf = new Map<number, TermRow[]>();
  for (const { eventId, term } of related.terms) {
    const list = termsOf.get(eventId) ?? [];
    list.push(term);
    termsOf.set(eventId, list);
  }
  return rows.map((row) => {
    const linked = row.venueId === null ? undefined : venueById.get(row.venueId);
    const venue = linked && canReadPost(viewer, linked) ? linked : undefined;
    return {
      row,
      venue: venue ? { row: venue, image: image(venue.imageId) } : null,
      organizers: organizersOf.get(row.id) ?? [],
      terms: termsOf.get(row.id) ?? [],
      image: image(row.imageId),
    };
  });
}
