/**
 * The read-only `wp/v2` term routes (contract §3; WordPress `WP_REST_Terms_Controller`):
 * `GET /wp/v2/tribe_events_cat`, `/wp/v2/tribe_events_cat/{id}`, `/wp/v2/tags`, `/wp/v2/tags/{id}`
 * — what the terms' `_links` name (src/terms/serialize.ts `termLinks`) and what `_embed` fetches.
 * WordPress's term object (`view`: `id, count, description, link, name, slug, taxonomy, parent`
 * (categories), `meta`; `embed`: `id, link, name, slug, taxonomy`), each with its `_links`, and
 * WordPress's collection arguments and paging. One D1 round trip per answer.
 */
import { and, asc, count, desc, eq, gt, inArray, not, type SQL, sql } from "drizzle-orm";
import { canReadPost } from "../access/capabilities";
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { events, eventTerms, terms } from "../db/schema";
import { inList } from "../db/sql";
import { type ArgValues, arg, parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { ApiError } from "../http/errors";
import { pageArgs, pageOf, searchArg } from "../http/list-args";
import { totalPages } from "../http/pagination";
import { anyone, type Permit, type RouteDef } from "../http/registry";
import type { RenderContext } from "../http/render";
import { idFormat, wpBoolean, wpInteger, wpString } from "../http/validators";
import {
  contextArg,
  idList,
  offsetArg,
  oneOf,
  orderArg,
  type ReadContext,
  setWpPaging,
  stringList,
  WP_PAGE,
  withLinks,
} from "../http/wp-collection";
import { ancestorsQuery } from "./query";
import { type Ancestry, ancestryOf, type TermRow, termLinks, termPageUrl } from "./serialize";
import { loadTerm } from "./single";
import { CATEGORIES, TAGS, type TaxonomyInfo } from "./taxonomies";

/** WordPress's `orderby` of terms. */
const ORDERBY = [
  "id",
  "include",
  "name",
  "slug",
  "include_slugs",
  "term_group",
  "description",
  "count",
] as const;

/** `GET /wp/v2/{taxonomy}`: WordPress's collection arguments, in its order. */
export function wpTermListArgs(info: TaxonomyInfo) {
  const ids = (description: string) =>
    arg({ schema: idList, type: "array", items: { type: "integer" }, description });
  return {
    ...contextArg("wp"),
    ...pageArgs("wp", WP_PAGE),
    ...searchArg("wp", wpString),
    exclude: ids("wp.exclude"),
    include: ids("wp.include"),
    ...(info.hierarchical ? {} : offsetArg("wp")),
    ...orderArg("asc"),
    orderby: arg({
      schema: oneOf(ORDERBY),
      default: "name",
      type: "string",
      description: "wp.term_orderby",
    }),
    hide_empty: arg({
      schema: wpBoolean,
      default: false,
      type: "boolean",
      description: "wp.hide_empty",
    }),
    ...(info.hierarchical
      ? { parent: arg({ schema: wpInteger, type: "integer", description: "wp.parent" }) }
      : {}),
    post: arg({ schema: wpInteger, type: "integer", description: "wp.post" }),
    slug: arg({
      schema: stringList,
      type: "array",
      items: { type: "string" },
      description: "wp.term_slug",
    }),
  };
}

/** The parsed list arguments (the union of both taxonomies'). */
type ListValues = ArgValues<ReturnType<typeof wpTermListArgs>> & {
  offset?: number;
  parent?: number;
};

/** `GET /wp/v2/{taxonomy}/{id}`. */
export const WP_TERM_ARGS = {
  id: arg({ schema: idFormat, type: "integer", in: "path", description: "wp.term_identifier" }),
  ...contextArg("wp"),
};

/**
 * WordPress's term object in a context, with its `_links`.
 * @example wpTerm(ctx, CATEGORIES, jazz, ancestry, "embed") // { id, link, name, slug, taxonomy, _links }
 */
export function wpTerm(
  ctx: RenderContext,
  info: TaxonomyInfo,
  term: TermRow,
  ancestry: Ancestry,
  context: ReadContext,
) {
  const link = termPageUrl(ctx, term, ancestry);
  const links = termLinks(ctx, info, term);
  const { id, name, slug, taxonomy } = term;
  if (context === "embed") return withLinks({ id, link, name, slug, taxonomy }, links);
  return withLinks(
    {
      id,
      count: term.count,
      description: term.description,
      link,
      name,
      slug,
      taxonomy,
      ...(info.hierarchical ? { parent: term.parent } : {}),
      meta: [],
    },
    links,
  );
}

/** The WHERE clause of a term collection, from its arguments (`get_terms`). */
function whereClause(db: Db, info: TaxonomyInfo, a: ListValues): SQL {
  const conds: Array<SQL | undefined> = [eq(terms.taxonomy, info.taxonomy)];
  if (a.hide_empty) conds.push(gt(terms.count, 0));
  const search = a.search?.trim().toLowerCase();
  if (search)
    conds.push(
      sql`(instr(lower(${terms.name}), ${search}) > 0 OR instr(lower(${terms.slug}), ${search}) > 0)`,
    );
  if (a.include?.length) conds.push(inList(terms.id, a.include));
  if (a.exclude?.length) conds.push(not(inList(terms.id, a.exclude)));
  if (a.parent !== undefined) conds.push(eq(terms.parent, a.parent));
  if (a.slug?.length) conds.push(inList(terms.slug, a.slug));
  if (a.post !== undefined)
    conds.push(
      inArray(
        terms.id,
        db.select({ id: eventTerms.termId }).from(eventTerms).where(eq(eventTerms.eventId, a.post)),
      ),
    );
  return and(...conds)!;
}

/** ORDER BY of `orderby`/`order`, ties by id. */
function orderClause(a: ListValues): SQL[] {
  const direction = a.order === "desc" ? desc : asc;
  const position = (list: Array<string | number> | undefined, column: SQL | typeof terms.id) =>
    list?.length
      ? sql`(SELECT min(j.key) FROM json_each(${JSON.stringify(list)}) j WHERE j.value = ${column})`
      : sql`${terms.id}`;
  const by: Record<(typeof ORDERBY)[number], SQL> = {
    id: sql`${terms.id}`,
    include: position(a.include, terms.id),
    name: sql`${terms.name} COLLATE NOCASE`,
    slug: sql`${terms.slug}`,
    include_slugs: position(a.slug, sql`${terms.slug}`),
    term_group: sql`${terms.termGroup}`,
    description: sql`${terms.description}`,
    count: sql`${terms.count}`,
  };
  return [direction(by[a.orderby as (typeof ORDERBY)[number]]), direction(terms.id)];
}

/**
 * `GET /wp/v2/tribe_events_cat`, `/wp/v2/tags`: the terms as WordPress lists them (by name, 10 a
 * page). `post` lists an event's terms as `wp/v2/tribe_events` shows them: none for a
 * password-protected event (§4.7; the list takes no password).
 * @throws ApiError 400 `rest_invalid_param`; 400 `rest_post_invalid_id` for a `post` that is no
 *   event; 401/403 `rest_forbidden_context` for one the viewer may not read.
 */
export async function listWpTerms(c: AppContext, info: TaxonomyInfo): Promise<Response> {
  const args = wpTermListArgs(info);
  const parsed = parseArgs(args, await requestParams(c), argContext(c));
  const a = parsed.values as ListValues;
  const user = c.get("user");
  if (a.post === 0) a.post = undefined; // WordPress: `empty( $prepared_args['post'] )`.
  const { perPage } = pageOf(a);
  const offset = a.offset ?? (a.page - 1) * perPage;
  const { db } = c.get("rdb");
  const where = whereClause(db, info, a);
  const order = orderClause(a);
  const pageIds = db
    .select({ id: terms.id })
    .from(terms)
    .where(where)
    .orderBy(...order)
    .limit(perPage)
    .offset(offset);
  const r = await runBatch(db, {
    post:
      a.post === undefined
        ? undefined
        : db
            .select({
              status: events.status,
              author: events.author,
              trashMetaStatus: events.trashMetaStatus,
              passwordDigest: events.passwordDigest,
            })
            .from(events)
            .where(eq(events.id, a.post)),
    total: db.select({ total: count() }).from(terms).where(where),
    rows: db
      .select()
      .from(terms)
      .where(where)
      .orderBy(...order)
      .limit(perPage)
      .offset(offset),
    ancestors: info.hierarchical
      ? ancestorsQuery(
          db,
          sql`(SELECT ${terms.parent} FROM ${terms} WHERE ${terms.id} IN (${pageIds}))`,
        )
      : undefined,
  });
  let { rows } = r;
  let total = r.total[0].total;
  if (r.post) {
    const post = r.post[0];
    if (!post) throw new ApiError(400, "rest_post_invalid_id");
    if (!canReadPost(user, post)) throw new ApiError(user ? 403 : 401, "rest_forbidden_context");
    // A protected event shows no terms without its password (§4.7), as `wp/v2/tribe_events` does.
    if (post.passwordDigest !== "") {
      rows = [];
      total = 0;
    }
  }
  const ctx: RenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user,
    single: false,
  };
  const ancestry = ancestryOf(r.ancestors);
  const page = Math.ceil(offset / perPage + 1);
  setWpPaging(c, `${ctx.urls.wpRoot}${info.wpBase}`, args, parsed, {
    page,
    total,
    pages: totalPages(total, perPage),
  });
  return c.json(rows.map((term) => wpTerm(ctx, info, term, ancestry, a.context)));
}

/**
 * `GET /wp/v2/tribe_events_cat/{id}`, `/wp/v2/tags/{id}`.
 * @throws ApiError 404 `rest_term_invalid` for an id that is not a term of the taxonomy.
 */
export async function getWpTerm(c: AppContext, info: TaxonomyInfo): Promise<Response> {
  const { values } = parseArgs(WP_TERM_ARGS, await requestParams(c), argContext(c));
  if (!Number.isSafeInteger(values.id)) throw new ApiError(404, "rest_term_invalid");
  const { term, ancestry } = await loadTerm(c.get("rdb").db, info, values.id);
  if (!term) throw new ApiError(404, "rest_term_invalid");
  const ctx: RenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user: c.get("user"),
    single: true,
  };
  return c.json(wpTerm(ctx, info, term, ancestry, values.context));
}

/** The routes of one taxonomy under `wp/v2` (read-only). */
function routesOf(info: TaxonomyInfo): Array<RouteDef<Permit>> {
  const base = `/${info.wpBase}`;
  return [
    {
      path: base,
      endpoints: [
        {
          methods: ["GET"],
          args: wpTermListArgs(info),
          may: anyone,
          handler: (c) => listWpTerms(c, info),
        },
      ],
    },
    {
      path: `${base}/{id}`,
      endpoints: [
        { methods: ["GET"], args: WP_TERM_ARGS, may: anyone, handler: (c) => getWpTerm(c, info) },
      ],
    },
  ];
}

/** `wp/v2/tags` and `wp/v2/tribe_events_cat`, in WordPress's order (core's `post_tag` first). */
export function wpTermRoutes(): Array<RouteDef<Permit>> {
  return [...routesOf(TAGS), ...routesOf(CATEGORIES)];
}
