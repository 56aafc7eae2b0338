/**
 * `GET /wp/v2/media` (contract §3; WordPress `WP_REST_Attachments_Controller::get_items`): the
 * media library, newest first, 10 a page — what the `wp/v2` index's link to the collection names.
 * Every attachment here is a public image reference (`GET /media/{id}` answers anyone), so the list
 * shows them all, each as `GET /media/{id}` answers it. One D1 round trip.
 */
import { asc, count, desc, not, type SQL, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import { media } from "../db/schema";
import { inList } from "../db/sql";
import { arg, parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { pageArgs, pageOf, searchArg } from "../http/list-args";
import { totalPages } from "../http/pagination";
import { wpString } from "../http/validators";
import { contextArg, idList, oneOf, orderArg, setWpPaging, WP_PAGE } from "../http/wp-collection";
import { serializeMedia } from "./serialize";

/** WordPress's `orderby` of attachments (those that mean something here). */
const ORDERBY = ["date", "id", "include", "title", "slug"] as const;

/** `GET /media`: WordPress's collection arguments (a subset), in its order. */
export const MEDIA_LIST_ARGS = {
  ...contextArg("wp"),
  ...pageArgs("wp", WP_PAGE),
  ...searchArg("wp", wpString),
  exclude: arg({
    schema: idList,
    type: "array",
    items: { type: "integer" },
    description: "wp.exclude",
  }),
  include: arg({
    schema: idList,
    type: "array",
    items: { type: "integer" },
    description: "wp.include",
  }),
  ...orderArg("desc"),
  orderby: arg({
    schema: oneOf(ORDERBY),
    default: "date",
    type: "string",
    description: "wp.media_orderby",
  }),
};

/**
 * Handles `GET /media`: `search` in titles, `include`/`exclude` ids, `orderby` date (the post
 * date), id, include, title or slug; `X-WP-Total`, `X-WP-TotalPages`, `Link`.
 * @throws InvalidParamsError for bad arguments.
 */
export async function listMedia(c: AppContext): Promise<Response> {
  const parsed = parseArgs(MEDIA_LIST_ARGS, await requestParams(c), argContext(c));
  const a = parsed.values;
  const { page, perPage, offset } = pageOf(a);
  const conds: SQL[] = [];
  const search = a.search?.trim().toLowerCase();
  if (search) conds.push(sql`instr(lower(${media.title}), ${search}) > 0`);
  if (a.include?.length) conds.push(inList(media.id, a.include));
  if (a.exclude?.length) conds.push(not(inList(media.id, a.exclude)));
  const where = conds.length ? sql.join(conds, sql` AND `) : undefined;
  const direction = a.order === "asc" ? asc : desc;
  const by: Record<(typeof ORDERBY)[number], SQL> = {
    date: sql`${media.postDate}`,
    id: sql`${media.id}`,
    include: a.include?.length
      ? sql`(SELECT min(j.key) FROM json_each(${JSON.stringify(a.include)}) j WHERE j.value = ${media.id})`
      : sql`${media.id}`,
    title: sql`${media.title} COLLATE NOCASE`,
    slug: sql`${media.slug}`,
  };
  const { db } = c.get("rdb");
  const r = await runBatch(db, {
    total: db.select({ total: count() }).from(media).where(where),
    rows: db
      .select()
      .from(media)
      .where(where)
      .orderBy(direction(by[a.orderby]), direction(media.id))
      .limit(perPage)
      .offset(offset),
  });
  const total = r.total[0].total;
  setWpPaging(c, `${c.get("urls").wpRoot}media`, MEDIA_LIST_ARGS, parsed, {
    page,
    total,
    pages: totalPages(total, perPage),
  });
  return c.json(r.rows.map(serializeMedia));
}
