/**
 * Set-based loading of what a page of events links to (contract §2: no query per row). Given the
 * page's ids as a subquery, four queries fetch the venues, organizers, terms and images of the whole
 * page; they run in the same `batch()` as the page itself, so a list costs one D1 round trip.
 */
import { asc, eq, inArray, type SQL, sql } from "drizzle-orm";
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
import type { OrganizerRow, VenueRow } from "../linked-posts/serialize";
import type { MediaRow } from "../media/serialize";
import type { TermRow } from "../terms/serialize";
import { type AuthUser, canReadPost } from "../users/capabilities";
import type { EventRecord, EventRow } from "./serialize";

/** The page's event ids: a parenthesized subquery (`(SELECT id ... LIMIT n)`) or a literal list. */
export type IdSet = SQL | number[];

const inIds = (column: Parameters<typeof inArray>[0], ids: IdSet) =>
  Array.isArray(ids) ? inArray(column, ids.length ? ids : [-1]) : sql`${column} IN ${ids}`;

/** The four related-row queries for a set of events, to put in a batch after the page query. */
export function relatedQueries(db: Db, ids: IdSet) {
  const venueIds = db.select({ id: events.venueId }).from(events).where(inIds(events.id, ids));
  const organizerIds = db
    .select({ id: eventOrganizers.organizerId })
    .from(eventOrganizers)
    .where(inIds(eventOrganizers.eventId, ids));
  return {
    venues: db.select().from(venues).where(inArray(venues.id, venueIds)),
    organizers: db
      .select({ eventId: eventOrganizers.eventId, organizer: organizers })
      .from(eventOrganizers)
      .innerJoin(organizers, eq(organizers.id, eventOrganizers.organizerId))
      .where(inIds(eventOrganizers.eventId, ids))
      .orderBy(asc(eventOrganizers.eventId), asc(eventOrganizers.position)),
    terms: db
      .select({ eventId: eventTerms.eventId, term: terms })
      .from(eventTerms)
      .innerJoin(terms, eq(terms.id, eventTerms.termId))
      .where(inIds(eventTerms.eventId, ids)),
    media: db
      .select()
      .from(media)
      .where(
        sql`${media.id} IN (SELECT ${events.imageId} FROM ${events} WHERE ${inIds(events.id, ids)}
          UNION SELECT ${venues.imageId} FROM ${venues} WHERE ${inArray(venues.id, venueIds)}
          UNION SELECT ${organizers.imageId} FROM ${organizers} WHERE ${inArray(organizers.id, organizerIds)})`,
      ),
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
 * leaves that organizer out (issue 20). Every renderer (JSON, `json_ld`, the iCalendar feed) gets its
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
