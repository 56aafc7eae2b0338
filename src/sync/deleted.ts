/**
 * `GET /deleted` (contract §7, incremental sync): what left the calendar, for clients that mirror it
 * with `modified_after`. Lists never show a permanently deleted post or term again, and anonymous
 * lists stop showing a post once it is trashed; this log says so:
 *
 * - `status: "deleted"`: events, venues and organizers deleted permanently (`?force=true`; the
 *   `posts` registry keeps their tombstones) and categories and tags (always permanent; tombstones in
 *   `deleted_terms`), `deleted_utc` = when;
 * - `status: "trash"`: events, venues and organizers now in the trash, `deleted_utc` = their last
 *   change (`changed_gmt`: the trashing, unless changed since). Anonymous callers and users who may not edit
 *   others' posts see only posts that were published when trashed (they were public before); editors
 *   see every trashed post. A post taken out of the trash comes back in the lists with a newer
 *   `modified_utc`. The occurrences of a trashed recurring series are listed with it (contract
 *   §7.8); an occurrence deleted from its series (an `EXDATE`, a shorter rule) is tombstoned.
 *
 * Ids only, nothing else about the post: public by design (ids of published posts were public, ids
 * of deleted drafts say nothing). Ordered by `deleted_utc`, then id, with `total` and page links like
 * every archive, so `modified_after` = the newest `deleted_utc` seen resumes exactly.
 */
import { and, count, eq, gt, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import { type AuthUser, can } from "../access/capabilities";
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { deletedTerms, eventOccurrences, events, organizers, posts, venues } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { echoed, modifiedAfterUtc, pageOf } from "../http/list-args";
import { archiveBody, pageLinks, setPagingHeaders, totalPages } from "../http/pagination";
import { DELETED_ARGS, DELETED_TYPES, type DeletedType } from "./args";

/** One entry of the log. */
export interface Deletion {
  id: number;
  type: DeletedType;
  status: "deleted" | "trash";
  /** UTC `Y-m-d H:i:s`. */
  deleted_utc: string;
}

const POST_TYPES = {
  event: "tribe_events",
  venue: "tribe_venue",
  organizer: "tribe_organizer",
} as const;
const TABLES = { event: events, venue: venues, organizer: organizers } as const;

/**
 * Trashed events, and the occurrences of trashed recurring series (contract §7.8) as their series
 * (its change time): one select over both (D1 takes at most five selects in a compound).
 */
function trashedEvents(db: Db, user: AuthUser | null, after: string | undefined) {
  const o = eventOccurrences;
  const t = sql`(SELECT ${events.id} AS id, ${events.status} AS status, ${events.trashMetaStatus} AS was, ${events.changedGmt} AS changed FROM ${events} WHERE ${events.status} = 'trash'
    UNION ALL SELECT ${o.id}, ${o.status}, ${events.trashMetaStatus}, ${events.changedGmt} FROM ${o} JOIN ${events} ON ${events.id} = ${o.seriesId} WHERE ${o.status} = 'trash')`;
  return db
    .select({
      id: sql<number>`t.id`.as("id"),
      type: sql<DeletedType>`'event'`.as("type"),
      status: sql<"trash">`'trash'`.as("status"),
      deleted_utc: sql<string>`t.changed`.as("deleted_utc"),
    })
    .from(sql`${t} AS t`)
    .where(
      and(
        can(user, "edit_others_posts") ? undefined : sql`t.was = 'publish'`,
        after ? sql`t.changed > ${after}` : undefined,
      ),
    );
}

/** The selects of the log, one per source, each giving `id, type, status, deleted_utc`. */
function sources(db: Db, types: DeletedType[], after: string | undefined, user: AuthUser | null) {
  const out = [];
  const postTypes = types.filter((t): t is keyof typeof POST_TYPES => t in POST_TYPES);
  if (postTypes.length) {
    out.push(
      db
        .select({
          id: posts.id,
          type: sql<DeletedType>`CASE ${posts.postType} WHEN 'tribe_events' THEN 'event' WHEN 'tribe_venue' THEN 'venue' ELSE 'organizer' END`.as(
            "type",
          ),
          status: sql<"deleted">`'deleted'`.as("status"),
          deleted_utc: sql<string>`${posts.deletedGmt}`.as("deleted_utc"),
        })
        .from(posts)
        .where(
          and(
            inArray(
              posts.postType,
              postTypes.map((t) => POST_TYPES[t]),
            ),
            isNotNull(posts.deletedGmt),
            after ? gt(posts.deletedGmt, after) : undefined,
          ),
        ),
    );
  }
  const taxonomies = types.flatMap((t) =>
    t === "category" ? ["tribe_events_cat" as const] : t === "tag" ? ["post_tag" as const] : [],
  );
  if (taxonomies.length) {
    out.push(
      db
        .select({
          id: deletedTerms.id,
          type: sql<DeletedType>`CASE ${deletedTerms.taxonomy} WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END`.as(
            "type",
          ),
          status: sql<"deleted">`'deleted'`.as("status"),
          deleted_utc: sql<string>`${deletedTerms.deletedGmt}`.as("deleted_utc"),
        })
        .from(deletedTerms)
        .where(
          and(
            inArray(deletedTerms.taxonomy, taxonomies),
            after ? gt(deletedTerms.deletedGmt, after) : undefined,
          ),
        ),
    );
  }
  // Trashed posts: everyone learns of those that were public; editors of all.
  const wasPublic = (t: (typeof TABLES)[keyof typeof TABLES]): SQL | undefined =>
    can(user, "edit_others_posts") ? undefined : eq(t.trashMetaStatus, "publish");
  for (const type of postTypes) {
    if (type === "event") {
      out.push(trashedEvents(db, user, after));
      continue;
    }
    const t = TABLES[type];
    out.push(
      db
        .select({
          id: t.id,
          type: sql<DeletedType>`${type}`.as("type"),
          status: sql<"trash">`'trash'`.as("status"),
          deleted_utc: sql<string>`${t.changedGmt}`.as("deleted_utc"),
        })
        .from(t)
        .where(
          and(eq(t.status, "trash"), wasPublic(t), after ? gt(t.changedGmt, after) : undefined),
        ),
    );
  }
  return out;
}

/**
 * Handles `GET /deleted`.
 * @throws InvalidParamsError 400 for a bad `page`, `per_page`, `modified_after` or `type`.
 * @example GET /wp-json/tribe/events/v1/deleted?modified_after=2026-11-01T00:00:00Z&type=event,venue
 *   // { deleted: [{ id: 8, type: "event", status: "deleted", deleted_utc: "2026-11-22 11:02:12" }], rest_url, total: 1, total_pages: 1 }
 */
export async function listDeleted(c: AppContext): Promise<Response> {
  const settings = c.get("settings");
  const { values: a } = parseArgs(DELETED_ARGS, await requestParams(c), argContext(c));
  const { page, perPage, offset } = pageOf(a, settings.perPageMax);
  const after = modifiedAfterUtc(a, settings.siteTimezone, requestNow(c));
  const types = a.type ?? [...DELETED_TYPES];

  const { db } = c.get("rdb");
  const selects = sources(db, types, after, c.get("user"));
  // Counted on their own selects: drizzle's union mutates its first operand.
  const counts = sources(db, types, after, c.get("user")).map((s) =>
    db.select({ n: count() }).from(s.as("s")),
  );
  const [firstSelect, secondSelect, ...rest] = selects;
  // The selects differ in their source table only; drizzle's typings want one table per union.
  const all = secondSelect
    ? unionAll(firstSelect as never, secondSelect as never, ...(rest as never[]))
    : firstSelect;
  const pageQuery = (all as typeof firstSelect)
    .orderBy(sql`deleted_utc`, sql`id`)
    .limit(perPage)
    .offset(offset);
  const r = await runBatch(db, { rows: pageQuery, counts });
  const rows: Deletion[] = r.rows;
  const total = r.counts.reduce((sum, n) => sum + (n[0]?.n ?? 0), 0);

  const pages = totalPages(total, perPage);
  const echo = echoed(perPage, [["type", a.type]], a);
  const links = pageLinks(`${c.get("urls").namespaceRoot}deleted/`, page, pages, echo);
  setPagingHeaders(c, total, pages, links);
  const deleted = rows.map((r) => ({
    id: r.id,
    type: r.type,
    status: r.status,
    deleted_utc: r.deleted_utc,
  }));
  return c.json(archiveBody("deleted", deleted, links, total, pages));
}
