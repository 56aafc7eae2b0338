/**
 * `GET /wp/v2/tribe_events` and `GET /wp/v2/tribe_events/{id}` (contract §3; WordPress
 * `WP_REST_Posts_Controller::get_items`, `get_item`): the events as WordPress's own route for the
 * post type lists them — what the terms' `wp:post_type` links name
 * (`wp/v2/tribe_events?tribe_events_cat=3`). Read-only. Visibility as in every route here (§9.2):
 * published events for everyone, others only by `status` for those who may edit events, and then
 * only those the viewer may read; filters reveal nothing the answer hides (contract §4). One D1
 * round trip per answer. The post's shape: src/events/wp-post.ts.
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  lt,
  not,
  notInArray,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { type AuthUser, can, canReadPost } from "../access/capabilities";
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { readablePosts } from "../db/post-access";
import { events, eventTerms, terms } from "../db/schema";
import { inList, searchablePasswords } from "../db/sql";
import { type ArgValues, parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError, InvalidParamsError } from "../http/errors";
import { pageOf } from "../http/list-args";
import { totalPages } from "../http/pagination";
import { passwordMatches } from "../http/password-protection";
import { anyone, type Permit, type RouteDef } from "../http/registry";
import type { RenderContext } from "../http/render";
import { setWpPaging } from "../http/wp-collection";
import { CATEGORIES, TAGS } from "../terms/taxonomies";
import { WP_FORMAT } from "../time/format";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { filterRule } from "./filter-visibility";
import { searchTerms, wordsMatch } from "./filters";
import {
  LIST_ARGS,
  type ORDERBY,
  POST_TYPE,
  type PostRow,
  SINGLE_ARGS,
  STATUSES,
  wpPost,
} from "./wp-post";

type ListValues = ArgValues<typeof LIST_ARGS> & Record<string, number[] | undefined>;

const COLUMNS = {
  id: events.id,
  author: events.author,
  status: events.status,
  trashMetaStatus: events.trashMetaStatus,
  slug: events.slug,
  title: events.title,
  content: events.content,
  excerpt: events.excerpt,
  passwordDigest: events.passwordDigest,
  postDate: events.postDate,
  postDateGmt: events.postDateGmt,
  postModified: events.postModified,
  postModifiedGmt: events.postModifiedGmt,
  imageId: events.imageId,
  occurrenceStart: events.occurrenceStart,
};

/** The category and tag ids of some events (a subquery or list of ids), ordered by name. */
function termsOf(db: Db, ids: SQLWrapper) {
  return db
    .select({ eventId: eventTerms.eventId, termId: terms.id, taxonomy: terms.taxonomy })
    .from(eventTerms)
    .innerJoin(terms, eq(terms.id, eventTerms.termId))
    .where(inArray(eventTerms.eventId, ids))
    .orderBy(sql`${terms.name} COLLATE NOCASE`, terms.id);
}

/** Term ids by event, then by `wp/v2` rest base. */
function termIdsByEvent(rows: Array<{ eventId: number; termId: number; taxonomy: string }>) {
  const out = new Map<number, Record<string, number[]>>();
  for (const r of rows) {
    const base = r.taxonomy === CATEGORIES.taxonomy ? CATEGORIES.wpBase : TAGS.wpBase;
    const of = out.get(r.eventId) ?? {};
    of[base] = [...(of[base] ?? []), r.termId];
    out.set(r.eventId, of);
  }
  return out;
}

/**
 * Whether the viewer sees a protected event's content: only with its password (§4.7; this route's
 * `view` context is WordPress's, where a protected post's content needs its password whoever asks,
 * and `context=edit` is not served here).
 */
const opens = (row: PostRow, passwordOk: boolean) => row.passwordDigest === "" || passwordOk;

/**
 * The statuses asked for (`any`: all but `trash`); anything but `publish` needs `edit_posts`.
 * @throws InvalidParamsError `status` for an unknown one; ApiError 401/403 `rest_forbidden_status`.
 */
function statusesOf(asked: string[], user: AuthUser | null): string[] {
  if (asked.some((s) => !(STATUSES as readonly string[]).includes(s)))
    throw new InvalidParamsError([
      { name: "status", key: "not_in_enum", args: [STATUSES.join(", ")] },
    ]);
  const statuses = asked.includes("any")
    ? STATUSES.filter((s) => s !== "any" && s !== "trash")
    : asked;
  if (statuses.some((s) => s !== "publish") && !can(user, "edit_posts"))
    throw new ApiError(user ? 403 : 401, "rest_forbidden_status");
  return statuses.length ? [...statuses] : ["publish"];
}

/** A date argument as UTC `Y-m-d H:i:s` (without an offset: site time). */
function utc(c: AppContext, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const zone = resolveZone(c.get("settings").siteTimezone) ?? resolveZone("UTC")!;
  return parseTime(value, zone, requestNow(c))?.toUTC().toFormat(WP_FORMAT);
}

/** Events with any of the terms (the caller adds the rule of what the viewer sees of them). */
function withTerms(db: Db, ids: number[]) {
  return db
    .select({ id: eventTerms.eventId })
    .from(eventTerms)
    .where(inList(eventTerms.termId, ids));
}

/** The WHERE clause of the collection. */
function whereClause(c: AppContext, db: Db, a: ListValues, statuses: string[]): SQL {
  const user = c.get("user");
  const conds: Array<SQL | undefined> = [
    // One status (the default): equality, so that `events_status_date` gives the page in order.
    statuses.length === 1 ? eq(events.status, statuses[0]) : inList(events.status, statuses),
    readablePosts(events, user),
  ];
  if (a.include?.length) conds.push(inList(events.id, a.include));
  if (a.exclude?.length) conds.push(not(inList(events.id, a.exclude)));
  if (a.author?.length) conds.push(inList(events.author, a.author));
  if (a.slug?.length) conds.push(inList(events.slug, a.slug));
  const after = utc(c, a.after);
  const before = utc(c, a.before);
  if (after) conds.push(gt(events.postDateGmt, after));
  if (before) conds.push(lt(events.postDateGmt, before));
  if (a.search?.trim()) {
    // As the tribe archive searches (§6.3): every word, through the trigram index; `-word` excludes.
    const viewer = user && { id: user.id, editor: can(user, "edit_others_posts") };
    conds.push(searchablePasswords(events, viewer, ""));
    const { include, exclude } = searchTerms(a.search);
    const included = wordsMatch(include, true, events.id);
    conds.push(included.fts, included.like);
    const excluded = wordsMatch(exclude, false, events.id);
    if (excluded.fts || excluded.like) conds.push(sql`NOT (${or(excluded.fts, excluded.like)})`);
  }
  // A protected event the viewer may not open shows no terms: no term filter matches it.
  const rule = filterRule(db, { user, password: "", editContext: false });
  for (const [info, name] of [
    [CATEGORIES, "categories"],
    [TAGS, "tags"],
  ] as const) {
    const only = a[info.wpBase];
    const except = a[`${info.wpBase}_exclude`];
    if (only?.length) conds.push(inArray(events.id, withTerms(db, only)));
    if (except?.length) conds.push(notInArray(events.id, withTerms(db, except)));
    if (only?.length || except?.length) conds.push(rule.scope(name).event(events.id));
  }
  return and(...conds)!;
}

/** ORDER BY of `orderby`/`order` (WordPress `WP_Query`), ties by id. */
function orderClause(a: ListValues): SQL[] {
  const direction = a.order === "asc" ? asc : desc;
  const position = (list: Array<string | number> | undefined, column: SQLWrapper) =>
    list?.length
      ? sql`(SELECT min(j.key) FROM json_each(${JSON.stringify(list)}) j WHERE j.value = ${column})`
      : sql`${events.id}`;
  const by: Record<(typeof ORDERBY)[number], SQL> = {
    author: sql`${events.author}`,
    date: sql`${events.postDate}`,
    id: sql`${events.id}`,
    include: position(a.include, events.id),
    modified: sql`${events.postModified}`,
    slug: sql`${events.slug}`,
    include_slugs: position(a.slug, events.slug),
    title: sql`${events.title} COLLATE NOCASE`,
  };
  // WordPress orders `post__in` and `post_name__in` by the list alone (`FIELD()`), whatever `order`.
  const listed = a.orderby === "include" || a.orderby === "include_slugs";
  return [(listed ? asc : direction)(by[a.orderby]), direction(events.id)];
}

const renderContext = (c: AppContext, single: boolean): RenderContext => ({
  urls: c.get("urls"),
  settings: c.get("settings"),
  user: c.get("user"),
  single,
});

/**
 * `GET /wp/v2/tribe_events`: 10 a page, newest post date first.
 * @throws InvalidParamsError (bad arguments, an unknown `status`); ApiError 401/403
 *   `rest_forbidden_status` (a status but `publish` without `edit_posts`), 400
 *   `rest_post_invalid_page_number` (a page past the last).
 */
export async function listWpPosts(c: AppContext): Promise<Response> {
  const parsed = parseArgs(LIST_ARGS, await requestParams(c), argContext(c));
  const a = parsed.values as ListValues;
  const user = c.get("user");
  const statuses = statusesOf(a.status, user);
  const { perPage } = pageOf(a);
  const offset = a.offset ?? (a.page - 1) * perPage;
  const { db } = c.get("rdb");
  const where = whereClause(c, db, a, statuses);
  const order = orderClause(a);
  const rows = db
    .select(COLUMNS)
    .from(events)
    .where(where)
    .orderBy(...order)
    .limit(perPage)
    .offset(offset);
  const ids = db
    .select({ id: events.id })
    .from(events)
    .where(where)
    .orderBy(...order)
    .limit(perPage)
    .offset(offset);
  const r = await runBatch(db, {
    total: db.select({ total: count() }).from(events).where(where),
    rows,
    terms: termsOf(db, ids),
  });
  const total = r.total[0].total;
  const pages = totalPages(total, perPage);
  const current = Math.ceil(offset / perPage + 1);
  if (current > pages && total > 0) throw new ApiError(400, "rest_post_invalid_page_number");
  setWpPaging(c, `${c.get("urls").wpRoot}${POST_TYPE}`, LIST_ARGS, parsed, {
    page: current,
    total,
    pages,
  });
  const ctx = renderContext(c, false);
  const byEvent = termIdsByEvent(r.terms);
  return c.json(
    r.rows.map((row) => wpPost(ctx, row, byEvent.get(row.id) ?? {}, opens(row, false), a.context)),
  );
}

/**
 * `GET /wp/v2/tribe_events/{id}` (with `password` for a protected one).
 * @throws ApiError 404 `rest_post_invalid_id` (no such event), 401/403 `rest_forbidden` (one the
 *   viewer may not read), 403 `rest_post_incorrect_password` (a wrong `password`).
 */
export async function getWpPost(c: AppContext): Promise<Response> {
  const { values } = parseArgs(SINGLE_ARGS, await requestParams(c), argContext(c));
  const user = c.get("user");
  if (!Number.isSafeInteger(values.id)) throw new ApiError(404, "rest_post_invalid_id");
  const { db } = c.get("rdb");
  const r = await runBatch(db, {
    rows: db.select(COLUMNS).from(events).where(eq(events.id, values.id)),
    terms: termsOf(db, sql`(${values.id})`),
  });
  const row = r.rows[0];
  if (!row) throw new ApiError(404, "rest_post_invalid_id");
  if (!canReadPost(user, row)) throw new ApiError(user ? 403 : 401, "rest_forbidden");
  const sent = values.password !== undefined && values.password !== "";
  const passwordOk = sent && (await passwordMatches(row.passwordDigest, values.password));
  if (sent && row.passwordDigest !== "" && !passwordOk)
    throw new ApiError(403, "rest_post_incorrect_password");
  const byEvent = termIdsByEvent(r.terms);
  return c.json(
    wpPost(
      renderContext(c, true),
      row,
      byEvent.get(row.id) ?? {},
      opens(row, passwordOk),
      values.context,
    ),
  );
}

/** `wp/v2/tribe_events` and `wp/v2/tribe_events/{id}` (read-only). */
export function wpEventRoutes(): Array<RouteDef<Permit>> {
  return [
    {
      path: `/${POST_TYPE}`,
      endpoints: [{ methods: ["GET"], args: LIST_ARGS, may: anyone, handler: listWpPosts }],
    },
    {
      path: `/${POST_TYPE}/{id}`,
      endpoints: [{ methods: ["GET"], args: SINGLE_ARGS, may: anyone, handler: getWpPost }],
    },
  ];
}
