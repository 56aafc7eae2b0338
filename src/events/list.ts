/**
 * `GET /events` (tec-reference §2.1, §5, §6; contract §4 rows 1, 3, 6, 8). One D1 batch: reference
 * checks, the total, the page, and the page's venues, organizers, terms and images.
 */
import { asc, count, sql } from "drizzle-orm";
import { events } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { ApiError, InvalidParamsError, missingParams } from "../http/errors";
import { clampPerPage, pageLinks, setPagingHeaders, totalPages } from "../http/pagination";
import { sha256Hex, timingSafeEqual } from "../http/crypto";
import { blankProtected } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import { canEditPost, can } from "../users/capabilities";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { ANY_STATUSES, ARCHIVE_ARGS } from "./args";
import { isStrict, resolveDateFilters } from "./dates";
import { type EventFilters, existenceQueries, missingRefs, whereClause } from "./filters";
import { type RelatedRows, assemble, relatedQueries } from "./load";
import { type EventRow, serializeEvent } from "./serialize";

/** Handles `GET /events`. */
export async function listEvents(c: AppContext): Promise<Response> {
  const settings = c.get("settings");
  const user = c.get("user");
  const now = c.get("now");
  const params = await requestParams(c);
  const { values: a, sent } = parseArgs(ARCHIVE_ARGS, params, argContext(c));

  // §3 filter_post_status_list: without edit rights only `publish` may be asked for.
  if (a.status && !can(user, "edit_posts") && !(a.status.length === 1 && a.status[0] === "publish")) {
    throw new InvalidParamsError([{ name: "status" }]);
  }
  if ((a.geoloc_lat === undefined) !== (a.geoloc_lng === undefined)) {
    throw missingParams([a.geoloc_lat === undefined ? "geoloc_lat" : "geoloc_lng"]);
  }

  const page = a.page ?? 1;
  const perPage = clampPerPage(a.per_page ?? settings.perPageDefault, settings.perPageMax);
  const defaultStatuses = can(user, "edit_posts") ? ANY_STATUSES : ["publish"];
  const ignoresDates = a.include !== undefined || a.uid !== undefined;
  const dates = resolveDateFilters(a, {
    strict: isStrict(a.strict_dates),
    inQuery: (name) => Object.hasOwn(params.query, name),
    include: ignoresDates,
    siteTimezone: settings.siteTimezone,
    now,
  });
  const modifiedAfter = a.modified_after ? parseTime(a.modified_after, resolveZone(settings.siteTimezone)!, now) : null;
  const filters: EventFilters = {
    statuses: a.status ?? defaultStatuses,
    dates,
    search: a.search,
    categories: a.categories,
    tags: a.tags,
    venue: a.venue,
    organizer: a.organizer,
    featured: a.featured,
    geoloc: a.geoloc,
    near: a.geoloc_lat !== undefined && a.geoloc_lng !== undefined ? { lat: a.geoloc_lat, lng: a.geoloc_lng, radiusKm: a.geoloc_radius ?? 25 } : undefined,
    include: a.include,
    postParent: a.post_parent,
    ticketed: a.ticketed,
    modifiedAfter: modifiedAfter ? modifiedAfter.toUTC().toFormat("yyyy-MM-dd HH:mm:ss") : undefined,
    uid: a.uid,
  };

  const { db } = c.get("rdb");
  const where = whereClause(db, filters, user);
  const order = ignoresDates
    ? [asc(events.postDate), asc(events.id)]
    : [asc(events.startDate), asc(events.postDate), asc(events.id)];
  const pageQuery = db.select({ id: events.id }).from(events).where(where).orderBy(...order).limit(perPage).offset((page - 1) * perPage);
  const pageIds = sql`(${pageQuery})`;
  const checks = existenceQueries(db, filters);
  const related = relatedQueries(db, pageIds);
  const queries = [
    ...Object.values(checks),
    db.select({ total: count() }).from(events).where(where),
    db.select().from(events).where(where).orderBy(...order).limit(perPage).offset((page - 1) * perPage),
    related.venues,
    related.organizers,
    related.terms,
    related.media,
  ];
  const results = (await db.batch(queries as never)) as unknown[];
  const checkNames = Object.keys(checks);
  const found = Object.fromEntries(checkNames.map((name, i) => [name, results[i]])) as Record<string, Array<{ id: number }>>;
  const bad = missingRefs(filters, found);
  if (bad.length) throw new InvalidParamsError(bad.map((name) => ({ name })));
  const [[{ total }], rows, venues, organizers, terms, media] = results.slice(checkNames.length) as [
    Array<{ total: number }>,
    EventRow[],
    ...unknown[],
  ] as unknown as [Array<{ total: number }>, EventRow[], RelatedRows["venues"], RelatedRows["organizers"], RelatedRows["terms"], RelatedRows["media"]];

  const pages = totalPages(total, perPage);
  if (page > 1 && rows.length === 0) throw new ApiError(404, "event-archive-page-not-found");

  const ctx: RenderContext = { urls: c.get("urls"), settings, user, single: false };
  const records = assemble(rows, { venues, organizers, terms, media });
  const passwordDigest = typeof a.password === "string" && a.password !== "" ? await sha256Hex(a.password) : "";
  const editContext = params.query.context === "edit";
  const list = records.map((record) => {
    const body = serializeEvent(ctx, record);
    const { row } = record;
    if (row.passwordDigest === "") return body;
    const granted =
      (passwordDigest !== "" && timingSafeEqual(passwordDigest, row.passwordDigest)) || (editContext && canEditPost(user, row));
    return granted ? body : blankProtected(body);
  });

  const echo: Array<[string, unknown]> = [
    ["per_page", perPage],
    ["start_date", dates.start_date],
    ["end_date", dates.end_date],
    ["search", a.search],
    ["categories", a.categories],
    ["tags", a.tags],
    ["venue", a.venue],
    ["organizer", a.organizer],
    ["featured", a.featured],
    ["geoloc", a.geoloc],
    ["geoloc_lat", a.geoloc_lat],
    ["geoloc_lng", a.geoloc_lng],
    ["geoloc_radius", filters.near ? filters.near.radiusKm : undefined],
    ["status", filters.statuses],
    ["post_parent", a.post_parent],
    ["include", a.include],
    ["starts_before", dates.starts_before],
    ["starts_after", dates.starts_after],
    ["ends_before", dates.ends_before],
    ["ends_after", dates.ends_after],
    ["ticketed", a.ticketed],
    ["modified_after", sent.has("modified_after") ? a.modified_after : undefined],
    ["uid", a.uid],
  ];
  const links = pageLinks(`${ctx.urls.namespaceRoot}events/`, page, pages, echo);
  setPagingHeaders(c, total, pages, links);
  return c.json({ events: list, ...links, total, total_pages: pages });
}
