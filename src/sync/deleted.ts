/**
 * `GET /deleted` (contract §7.3): everything a reader can no longer see, for clients that mirror
 * the calendar — so that a mirror can drop it. Read from `sync_log`, which the triggers of
 * drizzle/0019_sync_log.sql keep in the transaction of every write. Each entry says why:
 *
 * - `deleted`: deleted permanently (posts with `force=true`; categories and tags always);
 * - `trash`: in the trash now;
 * - `cancelled`: an occurrence of a recurring series (contract §7.8) that went while its series
 *   stays — deleted on its own (an `EXDATE`), dropped by a new rule, an ended repetition, a split,
 *   an override removed — with `series: {id, occurrence_start}`, as Google Calendar reports a
 *   cancelled instance;
 * - `unpublished`: back to draft, pending or scheduled; `private`: made private;
 * - `hidden`: hidden from listings;
 * - `protected`: password-protected, so the lists show it blanked (§4.7).
 *
 * Two audiences. Anonymous readers, and signed-in users who may not edit others' posts, see what
 * left the public lists (the `public_*` columns): only posts they could see before, never a draft
 * that never was public. Editors (`edit_others_posts`) see what left their lists, which show every
 * status but the trash (`editor_*`): trashed, deleted, cancelled, hidden, protected — not
 * unpublished or private, which they still list. An occurrence goes and comes back with its series.
 *
 * Ids, reasons, times and positions only, never content: public by design, and cached like every
 * anonymous answer (its entries change only with what anonymous readers see, so with the content
 * version). Ordered by position (`sync_cursor`: the order in which the changes were committed),
 * then time and id (one write moves a series' occurrences at one position; what left before the log
 * existed is at position 0); `sync_cursor=` resumes after a position, `modified_after=` after an
 * instant.
 */
import { and, asc, count, gt, inArray, isNotNull, type SQL } from "drizzle-orm";
import { can } from "../access/capabilities";
import { runBatch } from "../db/batch";
import { SYNC_TYPES, type SyncType, syncLog } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { echoed, modifiedAfterUtc, pageOf, syncCursorValue } from "../http/list-args";
import { archiveBody, pageLinks, setPagingHeaders, totalPages } from "../http/pagination";
import { DELETED_ARGS } from "./args";
import { carrySyncCursor, setSyncCursor } from "./cursor";

/** Why a reader can no longer see something (contract §7.3). */
export const DELETION_STATUSES = [
  "deleted",
  "trash",
  "cancelled",
  "unpublished",
  "private",
  "hidden",
  "protected",
] as const;
export type DeletionStatus = (typeof DELETION_STATUSES)[number];

/** One entry of the log. */
export interface Deletion {
  id: number;
  type: SyncType;
  status: DeletionStatus;
  /** UTC `Y-m-d H:i:s`: when it left. */
  deleted_utc: string;
  /** The position of the change that took it away (a sync cursor). */
  sync_cursor: number;
  /** A cancelled occurrence's series and original start (series-local wall clock). */
  series?: { id: number; occurrence_start: string };
}

/** The columns of the reader's audience: editors', or everybody else's. */
function audience(editor: boolean) {
  const l = syncLog;
  return editor
    ? { seq: l.editorSeq, status: l.editorStatus, at: l.editorGmt }
    : { seq: l.publicSeq, status: l.publicStatus, at: l.publicGmt };
}

/**
 * Handles `GET /deleted`.
 * @throws InvalidParamsError 400 for a bad `page`, `per_page`, `modified_after`, `sync_cursor` or
 *   `type`.
 * @example GET /wp-json/tribe/events/v1/deleted?sync_cursor=4127&type=event,venue
 *   // { deleted: [{ id: 8, type: "event", status: "trash", deleted_utc: "2026-11-22 11:02:12", sync_cursor: 4130 }],
 *   //   rest_url, total: 1, total_pages: 1, sync_cursor: 4133 }
 */
export async function listDeleted(c: AppContext): Promise<Response> {
  const settings = c.get("settings");
  const { values: a } = parseArgs(DELETED_ARGS, await requestParams(c), argContext(c));
  const { page, perPage, offset } = pageOf(a, settings.perPageMax);
  const after = modifiedAfterUtc(a, settings.siteTimezone, requestNow(c));
  const cursor = syncCursorValue(a);
  const types = a.type ?? [...SYNC_TYPES];

  const { db } = c.get("rdb");
  const l = syncLog;
  const col = audience(can(c.get("user"), "edit_others_posts"));
  const where: SQL = and(
    isNotNull(col.seq),
    types.length < SYNC_TYPES.length ? inArray(l.type, types) : undefined,
    cursor !== undefined ? gt(col.seq, cursor) : undefined,
    after !== undefined ? gt(col.at, after) : undefined,
  )!;
  carrySyncCursor(c);
  const r = await runBatch(db, {
    rows: db
      .select({
        id: l.id,
        type: l.type,
        status: col.status,
        at: col.at,
        seq: col.seq,
        seriesId: l.seriesId,
        occurrenceStart: l.occurrenceStart,
      })
      .from(l)
      .where(where)
      .orderBy(asc(col.seq), asc(col.at), asc(l.id), asc(l.type))
      .limit(perPage)
      .offset(offset),
    total: db.select({ n: count() }).from(l).where(where),
  });
  const total = r.total[0]?.n ?? 0;

  const pages = totalPages(total, perPage);
  const echo = echoed(perPage, [["type", a.type]], a);
  const links = pageLinks(`${c.get("urls").namespaceRoot}deleted/`, page, pages, echo);
  setPagingHeaders(c, total, pages, links);
  const position = setSyncCursor(c);
  const deleted: Deletion[] = r.rows.map((row) => ({
    id: row.id,
    type: row.type,
    status: row.status as DeletionStatus,
    deleted_utc: row.at ?? "",
    sync_cursor: row.seq ?? 0,
    ...(row.status === "cancelled" && row.seriesId !== null
      ? { series: { id: row.seriesId, occurrence_start: row.occurrenceStart ?? "" } }
      : {}),
  }));
  return c.json({
    ...archiveBody("deleted", deleted, links, total, pages),
    sync_cursor: position ?? 0,
  });
}
