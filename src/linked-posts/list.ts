/**
 * `GET /venues` and `GET /organizers` (tec-reference §2.6, §2.7, §5, §7.1; contract §4 rows 1, 6, 8,
 * 21). One D1 batch: the `event` check, the total, the page (newest first) and the page's images.
 */
import { count, desc, sql } from "drizzle-orm";
import { can, canReadPost } from "../access/capabilities";
import { runBatch } from "../db/batch";
import { media } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { sha256Hex } from "../http/crypto";
import { ApiError, InvalidParamsError } from "../http/errors";
import { echoed, modifiedAfterUtc, pageOf, syncCursorValue } from "../http/list-args";
import { archiveBody, pageLinks, setPagingHeaders, totalPages } from "../http/pagination";
import { ANY_STATUSES } from "../http/post-status";
import type { RenderContext } from "../http/render";
import { carrySyncCursor, setSyncCursor } from "../sync/cursor";
import { WP_FORMAT } from "../time/format";
import { resolveZone } from "../time/zone";
import { passwordAccess, visibleLinked } from "./access";
import { ARCHIVE_ARGS } from "./args";
import { eventExistsQuery, type LinkedFilters, linkedWhere } from "./filters";
import { commonTable, LINKED } from "./kinds";
import type { LinkedRow } from "./load";
import type { LinkedKind } from "./record";
import { serializeLinked } from "./serialize";

/** Handles the archive of one kind. */
export async function listLinked(c: AppContext, kind: LinkedKind): Promise<Response> {
  const settings = c.get("settings");
  const user = c.get("user");
  const now = requestNow(c);
  const params = await requestParams(c);
  const { values: a, sent } = parseArgs(ARCHIVE_ARGS[kind], params, argContext(c));

  // §3 filter_post_status_list: without edit rights only `publish` may be asked for.
  const editor = can(user, "edit_posts");
  if (a.status && !editor && !(a.status.length === 1 && a.status[0] === "publish")) {
    throw new InvalidParamsError([{ name: "status" }]);
  }
  const site = resolveZone(settings.siteTimezone) ?? resolveZone("UTC")!;
  const filters: LinkedFilters = {
    statuses: a.status ?? (editor ? ANY_STATUSES : ["publish"]),
    search: a.search,
    searchPassword: a.password ? await sha256Hex(a.password) : "",
    event: a.event,
    hasEvents: sent.has("has_events") ? a.has_events : undefined,
    onlyWithUpcoming: a.only_with_upcoming === true,
    modifiedAfter: modifiedAfterUtc(a, settings.siteTimezone, now),
    syncCursor: syncCursorValue(a),
    now: now.setZone(site).toFormat(WP_FORMAT),
  };
  const { page, perPage, offset } = pageOf(a, settings.perPageMax);

  const { db } = c.get("rdb");
  const t = commonTable(kind);
  const where = linkedWhere(db, kind, filters, user);
  const order = [desc(t.postDate), desc(t.id)];
  const pageImageIds = db
    .select({ id: t.imageId })
    .from(t)
    .where(where)
    .orderBy(...order)
    .limit(perPage)
    .offset(offset);
  carrySyncCursor(c);
  const r = await runBatch(db, {
    event: filters.event !== undefined ? eventExistsQuery(db, filters.event) : undefined,
    total: db.select({ total: count() }).from(t).where(where),
    rows: db
      .select()
      .from(t)
      .where(where)
      .orderBy(...order)
      .limit(perPage)
      .offset(offset),
    images: db.select().from(media).where(sql`${media.id} IN (${pageImageIds})`),
  });
  // An event the viewer may not read is, to them, no event: its links stay hidden.
  if (r.event && !(r.event.length > 0 && canReadPost(user, r.event[0])))
    throw new InvalidParamsError([{ name: "event" }]);
  const total = r.total[0]?.total ?? 0;
  const rows: LinkedRow[] = r.rows;
  const { images } = r;

  const pages = totalPages(total, perPage);
  if (page > 1 && rows.length === 0) throw new ApiError(404, `${kind}-archive-page-not-found`);

  const ctx: RenderContext = { urls: c.get("urls"), settings, user, single: false };
  const imageById = new Map(images.map((m) => [m.id, m]));
  const access = await passwordAccess(a.password, params.query.context, user);
  const list = rows.map((row) => {
    const image = row.imageId === null ? null : (imageById.get(row.imageId) ?? null);
    return serializeLinked(kind, ctx, visibleLinked(ctx, kind, { row, image }, access(row)));
  });

  const plural = LINKED[kind].plural;
  const echo = echoed(
    perPage,
    [
      ["search", a.search],
      ["event", a.event],
      ["has_events", filters.hasEvents],
      ["only_with_upcoming", filters.onlyWithUpcoming || undefined],
      ["status", a.status ?? (editor ? ANY_STATUSES : ["publish"])],
    ],
    a,
  );
  const links = pageLinks(`${ctx.urls.namespaceRoot}${plural}/`, page, pages, echo);
  setPagingHeaders(c, total, pages, links);
  setSyncCursor(c);
  return c.json(archiveBody(plural, list, links, total, pages));
}
