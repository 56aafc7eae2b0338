/**
 * `GET /events` (tec-reference §2.1, §5, §6; contract §4 rows 1, 3, 6, 8). One D1 batch: reference
 * checks, the total, the page, and the page's venues, organizers, terms and images. The argument
 * resolution (`resolveArchive`) is shared with every route that selects the same events (the
 * iCalendar feed, src/ical).
 */
import { asc } from "drizzle-orm";
import { type AuthUser, can, canEditPost } from "../access/capabilities";
import type { Db } from "../db/client";
import { events } from "../db/schema";
import { type ArgValues, parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { sha256Hex, timingSafeEqual } from "../http/crypto";
import { InvalidParamsError, missingParams } from "../http/errors";
import { syncCursorValue, syncEcho } from "../http/list-args";
import { clampPerPage } from "../http/pagination";
import { ANY_STATUSES } from "../http/post-status";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { ARCHIVE_ARGS } from "./args";
import { computedSide } from "./computed";
import { isStrict, resolveDateFilters } from "./dates";
import {
  type CommonTerms,
  type EventFilters,
  type FoundRefs,
  missingRefs,
  occurrenceWhere,
  whereClause,
} from "./filters";
import type { ListedWhere } from "./listed";
import type { EventRow } from "./record";
import type { OccurrenceRow } from "./series/occurrences";

/** The archive request, resolved: what to select, how to order it, and what to echo (§5.4). */
export interface ArchiveQuery {
  /** The validated arguments (defaults included). */
  args: ArgValues<typeof ARCHIVE_ARGS>;
  filters: EventFilters;
  /** `include`/`uid` lists are ordered by post date and ignore every date filter (contract §4 row 3). */
  ignoresDates: boolean;
  page: number;
  perPage: number;
  /** Applied filters after `page`, in TEC's order, for `rest_url` and the paging links. */
  echo: Array<[string, unknown]>;
  /** The `password` query parameter's digest (`""` when none) and whether `context=edit` was asked for (§4.7). */
  passwordDigest: string;
  editContext: boolean;
}

/**
 * Reads and validates the archive arguments of `GET /events` (and of every route that selects the
 * same events, such as the iCalendar feed) into filters (§2.1, §6; contract §4).
 * @throws InvalidParamsError `status` (a status other than `publish` without edit rights), the
 *   validators' 400s, `rest_missing_callback_param` for half a `geoloc_lat`/`geoloc_lng` pair.
 */
export async function resolveArchive(c: AppContext): Promise<ArchiveQuery> {
  const settings = c.get("settings");
  const user = c.get("user");
  const now = requestNow(c);
  const params = await requestParams(c);
  const { values: a } = parseArgs(ARCHIVE_ARGS, params, argContext(c));

  // §3 filter_post_status_list: without edit rights only `publish` may be asked for.
  if (
    a.status &&
    !can(user, "edit_posts") &&
    !(a.status.length === 1 && a.status[0] === "publish")
  ) {
    throw new InvalidParamsError([{ name: "status" }]);
  }
  if ((a.geoloc_lat === undefined) !== (a.geoloc_lng === undefined)) {
    throw missingParams([a.geoloc_lat === undefined ? "geoloc_lat" : "geoloc_lng"]);
  }

  const page = a.page;
  const perPage = clampPerPage(a.per_page, settings.perPageMax);
  const defaultStatuses = can(user, "edit_posts") ? ANY_STATUSES : ["publish"];
  const ignoresDates = a.include !== undefined || a.uid !== undefined;
  const dates = resolveDateFilters(a, {
    strict: isStrict(a.strict_dates),
    inQuery: (name) => Object.hasOwn(params.query, name),
    include: ignoresDates,
    siteTimezone: settings.siteTimezone,
    now,
  });
  const modifiedAfter = a.modified_after
    ? parseTime(a.modified_after, resolveZone(settings.siteTimezone)!, now)
    : null;
  const passwordDigest =
    typeof a.password === "string" && a.password !== "" ? await sha256Hex(a.password) : "";
  const filters: EventFilters = {
    statuses: a.status ?? defaultStatuses,
    dates,
    search: a.search,
    password: passwordDigest,
    editContext: params.query.context === "edit",
    categories: a.categories,
    tags: a.tags,
    venue: a.venue,
    organizer: a.organizer,
    featured: a.featured,
    geoloc: a.geoloc,
    near:
      a.geoloc_lat !== undefined && a.geoloc_lng !== undefined
        ? { lat: a.geoloc_lat, lng: a.geoloc_lng, radiusKm: a.geoloc_radius ?? 25 }
        : undefined,
    include: a.include,
    postParent: a.post_parent,
    ticketed: a.ticketed,
    modifiedAfter: modifiedAfter
      ? modifiedAfter.toUTC().toFormat("yyyy-MM-dd HH:mm:ss")
      : undefined,
    syncCursor: syncCursorValue(a),
    uid: a.uid,
    uidIds: uidIds(a.uid, c.get("urls").siteHost),
    series: a.series,
  };
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
    ...syncEcho(a),
    ["uid", a.uid],
    ["series", a.series],
  ];
  return {
    args: a,
    filters,
    ignoresDates,
    page,
    perPage,
    echo,
    passwordDigest,
    editContext: filters.editContext === true,
  };
}

/**
 * The ids the `{id}@{host}` UIDs of `uids` name for this site's host (the feed's UID of an event
 * without one of its own, src/ical/vevent.ts `eventUid`); undefined when none does.
 */
function uidIds(uids: string[] | undefined, host: string): number[] | undefined {
  const ids = (uids ?? []).flatMap((u) => {
    const at = u.lastIndexOf("@");
    const id = u.slice(0, at);
    return at > 0 && /^[1-9]\d{0,15}$/.test(id) && u.slice(at + 1).toLowerCase() === host
      ? [Number(id)]
      : [];
  });
  return ids.length ? ids : undefined;
}

/** The columns of the archive order (§6.1): start, post date, id; with `include`/`uid` post date, id. */
export const archiveColumns = (ignoresDates: boolean) =>
  ignoresDates ? [events.postDate, events.id] : [events.startDate, events.postDate, events.id];

/** The archive order (§6.1), ascending on `archiveColumns`. */
export const archiveOrder = (ignoresDates: boolean) => archiveColumns(ignoresDates).map(asc);

/**
 * Whether the caller may see an event's password-protected fields in a list (§4.7): the `password`
 * parameter matches, or `context=edit` by someone who may edit it. Unprotected events always pass.
 */
export function protectedAccess(
  q: Pick<ArchiveQuery, "passwordDigest" | "editContext">,
  row: Pick<EventRow, "passwordDigest" | "author" | "status" | "trashMetaStatus">,
  user: AuthUser | null,
): boolean {
  if (row.passwordDigest === "") return true;
  return (
    (q.passwordDigest !== "" && timingSafeEqual(q.passwordDigest, row.passwordDigest)) ||
    (q.editContext && canEditPost(user, row))
  );
}

/** Throws for filters that name ids, slugs or names that do not exist (§3), from `existenceQueries` results. */
export function assertRefsExist(filters: EventFilters, found: FoundRefs): void {
  const bad = missingRefs(filters, found);
  if (bad.length) throw new InvalidParamsError(bad.map((name) => ({ name })));
}

/**
 * The WHERE clauses of the sides of the archive (src/events/listed.ts): the events, the stored
 * occurrences of series, and the occurrences `computed` past their series' horizons
 * (src/events/computed.ts); with `common`, the page's plan for common terms
 * (src/events/term-weights.ts).
 */
export function listedWhere(
  db: Db,
  filters: EventFilters,
  user: AuthUser | null,
  common?: CommonTerms,
  computed: OccurrenceRow[] = [],
): ListedWhere {
  return {
    events: whereClause(db, filters, user, common),
    occurrences: occurrenceWhere(db, filters, user, common),
    computed: computedSide(db, computed, filters, user, common),
  };
}
