/**
 * `DELETE /events/{id}` and `/events/by-slug/{slug}` (tec-reference §8.7; contract §4: `force`,
 * row 15): to the trash (200 with the trashed event; again → 410 `event-is-in-trash`), or with
 * `?force=true` permanently (200 `{deleted: true, previous}`), keeping the id's tombstone so the id is
 * never reused and sync clients can learn of the deletion.
 */
import { eq, sql } from "drizzle-orm";
import { can, canDeletePost } from "../access/capabilities";
import { events, posts } from "../db/schema";
import { postDates, recountTerms, trashColumns, unlessChanged } from "../db/write";
import { runWrite, type WriteDecision, writeThen } from "../db/write-pipeline";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError, forbidden, InvalidParamsError } from "../http/errors";
import type { RenderContext } from "../http/render";
import { SINGLE_ARGS, SLUG_ARGS } from "./args";
import type { EventRecord } from "./record";
import { unchanged } from "./save";
import { serializeEvent } from "./serialize";
import { planOccurrenceDelete, seriesRemoval } from "./series/delete";
import { isOverride } from "./series/occurrences";
import { storeNamed } from "./series/reach";
import { eventFromResults, eventLoadQueries, loadEvent } from "./single";
import { visibleEvent } from "./visible";
import { DELETE_ARGS } from "./write-args";

/** An event delete's target, and `force` and `scope` as sent. */
interface EventDelete {
  c: AppContext;
  target: { id: number } | { slug: string };
  values: { force?: boolean; scope?: string };
}

/**
 * Handles both delete routes, through the write sequence (src/db/write-pipeline.ts); `target` names
 * the event by id or slug.
 * @throws InvalidParamsError `slug`, ApiError 401/403 `rest_forbidden`, 404 `rest-event-not-found`,
 *   400 `rest-invalid-event-id`, 410 `event-is-in-trash`.
 */
export function deleteEvent(
  c: AppContext,
  target: { id: number } | { slug: string },
): Promise<Response> {
  const { db } = c.get("rdb");
  return runWrite(db, {
    parse: () => parseEventDelete(c, target),
    load: () => loadEvent(db, target, c.get("user")),
    plan: planEventDelete,
  });
}

async function parseEventDelete(
  c: AppContext,
  target: { id: number } | { slug: string },
): Promise<EventDelete> {
  const params = await requestParams(c);
  const ctx = argContext(c);
  parseArgs("id" in target ? SINGLE_ARGS : SLUG_ARGS, params, ctx);
  const { values } = parseArgs(DELETE_ARGS, params, ctx);
  // An occurrence past its series' stored horizon, named by its computed id (contract §7.8): stored
  // once, before the write reads it.
  const user = c.get("user");
  if ("id" in target)
    await storeNamed(c.get("rdb").db, target.id, (row) => canDeletePost(user, row), requestNow(c));
  return { c, target, values };
}

/** The checks (slug, permission, existence), then the delete of an occurrence or of the event. */
async function planEventDelete(
  p: EventDelete,
  loaded: Awaited<ReturnType<typeof loadEvent>>,
): Promise<WriteDecision<Response>> {
  const { c, target } = p;
  const user = c.get("user");
  const { db } = c.get("rdb");
  const { postType, record, occurrence, series } = loaded;
  if ("slug" in target && !record) throw new InvalidParamsError([{ name: "slug" }]);
  if (record ? !canDeletePost(user, record.row) : !can(user, "delete_posts"))
    throw forbidden(user !== null);
  if (!record) {
    if (postType === null)
      throw new ApiError(404, "rest-event-not-found", ["id" in target ? target.id : 0]);
    throw new ApiError(400, "rest-invalid-event-id");
  }
  const settings = c.get("settings");
  const render: RenderContext = { urls: c.get("urls"), settings, user, single: false };
  const stamp = postDates(requestNow(c), settings.siteTimezone);
  if (!occurrence && !isOverride(record.row)) return planRemoval(p, record, render, stamp);
  // One occurrence of a recurring series, or it and the rest (contract §7.8).
  const seriesRow =
    occurrence && series
      ? series.row
      : (await loadEvent(db, { id: record.row.seriesId! }, user)).record?.row;
  if (!seriesRow) throw new ApiError(400, "rest-invalid-event-id");
  return planOccurrenceDelete(c, {
    record,
    occurrence,
    series: seriesRow,
    scope: p.values.scope,
    stamp,
    render,
  });
}

/** The event (and, for a series, the rest of it): permanently, or to the trash. */
function planRemoval(
  p: EventDelete,
  record: EventRecord,
  render: RenderContext,
  stamp: { local: string; gmt: string },
): WriteDecision<Response> {
  const { c } = p;
  const { db } = c.get("rdb");
  const { row } = record;
  const termIds = record.terms.map((t) => t.id);
  // Applies only to the event as read (an update or delete in between → read again).
  const guard = unlessChanged(db, sql`EXISTS (SELECT 1 FROM ${events} WHERE ${unchanged(row)})`);
  if (p.values.force) {
    const previous = serializeEvent(render, visibleEvent(render, record));
    const write = [
      guard,
      ...seriesRemoval(db, row, true, stamp),
      db.delete(events).where(eq(events.id, row.id)),
      db.update(posts).set({ deletedGmt: stamp.gmt }).where(eq(posts.id, row.id)),
      recountTerms(db, termIds),
    ];
    return writeThen(write, undefined, () => c.json({ deleted: true, previous }));
  }
  if (row.status === "trash") throw new ApiError(410, "event-is-in-trash");
  const write = [
    guard,
    ...seriesRemoval(db, row, false, stamp),
    db.update(events).set(trashColumns(row.status, stamp)).where(eq(events.id, row.id)),
    recountTerms(db, termIds),
  ];
  return writeThen(write, eventLoadQueries(db, { id: row.id }), (event) =>
    c.json(
      serializeEvent(render, visibleEvent(render, eventFromResults(event, c.get("user")).record!)),
    ),
  );
}
