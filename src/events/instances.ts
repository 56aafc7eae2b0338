/**
 * `GET /events/{id}/instances` (contract §7.8; Google Calendar's `events.instances`): the events of
 * one recurring series in a window, paged, filtered and ordered as `GET /events` lists them
 * (src/events/list-page.ts) — its first event, its overrides, its stored occurrences and those
 * computed past its stored horizon. The id names the series by its own id or by any of its events'
 * (an occurrence's, an override's, a computed occurrence's); a single event's instances are itself.
 *
 * The id is checked in the page's own batch (`instancesTarget`): one that names no event is a 404,
 * one of another kind of post a 400, a series the reader may not read a 403 — as `GET
 * /events/{id}` answers them (§10.3); a password-protected series is listed as `/events` lists it,
 * its protected fields blanked.
 */
import { and, eq, isNull } from "drizzle-orm";
import { type AuthUser, canReadPost } from "../access/capabilities";
import type { EntryResult } from "../db/batch";
import type { Db } from "../db/client";
import { events, posts } from "../db/schema";
import { ApiError } from "../http/errors";
import { EVENT_COLUMNS } from "./load";
import { computedOccurrence } from "./series/computed";
import { isInstanceId } from "./series/instance-ids";
import { seriesOfId } from "./series-filters";

/** The queries that check the id of `/events/{id}/instances`, for the page's batch. */
export function instancesTarget(db: Db, id: number) {
  return {
    post: db
      .select({ postType: posts.postType })
      .from(posts)
      .where(and(eq(posts.id, id), isNull(posts.deletedGmt))),
    series: db
      .select(EVENT_COLUMNS)
      .from(events)
      .where(eq(events.id, seriesOfId(id))),
  };
}

/**
 * Checks the results of `instancesTarget` for `id`.
 * @throws ApiError 404 `rest-event-not-found` (no such post, or a computed id its series does not
 *   give), 400 `rest-invalid-event-id` (another kind of post), 403 `event-no-longer-available`
 *   (the series is in the trash) or `event-not-accessible` (the reader may not read it).
 */
export function assertInstancesTarget(
  found: EntryResult<ReturnType<typeof instancesTarget>>,
  id: number,
  user: AuthUser | null,
): void {
  const row = found.series[0];
  const postType = found.post[0]?.postType;
  if (postType === undefined) {
    if (!(isInstanceId(id) && row && computedOccurrence(row, id)))
      throw new ApiError(404, "rest-event-not-found", [id]);
  } else if (postType !== "tribe_events") throw new ApiError(400, "rest-invalid-event-id");
  if (!row) throw new ApiError(400, "rest-invalid-event-id");
  if (row.status === "trash") throw new ApiError(403, "event-no-longer-available");
  if (!canReadPost(user, row)) throw new ApiError(403, "event-not-accessible");
}
