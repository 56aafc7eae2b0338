/**
 * `DELETE /venues/{id}`, `/venues/by-slug/{slug}` and the organizer equivalents (tec-reference §8.7;
 * contract §4 `force`, row 15): to the trash (200 with the trashed post; again → 410
 * `{kind}-is-in-trash`), or with `?force=true` permanently (200 `{deleted: true, previous}`), keeping
 * the id's tombstone so it is never reused. Either way the post is unlinked from every event in the
 * same batch, and those events count as modified (incremental sync sees the change).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { canDeletePost } from "../access/capabilities";
import type { BatchQuery } from "../db/batch";
import type { Db } from "../db/client";
import { eventOrganizers, events, posts } from "../db/schema";
import { postDates, trashColumns, unlessChanged } from "../db/write";
import { runWrite, type WriteDecision, writeThen } from "../db/write-pipeline";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError, forbidden } from "../http/errors";
import type { RenderContext } from "../http/render";
import { visibleLinked } from "./access";
import { DELETE_ARGS } from "./args";
import { commonTable } from "./kinds";
import { type LinkedRecord, linkedFromResults, linkedLoadQueries } from "./load";
import type { LinkedKind } from "./record";
import { serializeLinked } from "./serialize";
import { loadTarget } from "./single";

/**
 * Statements that unlink a venue/organizer from every event (venue: `venue_id = NULL`; organizer:
 * its `event_organizers` rows), first stamping those events as changed (for `modified_after`; their
 * displayed `modified` stays, as WordPress's cleanup leaves `post_modified` alone).
 * @param stamp site-local and UTC `Y-m-d H:i:s` of the change.
 */
export function unlinkStatements(
  db: Db,
  kind: LinkedKind,
  id: number,
  stamp: { local: string; gmt: string },
): BatchQuery[] {
  const modified = { changedGmt: stamp.gmt };
  if (kind === "venue")
    return [
      db
        .update(events)
        .set({ ...modified, venueId: null })
        .where(eq(events.venueId, id)),
    ];
  const linked = db
    .select({ id: eventOrganizers.eventId })
    .from(eventOrganizers)
    .where(eq(eventOrganizers.organizerId, id));
  return [
    db.update(events).set(modified).where(inArray(events.id, linked)),
    db.delete(eventOrganizers).where(eq(eventOrganizers.organizerId, id)),
  ];
}

/**
 * The first statement of a write batch on a venue/organizer: the batch applies only to the post as it
 * was read (same status and change time); otherwise it fails as a conflict and the operation runs
 * again from its reads (src/db/write.ts `unlessChanged`).
 */
export function unlessLinkedChanged(
  db: Db,
  kind: LinkedKind,
  row: { id: number; status: string; changedGmt: string },
) {
  const t = commonTable(kind);
  return unlessChanged(
    db,
    sql`EXISTS (SELECT 1 FROM ${t} WHERE ${and(eq(t.id, row.id), eq(t.status, row.status), eq(t.changedGmt, row.changedGmt))})`,
  );
}

/**
 * Handles both delete routes of one kind, through the write sequence (src/db/write-pipeline.ts):
 * load the post, check, one batch (with the reload of a trashed post), answer.
 * @throws InvalidParamsError `id`/`slug` (no such post), ApiError 401/403 `rest_forbidden`, 410
 *   `{kind}-is-in-trash` (trashing a trashed post).
 */
export function deleteLinked(
  c: AppContext,
  kind: LinkedKind,
  by: "id" | "slug",
): Promise<Response> {
  const { db } = c.get("rdb");
  return runWrite(db, {
    parse: async () => parseArgs(DELETE_ARGS[kind], await requestParams(c), argContext(c)).values,
    load: () => loadTarget(c, kind, by),
    plan: (values, { record }) => planLinkedDelete(c, kind, record, values.force === true),
  });
}

/** Permanently (`force`: `{deleted: true, previous}`) or to the trash (the trashed post). */
function planLinkedDelete(
  c: AppContext,
  kind: LinkedKind,
  record: LinkedRecord,
  force: boolean,
): WriteDecision<Response> {
  const user = c.get("user");
  const { db } = c.get("rdb");
  const render: RenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user,
    single: false,
  };
  const { row } = record;
  if (!canDeletePost(user, row)) throw forbidden(user !== null);
  const stamp = postDates(requestNow(c), c.get("settings").siteTimezone);
  const t = commonTable(kind);
  const unlink = [unlessLinkedChanged(db, kind, row), ...unlinkStatements(db, kind, row.id, stamp)];
  if (force) {
    // Shown whole: whoever may delete the post may open it (§4.7).
    const previous = serializeLinked(kind, render, visibleLinked(render, kind, record, true));
    const write = [
      ...unlink,
      db.delete(t).where(eq(t.id, row.id)),
      db.update(posts).set({ deletedGmt: stamp.gmt }).where(eq(posts.id, row.id)),
    ];
    return writeThen(write, undefined, () => c.json({ deleted: true, previous }));
  }
  if (row.status === "trash") throw new ApiError(410, `${kind}-is-in-trash`);
  const trash = db.update(t).set(trashColumns(row.status, stamp)).where(eq(t.id, row.id));
  return writeThen([...unlink, trash], linkedLoadQueries(db, kind, { id: row.id }), (post) =>
    c.json(
      serializeLinked(kind, render, visibleLinked(render, kind, linkedFromResults(post)!, true)),
    ),
  );
}
