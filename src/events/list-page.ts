/**
 * The answer of an event archive (tec-reference §2.1, §5, §6; contract §4 rows 1, 3, 6, 8): the
 * page of `GET /events` and of `GET /events/{id}/instances` (contract §7.8, the events of one
 * series) for a resolved query (src/events/list.ts `resolveArchive`). One D1 batch: reference
 * checks, the total, the page, and the page's venues, organizers, terms and images.
 */
import { sql } from "drizzle-orm";
import { type BatchQuery, runBatch } from "../db/batch";
import { reused } from "../db/compiled";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError } from "../http/errors";
import { pageLinks, setPagingHeaders, totalPages } from "../http/pagination";
import { carrySyncCursor, setSyncCursor } from "../sync/cursor";
import { EXPAND_ARGS, INSTANCES_ID } from "./args";
import { computedAsk, computedRows, dueSeries } from "./computed";
import { type CommonTerms, existenceQueries } from "./filters";
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
  type PlannedRead,
  planRead,
  renderedTexts,
  utf8,
} from "./rendering/read";
import { renderedPage } from "./rendering/read-sql";
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

/** What an archive's reads share and change between round trips (`archiveReads`). */
interface ArchiveState {
  /** The rendered read's plan (anonymous readers without a password, caches on), or none. */
  plan: PlannedRead | undefined;
  /** The key of the kept total (with `plan`), or none: the statement counts. */
  totalKey: string | undefined;
  /** Occurrences computed past their series' horizons (src/events/computed.ts). */
  computed: OccurrenceRow[];
  /** Whether the batch asks which series are due to compute (the first read only). */
  askDue: boolean;
}

/**
 * The one batch of an archive's page for `state`: reference checks, the due series, the total and
 * the page (rendered, or rows and what they link to). An anonymous read without computed
 * occurrences is a function of its resolved arguments: its statements are compiled once per isolate
 * (src/db/compiled.ts), unless caches are off (the full path the differential test compares with).
 */
function archiveReads(c: AppContext, q: ArchiveQuery, place: ArchivePlace, state: ArchiveState) {
  const user = c.get("user");
  const { filters, page, perPage } = q;
  const { db } = c.get("rdb");
  const ask = computedAsk(filters, c.get("settings").siteTimezone, requestNow(c));
  // A page of a common category or tag is found faster row by row (src/events/term-weights.ts).
  const common = commonTerms(c, filters);
  const archive = [filters, q.ignoresDates, place.unexpanded === true, common];
  const reuse = <Q extends BatchQuery>(name: string, parts: unknown[], build: () => Q): Q =>
    user === null && state.computed.length === 0 && c.get("readCache")
      ? reused(db, JSON.stringify([name, archive, ...parts]), build)
      : build();
  const where = (terms?: CommonTerms) => listedWhere(db, filters, user, terms, state.computed);
  const pageQuery = () =>
    (place.unexpanded ? unexpandedQuery : listedQuery)(
      db,
      where(common.categories || common.tags ? common : undefined),
      q.ignoresDates,
      { limit: perPage, offset: (page - 1) * perPage },
    );
  const read = () => {
    const { plan } = state;
    const full = plan ? undefined : sql`(${pageQuery()})`;
    carrySyncCursor(c);
    const known = state.totalKey ? knownTotal(c, state.totalKey) : undefined;
    return runBatch(db, {
      ...existenceQueries(db, filters, user),
      target: place.instancesOf === undefined ? undefined : instancesTarget(db, place.instancesOf),
      due:
        state.askDue && ask
          ? reuse("due", [ask], () => dueSeries(db, filters, user, ask))
          : undefined,
      total: reuse("total", [known], () =>
        listedTotal(db, where(), known, q.ignoresDates, place.unexpanded),
      ),
      page: plan
        ? reuse("page", [page, perPage, plan.key, plan.lean, [...plan.held.keys()]], () =>
            renderedPage(db, pageQuery(), plan),
          )
        : undefined,
      items: full ? pageQuery() : undefined,
      rows: full ? listedRows(db, full) : undefined,
      occurrences: full ? listedOccurrences(db, full) : undefined,
      related: full ? relatedQueries(db, sql`(SELECT src FROM ${full})`).related : undefined,
    });
  };
  return { read, ask };
}

/**
 * The page of an archive. Anonymous readers without a password get the page from the rendered events
 * (src/events/rendering/read.ts); everyone else from the events and what they link to. One D1
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
  const user = c.get("user");
  const { filters, page, perPage } = q;
  const kept = c.get("kept");
  const anonymous = user === null && q.passwordDigest === "" && c.get("readCache") && kept;
  const state: ArchiveState = {
    plan: anonymous
      ? await planRead(
          c,
          "list",
          JSON.stringify([filters, page, perPage, q.ignoresDates, place.unexpanded === true]),
          anonymous,
        )
      : undefined,
    // The total of the same filters, kept with the content version it was counted at (anonymous
    // readers, caches on, like the plan): the statement counts again unless that version is current.
    totalKey: anonymous
      ? JSON.stringify([filters, q.ignoresDates, place.unexpanded === true])
      : undefined,
    computed: [],
    askDue: true,
  };
  const { read, ask } = archiveReads(c, q, place, state);
  let r = await read();
  state.askDue = false;
  if (ask && r.due?.length) {
    state.computed = computedRows(r.due, ask);
    if (state.computed.length) {
      // The page again with the computed side, by the full path (they have no stored renderings).
      state.plan = undefined;
      state.totalKey = undefined;
      c.get("rdb").carryVersion();
      r = await read();
    }
  }
  if (state.plan && r.page && needsFullRead(state.plan, r.page)) {
    // The whole page again, in one snapshot (the content version read with it once more).
    state.plan = { ...state.plan, lean: false };
    c.get("rdb").carryVersion();
    r = await read();
  }
  if (place.instancesOf !== undefined && r.target)
    assertInstancesTarget(r.target, place.instancesOf, user);
  assertRefsExist(filters, r);
  learnTermWeights(c, filters, r);
  const total = r.total[0]?.total ?? 0;
  if (state.totalKey && r.total[0]) keepTotal(c, state.totalKey, r.total[0]);

  const serialize = archiveSerializer(c, q);
  const texts =
    state.plan && r.page
      ? renderedTexts(c, state.plan, r.page, serialize)
      : assembleListed(
          r.items ?? [],
          r.rows ?? [],
          [...(r.occurrences ?? []), ...state.computed],
          relatedRows(r.related ?? []),
          user,
        ).map((record) => utf8(serialize(record)));
  return archiveResponse(c, q, place, texts, total);
}

/** How an archive shows an event to its reader (protected fields by password or edit context). */
function archiveSerializer(c: AppContext, q: ArchiveQuery): (record: EventRecord) => string {
  const user = c.get("user");
  // Embedded protected venues/organizers open with the same password or edit context as events.
  const ctx: EventRenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user,
    single: false,
    linkedAccess: (row) => protectedAccess(q, row, user),
  };
  return (record) =>
    JSON.stringify(
      serializeEvent(ctx, visibleEvent(ctx, record, protectedAccess(q, record.row, user))),
    );
}

/**
 * The archive's answer: its events' JSON texts in order, the paging envelope and headers (§5.4).
 * @throws ApiError 404 `event-archive-page-not-found` for an empty page past the first.
 */
function archiveResponse(
  c: AppContext,
  q: ArchiveQuery,
  place: ArchivePlace,
  texts: Uint8Array<ArrayBuffer>[],
  total: number,
): Response {
  const pages = totalPages(total, q.perPage);
  if (q.page > 1 && texts.length === 0) throw new ApiError(404, "event-archive-page-not-found");
  const links = pageLinks(`${c.get("urls").namespaceRoot}${place.path}`, q.page, pages, q.echo);
  setPagingHeaders(c, total, pages, links);
  setSyncCursor(c);
  const tail = JSON.stringify({ ...links, total, total_pages: pages });
  const body = listBytes('{"events":[', texts, `],${tail.slice(1)}`);
  c.set("body", body);
  return c.body(body, 200, { "Content-Type": "application/json" });
}
