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
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { eventOrganizers, events, posts } from "../db/schema";
import { postDates, unlessChanged, withWriteRetry } from "../db/write";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError, forbidden } from "../http/errors";
import type { RenderContext } from "../http/render";
import { visibleLinked } from "./access";
import { DELETE_ARGS } from "./args";
import { commonTable } from "./kinds";
import { linkedFromResults, linkedLoadQueries } from "./load";
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

/** Handles both delete routes of one kind. */
export async function deleteLinked(
  c: AppContext,
  kind: LinkedKind,
  by: "id" | "slug",
): Promise<Response> {
  const user = c.get("user");
  const settings = c.get("settings");
  const { db } = c.get("rdb");
  const render: RenderContext = { urls: c.get("urls"), settings, user, single: false };

  const { values } = parseArgs(DELETE_ARGS[kind], await requestParams(c), argContext(c));
  return withWriteRetry(async () => {
    const { record } = await loadTarget(c, kind, by);
    const { row } = record;
    if (!canDeletePost(user, row)) throw forbidden(user !== null);
    const stamp = postDates(requestNow(c), settings.siteTimezone);
    const t = commonTable(kind);
    if (values.force) {
      // Shown whole: whoever may delete the post may open it (§4.7).
      const previous = serializeLinked(kind, render, visibleLinked(render, kind, record, true));
      await db.batch([
        unlessLinkedChanged(db, kind, row),
        ...unlinkStatements(db, kind, row.id, stamp),
        db.delete(t).where(eq(t.id, row.id)),
        db.update(posts).set({ deletedGmt: stamp.gmt }).where(eq(posts.id, row.id)),
      ] as never);
      return c.json({ deleted: true, previous });
    }
    if (row.status === "trash") throw new ApiError(410, `${kind}-is-in-trash`);
    const update = [
      unlessLinkedChanged(db, kind, row),
      ...unlinkStatements(db, kind, row.id, stamp),
      db
        .update(t)
        .set({
          status: "trash",
          trashMetaStatus: row.status,
          postModified: stamp.local,
          postModifiedGmt: stamp.gmt,
          changedGmt: stamp.gmt,
        })
        .where(eq(t.id, row.id)),
    ];
    const results = await runBatch(db, {
      update,
      post: linkedLoadQueries(db, kind, { id: row.id }),
    });
    const trashed = linkedFromResults(results.post)!;
    return c.json(serializeLinked(kind, render, visibleLinked(render, kind, trashed, true)));
  });
}
