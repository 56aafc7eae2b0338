/**
 * What counts as a change of an event for incremental sync (contract §7.3): a change of the event
 * itself, or of a venue or organizer it shows — an edit of one changes what the event's JSON embeds
 * without changing the event's row. (Categories and tags stamp their events when edited or deleted,
 * src/terms/query.ts `touchEventsOf`; trashing or deleting a venue or organizer unlinks and stamps
 * them, src/linked-posts/delete.ts.) Both ways of asking: after an instant (`modified_after`, the
 * change times) and after a position of the sync clock (`sync_cursor`, src/sync/cursor.ts).
 */
import { gt, inArray, or, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { eventOrganizers, events, organizers, venues } from "../db/schema";
import { changedAfter } from "../sync/cursor";

/** Which change: after an instant (UTC `Y-m-d H:i:s`) or after a sync cursor. */
export type Since = { instant: string } | { cursor: number };

/** Ids of the venues, or of the organizers, changed since. */
function linkedChanged(db: Db, kind: "venue" | "organizer", since: Since) {
  if ("cursor" in since) return changedAfter(db, kind, since.cursor);
  const t = kind === "venue" ? venues : organizers;
  return db.select({ id: t.id }).from(t).where(gt(t.changedGmt, since.instant));
}

/**
 * The condition on `events` (singles, series, overrides): the event changed since, or shows a venue
 * or organizer that did.
 * @example and(whereClause, eventChangedSince(db, { cursor: 4127 }))
 */
export function eventChangedSince(db: Db, since: Since): SQL {
  const own =
    "cursor" in since
      ? inArray(events.id, changedAfter(db, "event", since.cursor))
      : gt(events.changedGmt, since.instant);
  const byOrganizer = db
    .select({ id: eventOrganizers.eventId })
    .from(eventOrganizers)
    .where(inArray(eventOrganizers.organizerId, linkedChanged(db, "organizer", since)));
  return or(
    own,
    inArray(events.venueId, linkedChanged(db, "venue", since)),
    inArray(events.id, byOrganizer),
  )!;
}
