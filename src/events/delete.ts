/**
 * `DELETE /events/{id}` and `/events/by-slug/{slug}` (tec-reference §8.7; contract §4: `force`,
 * row 15): to the trash (200 with the trashed event; again → 410 `event-is-in-trash`), or with
 * `?force=true` permanently (200 `{deleted: true, previous}`), keeping the id's tombstone so the id is
 * never reused and sync clients can learn of the deletion.
 */
import { eq, sql } from "drizzle-orm";
import { can, canDeletePost } from "../access/capabilities";
import { runBatch } from "../db/batch";
import { events, posts } from "../db/schema";
import { postDates, recountTerms, unlessChanged, withWriteRetry } from "../db/write";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError, forbidden, InvalidParamsError } from "../http/errors";
import type { RenderContext } from "../http/render";
import { SINGLE_ARGS, SLUG_ARGS } from "./args";
import { unchanged } from "./save";
import { serializeEvent } from "./serialize";
import { deleteOccurrence, seriesRemoval } from "./series/delete";
import { isOverride } from "./series/occurrences";
import { storeNamed } from "./series/reach";
import { eventFromResults, eventLoadQueries, loadEvent } from "./single";
import { visibleEvent } from "./visible";
import { DELETE_ARGS } from "./write-args";

/** Handles both delete routes; `target` names the event by id or slug. */
export async function deleteEvent(
  c: AppContext,
  target: { id: number } | { slug: string },
): Promise<Response> {
  const params = await requestParams(c);
  const ctx = argContext(c);
  parseArgs("id" in target ? SINGLE_ARGS : SLUG_ARGS, params, ctx);
  const { values } = parseArgs(DELETE_ARGS, params, ctx);
  const user = c.get("user");
  const settings = c.get("settings");
  const { db } = c.get("rdb");
  const render: RenderContext = { urls: c.get("urls"), settings, user, single: false };
  // An occurrence past its series' stored horizon, named by its computed id (contract §7.8).
  if ("id" in target)
    await storeNamed(db, target.id, (row) => canDeletePost(user, row), requestNow(c));

  return withWriteRetry(async () => {
    const { postType, record, occurrence, series } = await loadEvent(db, target, user);
    if ("slug" in target && !record) throw new InvalidParamsError([{ name: "slug" }]);
    if (record ? !canDeletePost(user, record.row) : !can(user, "delete_posts"))
      throw forbidden(user !== null);
    if (!record) {
      if (postType === null)
        throw new ApiError(404, "rest-event-not-found", ["id" in target ? target.id : 0]);
      throw new ApiError(400, "rest-invalid-event-id");
    }
    // One occurrence of a recurring series, or it and the rest (contract §7.8).
    if (occurrence || isOverride(record.row)) {
      const seriesRow =
        occurrence && series
          ? series.row
          : (await loadEvent(db, { id: record.row.seriesId! }, user)).record?.row;
      if (!seriesRow) throw new ApiError(400, "rest-invalid-event-id");
      return deleteOccurrence(c, {
        record,
        occurrence,
        series: seriesRow,
        scope: values.scope,
        stamp: postDates(requestNow(c), settings.siteTimezone),
        render,
      });
    }
    const { row } = record;
    const termIds = record.terms.map((t) => t.id);
    // Applies only to the event as read (an update or delete in between → read again).
    const guard = unlessChanged(db, sql`EXISTS (SELECT 1 FROM ${events} WHERE ${unchanged(row)})`);
    if (values.force) {
      const previous = serializeEvent(render, visibleEvent(render, record));
      const stamp = postDates(requestNow(c), settings.siteTimezone);
      await db.batch([
        guard,
        ...seriesRemoval(db, row, true, stamp),
        db.delete(events).where(eq(events.id, row.id)),
        db.update(posts).set({ deletedGmt: stamp.gmt }).where(eq(posts.id, row.id)),
        recountTerms(db, termIds),
      ] as never);
      return c.json({ deleted: true, previous });
    }
    if (row.status === "trash") throw new ApiError(410, "event-is-in-trash");
    const stamp = postDates(requestNow(c), settings.siteTimezone);
    const update = [
      guard,
      ...seriesRemoval(db, row, false, stamp),
      db
        .update(events)
        .set({
          status: "trash",
          trashMetaStatus: row.status,
          postModified: stamp.local,
          postModifiedGmt: stamp.gmt,
          changedGmt: stamp.gmt,
        })
        .where(eq(events.id, row.id)),
      recountTerms(db, termIds),
    ];
    const results = await runBatch(db, {
      update,
      event: eventLoadQueries(db, { id: row.id }),
    });
    return c.json(
      serializeEvent(render, visibleEvent(render, eventFromResults(results.event, user).record!)),
    );
  });
}
