/**
 * The answer of an event archive (tec-reference §2.1, §5, §6; contract §4 rows 1, 3, 6, 8): the
 * page of `GET /events` and of `GET /events/{id}/instances` (contract §7.8, the events of one
 * series) for a resolved query (src/events/list.ts `resolveArchive`). One D1 batch: reference
 * checks, the total, the page, and the page's venues, organizers, terms and images.
 */
import { sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError } from "../http/errors";
import { pageLinks, setPagingHeaders, totalPages } from "../http/pagination";
import { carrySyncCursor, setSyncCursor } from "../sync/cursor";
import { EXPAND_ARGS, INSTANCES_ID } from "./args";
import { computedAsk, computedRows, dueSeries } from "./computed";
import { existenceQueries } from "./filters";
import { assertInstancesTarget, instancesTarget } from "./instances";
import {
  type ArchiveQuery,
  assertRefsExist,
  listedWhere,
  protectedAccess,
  resolveArchive,
} from "./list";
import {
  assembleListed,
  listedOccurrences,
  listedQuery,
  listedRows,
  listedTotal,
  unexpandedQuery,
} from "./listed";
import { relatedQueries, relatedRows } from "./load";
import type { EventRecord } from "./record";
import {
  keepTotal,
  knownTotal,
  listBytes,
  needsFullRead,
  planRead,
  renderedTexts,
  utf8,
} from "./rendered";
import { renderedPage } from "./rendered-sql";
import { serializeEvent } from "./serialize";
import type { OccurrenceRow } from "./series/occurrences";
import { commonTerms, learnTermWeights } from "./term-weights";
import { type EventRenderContext, visibleEvent } from "./visible";

/** Handles `GET /events` (`expand=false`: the series unexpanded, contract §7.8). */
export async function listEvents(c: AppContext): Promise<Response> {
  const { values } = parseArgs(EXPAND_ARGS, await requestParams(c), argContext(c));
  const q = await resolveArchive(c);
  const unexpanded = values.expand === false;
  const echo: ArchiveQuery["echo"] = unexpanded ? [...q.echo, ["expand", false]] : q.echo;
  return answerArchive(c, { ...q, echo }, { path: "events/", unexpanded });
}

/**
 * Handles `GET /events/{id}/instances`: the archive of the series `id` names (src/events/instances.ts),
 * with every argument of `GET /events` but `series`.
 * @throws the errors of `GET /events`; those of src/events/instances.ts `assertInstancesTarget`.
 */
export async function listInstances(c: AppContext): Promise<Response> {
  const { values } = parseArgs({ id: INSTANCES_ID }, await requestParams(c), argContext(c));
  const q = await resolveArchive(c);
  const filters = { ...q.filters, series: undefined, seriesOf: values.id };
  const echo = q.echo.filter(([name]) => name !== "series");
  return answerArchive(
    c,
    { ...q, filters, echo },
    { path: `events/${values.id}/instances`, instancesOf: values.id },
  );
}

/**
 * Where an archive answers: its path under the namespace root, the id of `/events/{id}/instances`,
 * whether it lists series unexpanded.
 */
interface ArchivePlace {
  path: string;
  instancesOf?: number;
  unexpanded?: boolean;
}

/**
 * The page of an archive. Anonymous readers without a password get the page from the rendered events
 * (src/events/rendered.ts); everyone else from the events and what they link to. One D1
 * round trip either way. Occurrences of recurring series are listed as events of their own
 * (contract §7.8); when the window reaches past a series' stored horizon, its occurrences there are
 * computed (src/events/computed.ts) and the page is read again with them, by the full path: one
 * more round trip.
 */
async function answerArchive(
  c: AppContext,
  q: ArchiveQuery,
  place: ArchivePlace,
): Promise<Response> {
  const settings = c.get("settings");
  const user = c.get("user");
  const { filters, page, perPage } = q;

  const { db } = c.get("rdb");
  const ask = computedAsk(filters, settings.siteTimezone, requestNow(c));
  // A page of a common category or tag is found faster row by row (src/events/term-weights.ts).
  const common = commonTerms(filters);
  let computed: OccurrenceRow[] = [];
  const wheres = () => {
    const where = listedWhere(db, filters, user, undefined, computed);
    const pageWhere =
      common.categories || common.tags ? listedWhere(db, filters, user, common, computed) : where;
    return { where, pageWhere };
  };
  let { where, pageWhere } = wheres();
  const pageQuery = () =>
    (place.unexpanded ? unexpandedQuery : listedQuery)(db, pageWhere, q.ignoresDates, {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
  // Anonymous readers without a password, caches on: from the rendered events (src/events/rendered.ts).
  let plan =
    user === null && q.passwordDigest === "" && c.get("readCache")
      ? await planRead(
          c,
          "list",
          JSON.stringify([filters, page, perPage, q.ignoresDates, place.unexpanded === true]),
        )
      : undefined;
  // The total of the same filters, kept with the content version it was counted at (anonymous
  // readers, caches on, like the plan): the statement counts again unless that version is current.
  let totalKey = plan
    ? JSON.stringify([filters, q.ignoresDates, place.unexpanded === true])
    : undefined;
  let askDue = ask !== null;
  const read = () => {
    const full = plan ? undefined : sql`(${pageQuery()})`;
    carrySyncCursor(c);
    return runBatch(db, {
      ...existenceQueries(db, filters, user),
      target: place.instancesOf === undefined ? undefined : instancesTarget(db, place.instancesOf),
      due: askDue && ask ? dueSeries(db, filters, user, ask) : undefined,
      total: listedTotal(
        db,
        where,
        totalKey ? knownTotal(totalKey) : undefined,
        q.ignoresDates,
        place.unexpanded,
      ),
      page: plan ? renderedPage(db, pageQuery(), plan) : undefined,
      items: full ? pageQuery() : undefined,
      rows: full ? listedRows(db, full) : undefined,
      occurrences: full ? listedOccurrences(db, full) : undefined,
      related: full ? relatedQueries(db, sql`(SELECT src FROM ${full})`).related : undefined,
    });
  };
  let r = await read();
  askDue = false;
  if (ask && r.due?.length) {
    computed = computedRows(r.due, ask);
    if (computed.length) {
      // The page again with the computed side, by the full path (they have no stored renderings).
      ({ where, pageWhere } = wheres());
      plan = undefined;
      totalKey = undefined;
      c.get("rdb").carryVersion();
      r = await read();
    }
  }
  if (plan && r.page && needsFullRead(plan, r.page)) {
    // The whole page again, in one snapshot (the content version read with it once more).
    plan = { ...plan, lean: false };
    c.get("rdb").carryVersion();
    r = await read();
  }
  if (place.instancesOf !== undefined && r.target)
    assertInstancesTarget(r.target, place.instancesOf, user);
  assertRefsExist(filters, r);
  learnTermWeights(filters, r);
  const total = r.total[0]?.total ?? 0;
  if (totalKey && r.total[0]) keepTotal(totalKey, r.total[0]);

  // Embedded protected venues/organizers open with the same password or edit context as events.
  const ctx: EventRenderContext = {
    urls: c.get("urls"),
    settings,
    user,
    single: false,
    linkedAccess: (row) => protectedAccess(q, row, user),
  };
  const serialize = (record: EventRecord) =>
    JSON.stringify(
      serializeEvent(ctx, visibleEvent(ctx, record, protectedAccess(q, record.row, user))),
    );
  const texts =
    plan && r.page
      ? renderedTexts(c, plan, r.page, serialize)
      : assembleListed(
          r.items ?? [],
          r.rows ?? [],
          [...(r.occurrences ?? []), ...computed],
          relatedRows(r.related ?? []),
          user,
        ).map((record) => utf8(serialize(record)));

  const pages = totalPages(total, perPage);
  if (page > 1 && texts.length === 0) throw new ApiError(404, "event-archive-page-not-found");
  const links = pageLinks(`${ctx.urls.namespaceRoot}${place.path}`, page, pages, q.echo);
  setPagingHeaders(c, total, pages, links);
  setSyncCursor(c);
  const tail = JSON.stringify({ ...links, total, total_pages: pages });
  const body = listBytes('{"events":[', texts, `],${tail.slice(1)}`);
  c.set("body", body);
  return c.body(body, 200, { "Content-Type": "application/json" });
}
