/**
 * `GET /categories`, `GET /tags` (tec-reference §2.8, §5, §7.2; contract §4 rows 1, 7, 8, 19, 22; contract §7
 * `modified_after`):
 * one D1 batch holds the reference checks (`include`, `exclude`, `parent`, `post`/`event`), the
 * total, the page and the category chains above the page (for nested public links).
 */
import { and, asc, count, desc, eq, gt, inArray, not, type SQL, sql } from "drizzle-orm";
import { type AuthUser, canReadPost } from "../access/capabilities";
import { type BatchResults, runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { events, eventTerms, terms } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError, InvalidParamsError } from "../http/errors";
import { echoed, modifiedAfterUtc, pageOf, syncCursorValue } from "../http/list-args";
import { pageLinks, setPagingHeaders, termArchiveBody, totalPages } from "../http/pagination";
import type { RenderContext } from "../http/render";
import { carrySyncCursor, changedAfter, setSyncCursor } from "../sync/cursor";
import { sanitizeTitle } from "../text/html";
import { type ArchiveValues, archiveArgs } from "./args";
import { serializeTerm } from "./contract";
import { ancestorsQuery, missingRefs, refPosition, refsCondition } from "./query";
import { ancestryOf } from "./serialize";
import type { TaxonomyInfo } from "./taxonomies";

/**
 * The WHERE clause of the archive (§7.2), from validated arguments.
 * @param modifiedAfter UTC `Y-m-d H:i:s`: only terms whose `modified_gmt` is later (contract §7).
 */
function whereClause(
  db: Db,
  info: TaxonomyInfo,
  a: ArchiveValues,
  eventId: number | undefined,
  modifiedAfter: string | undefined,
): SQL {
  const conds: Array<SQL | undefined> = [eq(terms.taxonomy, info.taxonomy)];
  if (a.hide_empty !== false) conds.push(gt(terms.count, 0));
  if (a.search) {
    // instr, not LIKE: nothing to escape, and no pattern length limit (D1 refuses LIKE patterns
    // over 50 bytes). Case-insensitive like WordPress's LIKE on a case-insensitive collation.
    const needle = a.search.toLowerCase();
    conds.push(
      sql`(instr(lower(${terms.name}), ${needle}) > 0 OR instr(lower(${terms.slug}), ${needle}) > 0)`,
    );
  }
  if (a.include) conds.push(refsCondition(a.include));
  if (a.exclude) conds.push(not(refsCondition(a.exclude)));
  if (a.parent !== undefined) conds.push(eq(terms.parent, a.parent));
  if (eventId !== undefined) {
    conds.push(
      inArray(
        terms.id,
        db
          .select({ id: eventTerms.termId })
          .from(eventTerms)
          .where(eq(eventTerms.eventId, eventId)),
      ),
    );
  }
  if (a.slug) conds.push(eq(terms.slug, sanitizeTitle(a.slug)));
  if (modifiedAfter !== undefined) conds.push(gt(terms.modifiedGmt, modifiedAfter));
  const cursor = syncCursorValue(a);
  if (cursor !== undefined) {
    const type = info.taxonomy === "tribe_events_cat" ? "category" : "tag";
    conds.push(inArray(terms.id, changedAfter(db, type, cursor)));
  }
  return and(...conds)!;
}

/**
 * ORDER BY for `orderby`/`order` (§7.2): `name` by default and for unknown values; `include` = the
 * order of the `include` list; ties broken by id so pages never overlap.
 */
function orderClause(a: ArchiveValues): SQL[] {
  const direction = a.order === undefined || a.order.toLowerCase() === "asc" ? asc : desc;
  const byName = sql`${terms.name} COLLATE NOCASE`;
  const columns: Record<string, SQL | typeof terms.id> = {
    name: byName,
    slug: sql`${terms.slug}`,
    id: terms.id,
    term_id: terms.id,
    term_taxonomy_id: terms.id,
    count: sql`${terms.count}`,
    parent: sql`${terms.parent}`,
    term_group: sql`${terms.termGroup}`,
    description: sql`${terms.description}`,
    taxonomy: sql`${terms.taxonomy}`,
    // No manual term order or "no order" here: creation order is the stable equivalent.
    term_order: terms.id,
    none: terms.id,
  };
  const key = a.orderby ?? "name";
  const primary =
    key === "include" && a.include
      ? refPosition(a.include)
      : Object.hasOwn(columns, key)
        ? columns[key]
        : byName;
  return [direction(primary), asc(terms.id)];
}

/** Where a page of the archive starts and how long it is, and the event whose terms are listed. */
interface PageSpec {
  perPage: number;
  offset: number;
  eventId: number | undefined;
}

/**
 * The queries of the archive's one batch: the references to check (`include`, `exclude`, `parent`,
 * the event), the total, the page and, for categories, the chains above the page's terms.
 */
function archiveQueries(db: Db, info: TaxonomyInfo, a: ArchiveValues, where: SQL, p: PageSpec) {
  const order = orderClause(a);
  const pageIds = db
    .select({ id: terms.id })
    .from(terms)
    .where(where)
    .orderBy(...order)
    .limit(p.perPage)
    .offset(p.offset);
  const refsQuery = (refs: string[] | undefined) =>
    refs &&
    db
      .select({ id: terms.id, slug: terms.slug, name: terms.name })
      .from(terms)
      .where(and(eq(terms.taxonomy, info.taxonomy), refsCondition(refs)));
  const { eventId } = p;
  return {
    include: refsQuery(a.include),
    exclude: refsQuery(a.exclude),
    parent: a.parent
      ? db
          .select({ id: terms.id })
          .from(terms)
          .where(and(eq(terms.id, a.parent), eq(terms.taxonomy, info.taxonomy)))
      : undefined,
    event:
      eventId === undefined
        ? undefined
        : db
            .select({ id: events.id, status: events.status, author: events.author })
            .from(events)
            .where(eq(events.id, eventId)),
    total: db.select({ total: count() }).from(terms).where(where),
    rows: db
      .select()
      .from(terms)
      .where(where)
      .orderBy(...order)
      .limit(p.perPage)
      .offset(p.offset),
    ancestors: info.hierarchical
      ? ancestorsQuery(
          db,
          sql`(SELECT ${terms.parent} FROM ${terms} WHERE ${terms.id} IN (${pageIds}))`,
        )
      : undefined,
  };
}

/**
 * The validators of §1.3 step 5 (§3 is_event_category / is_post_tag / is_event_id) on what the batch
 * found, then the event's own visibility: WordPress shows an event's terms only to those who may
 * read the event.
 * @param eventArg the argument that named the event (`event` or `post`), if any.
 * @throws InvalidParamsError 400 `rest_invalid_param` naming each reference not found.
 * @throws ApiError 401/403 `rest_forbidden_context` for the terms of an event the client may not read.
 */
function assertRefs(
  a: ArchiveValues,
  r: BatchResults<ReturnType<typeof archiveQueries>>,
  eventArg: "event" | "post" | undefined,
  user: AuthUser | null,
): void {
  const invalid: string[] = [];
  for (const name of ["include", "exclude"] as const) {
    const refs = a[name];
    const found = r[name];
    if (refs && found && missingRefs(refs, found).length) invalid.push(name);
  }
  if (r.parent?.length === 0) invalid.push("parent");
  if (eventArg && r.event?.length === 0) invalid.push(eventArg);
  if (invalid.length) throw new InvalidParamsError(invalid.map((name) => ({ name })));
  if (eventArg && r.event && !canReadPost(user, r.event[0]))
    throw new ApiError(user ? 403 : 401, "rest_forbidden_context");
}

/**
 * Handles `GET /categories` and `GET /tags`.
 * @throws ApiError 400 `rest_invalid_param` (bad or unknown `include`, `exclude`, `parent`, `post`/`event`, …),
 *   401/403 `rest_forbidden_context` (the terms of an event the client may not read).
 * @example r.get("/categories", (c) => listTerms(c, CATEGORIES)) // GET /categories?parent=0&orderby=count&order=desc
 */
export async function listTerms(c: AppContext, info: TaxonomyInfo): Promise<Response> {
  const settings = c.get("settings");
  const user = c.get("user");
  const params = await requestParams(c);
  const { values, sent } = parseArgs(archiveArgs(info), params, argContext(c));
  const a: ArchiveValues = values;
  const { page, perPage, offset } = pageOf(a, settings.perPageMax);
  // `event` is an alias of `post`; given both, `event` wins (§7.2).
  const eventArg = a.event !== undefined ? "event" : a.post !== undefined ? "post" : undefined;
  const eventId = a.event ?? a.post;

  const modifiedAfter = modifiedAfterUtc(a, settings.siteTimezone, requestNow(c));

  const { db } = c.get("rdb");
  const where = whereClause(db, info, a, eventId, modifiedAfter);
  carrySyncCursor(c);
  const r = await runBatch(db, archiveQueries(db, info, a, where, { perPage, offset, eventId }));
  assertRefs(a, r, eventArg, user);

  const total = r.total[0].total;
  const pages = totalPages(total, perPage);
  const ctx: RenderContext = { urls: c.get("urls"), settings, user, single: false };
  const ancestry = ancestryOf(r.ancestors);
  const list = r.rows.map((term) => serializeTerm(ctx, term, ancestry));

  const echo = echoed(
    perPage,
    [
      ["search", a.search],
      ["exclude", a.exclude],
      ["include", a.include],
      ["order", a.order],
      ["orderby", a.orderby],
      ["hide_empty", sent.has("hide_empty") ? a.hide_empty : undefined],
      ["parent", a.parent],
      [eventArg ?? "event", eventId],
      ["slug", a.slug],
    ],
    a,
  );
  const base = `${ctx.urls.namespaceRoot}${info.base}/`;
  // Term archives never 404: past the end they answer an empty page that still links back (§5.3, §5.4).
  const links = pageLinks(base, page, pages, echo, true);
  setPagingHeaders(c, total, pages, links);
  setSyncCursor(c);
  return c.json(termArchiveBody(info.base, list, links, total, pages));
}
