/**
 * The WHERE clause of the venue and organizer archives (tec-reference §7.1; contract §4 row 21 and
 * the "total counts the matches" row): status and visibility by role, `search`, `event`,
 * `has_events`, `only_with_upcoming` and `modified_after`, all in SQL so that `total` and every page
 * agree and a list costs one D1 batch.
 */
import { and, eq, gt, gte, inArray, ne, notInArray, or, type SQL, sql } from "drizzle-orm";
import { type AuthUser, can } from "../access/capabilities";
import type { Db } from "../db/client";
import { eventVisibility, readableByIndex } from "../db/post-access";
import { eventOrganizers, events, posts } from "../db/schema";
import { searchablePasswords } from "../db/sql";
import { ANY_STATUSES } from "../http/post-status";
import { changedAfter } from "../sync/cursor";
import { commonTable } from "./kinds";
import type { LinkedKind } from "./record";
import { searchCondition } from "./search";

/** Everything that narrows a venue/organizer archive, already validated. */
export interface LinkedFilters {
  statuses: string[];
  search?: string;
  /** Digest of the request's `password` (`""` for none): protected posts it opens are searched. */
  searchPassword?: string;
  /** Only the post(s) linked to this event. */
  event?: number;
  /**
   * true: linked to an event that is not a draft or pending and that the viewer may read; false:
   * not so linked.
   */
  hasEvents?: boolean;
  /** Linked to an upcoming event the user may see (all of them, contract §4 row 21). */
  onlyWithUpcoming: boolean;
  /** UTC `Y-m-d H:i:s`: changed after this instant (contract §7). */
  modifiedAfter?: string;
  /** A position of the sync clock: changed after it (contract §7.3). */
  syncCursor?: number;
  /** The request's clock as a site-local `Y-m-d H:i:s`, compared with events' local start (§6.2). */
  now: string;
}

/** Event statuses that do not count for `has_events` (§7.1, `tribe_{post_type}_has_events_excluded_post_stati`). */
const NOT_COUNTED = ["draft", "pending"];

/** Ids of the kind's posts linked to the events matching `where`, as a subquery (no NULLs). */
export function linkedToEvents(db: Db, kind: LinkedKind, where: SQL | undefined) {
  if (kind === "venue") {
    return db
      .select({ id: events.venueId })
      .from(events)
      .where(and(sql`${events.venueId} IS NOT NULL`, where));
  }
  return db
    .select({ id: eventOrganizers.organizerId })
    .from(eventOrganizers)
    .innerJoin(events, eq(events.id, eventOrganizers.eventId))
    .where(where);
}

/**
 * Visibility by role (§7.1, §9.2): editors and administrators see every listed status; authors and
 * contributors see published posts and their own; everybody else only published ones.
 */
export function linkedVisibility(kind: LinkedKind, user: AuthUser | null): SQL | undefined {
  const t = commonTable(kind);
  if (can(user, "edit_others_posts")) return undefined;
  if (user && can(user, "edit_posts")) return or(eq(t.status, "publish"), eq(t.author, user.id));
  return eq(t.status, "publish");
}

/** The archive's WHERE clause. */
export function linkedWhere(
  db: Db,
  kind: LinkedKind,
  f: LinkedFilters,
  user: AuthUser | null,
): SQL {
  const t = commonTable(kind);
  const conds: Array<SQL | undefined> = [
    inArray(t.status, f.statuses),
    linkedVisibility(kind, user),
  ];
  // §7.1: search looks among non-trashed posts only.
  if (f.search !== undefined)
    conds.push(
      ne(t.status, "trash"),
      searchablePasswords(
        t,
        user && { id: user.id, editor: can(user, "edit_others_posts") },
        f.searchPassword ?? "",
      ),
      searchCondition(kind, f.search),
    );
  if (f.event !== undefined)
    conds.push(inArray(t.id, linkedToEvents(db, kind, eq(events.id, f.event))));
  if (f.hasEvents !== undefined) {
    // Only events the viewer may read count (src/events/filter-visibility.ts rule 1).
    const readable = readableByIndex(events, user);
    const linked = linkedToEvents(db, kind, and(notInArray(events.status, NOT_COUNTED), readable));
    conds.push(f.hasEvents ? inArray(t.id, linked) : notInArray(t.id, linked));
  }
  if (f.onlyWithUpcoming) {
    const upcoming = and(
      gte(events.startDate, f.now),
      eq(events.hideFromListings, false),
      inArray(events.status, can(user, "edit_posts") ? ANY_STATUSES : ["publish"]),
      eventVisibility(user),
    );
    conds.push(inArray(t.id, linkedToEvents(db, kind, upcoming)));
  }
  if (f.modifiedAfter !== undefined) conds.push(gt(t.changedGmt, f.modifiedAfter));
  if (f.syncCursor !== undefined) conds.push(inArray(t.id, changedAfter(db, kind, f.syncCursor)));
  return and(...conds)!;
}

/**
 * §3 `is_event_id` for the `event` filter: a live post of type `tribe_events` (any status), with
 * what `canReadPost` needs — an event the viewer may not read filters as one that does not exist.
 */
export function eventExistsQuery(db: Db, id: number) {
  return db
    .select({ id: posts.id, status: events.status, author: events.author })
    .from(posts)
    .innerJoin(events, eq(events.id, posts.id))
    .where(
      and(eq(posts.id, id), eq(posts.postType, "tribe_events"), sql`${posts.deletedGmt} IS NULL`),
    );
}
