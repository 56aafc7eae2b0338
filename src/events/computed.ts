/**
 * The occurrences a list shows past its series' stored horizons (contract §7.8), as a third side
 * of the archive (src/events/listed.ts): computed in the worker (src/events/series/computed.ts), handed to
 * the page's statements as a JSON list, and filtered, ordered, paged and counted there by the same
 * clauses as the stored occurrences (src/events/filters.ts `occurrenceWhere`, on a table named
 * `computed_occurrences` with `event_occurrences`' columns; the columns a series gives its
 * occurrences are read from the series in the same statement).
 *
 * Which series are due is read in the list's own batch (`dueSeries`: those whose horizon lies
 * before the window's end and that pass the filters a series passes for its occurrences); a list
 * none of whose series is due costs nothing more, and one with due series one more round trip.
 */
import { and, eq, getTableColumns, gt, gte, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { DateTime } from "luxon";
import type { AuthUser } from "../access/capabilities";
import type { Db } from "../db/client";
import { eventOccurrences, events } from "../db/schema";
import { inList } from "../db/sql";
import { shiftWall, WP_FORMAT, wallText } from "../time/format";
import { resolveZone } from "../time/zone";
import { ARCHIVE_DATES, type DateParam } from "./date-fields";
import type { EventFilters } from "./filters";
import { type CommonTerms, occurrenceWhere, whereClause } from "./filters";
import type { EventRow } from "./record";
import { type ComputedWindow, computedOccurrence, computedOccurrences } from "./series/computed";
import { isInstanceId, readInstanceId } from "./series/instance-ids";
import type { OccurrenceRow } from "./series/occurrences";

/** The computed occurrences under `event_occurrences`' column names. */
export const computedTable = alias(eventOccurrences, "computed_occurrences");

/** What a list computes: a window of starts, or the computed ids `include` names. */
export type ComputedAsk =
  | { window: ComputedWindow; dueBefore: string }
  | { ids: number[]; series: number[] };

/** How far past the later of a window's start and today occurrences are computed (years). */
export const COMPUTED_YEARS = 10;

/**
 * What a list's filters ask of the computed occurrences (null: nothing). The window is the date filters' (site-local values, compared
 * with each series' wall clock as the list compares them, tec-reference §6.2), up to
 * `COMPUTED_YEARS` past the later of its start and today at most (a window without an end, or one
 * to 2999, lists endless series that far). `include` (which ignores dates) asks for the computed
 * ids it names.
 * @param now the request's clock.
 */
export function computedAsk(
  f: EventFilters,
  siteTimezone: string,
  now: DateTime,
): ComputedAsk | null {
  if (f.include) {
    const ids = f.include.filter(isInstanceId);
    if (!ids.length) return null;
    const series = [...new Set(ids.map((id) => readInstanceId(id)!.seriesId))];
    return { ids, series };
  }
  const d = f.dates;
  // Lower bounds of the start, and every upper bound (an end bounds the start too).
  const lows: string[] = [];
  const highs: string[] = [];
  for (const [name, filter] of Object.entries(ARCHIVE_DATES)) {
    const value = d[name as DateParam];
    if (value === undefined) continue;
    const low = filter.compare === gte || filter.compare === gt;
    if (!low) highs.push(value);
    else if (filter.column === events.startDate) lows.push(value);
  }
  const from = lows.length ? lows.sort().at(-1)! : null;
  const zone = resolveZone(siteTimezone);
  const nowMs = now.toMillis();
  const nowLocal =
    wallText(Math.floor(nowMs / 1000) * 1000 + (zone?.offset(nowMs) ?? 0) * 60_000) ??
    now.setZone(zone ?? "utc").toFormat(WP_FORMAT);
  const reach = shiftWall(from !== null && from > nowLocal ? from : nowLocal, {
    years: COMPUTED_YEARS,
  });
  const end = highs.length ? shiftWall(highs.sort()[0]!, { seconds: 1 }) : reach;
  const before = end < reach ? end : reach;
  // A wall clock lies within a day of its UTC instant in every zone.
  return { window: { from, before }, dueBefore: shiftWall(before, { seconds: 86_400 }) };
}

/**
 * The series whose occurrences `ask` may need computed (the rows, for `computedRows`): series
 * whose stored horizon lies before the window's end — or that `include`'s ids name — and that pass
 * every filter a series passes for its occurrences to be listed (status, visibility, content).
 */
export function dueSeries(db: Db, f: EventFilters, user: AuthUser | null, ask: ComputedAsk) {
  const seriesLevel: EventFilters = {
    ...f,
    dates: {},
    include: undefined,
    modifiedAfter: undefined,
    syncCursor: undefined,
  };
  // The due series drive the statement (few: read from the partial index of series by horizon, or
  // by id), each then tested by the filters; left to itself SQLite (without statistics) walks every
  // published event by the status index instead (94,633 rows of the bench's 100,000).
  const source = "ids" in ask ? sql`${events}` : sql`${events} INDEXED BY events_horizon`;
  const due = db
    .select({ id: sql<number>`${events.id}`.as("due_id") })
    .from(source)
    .where(
      "ids" in ask
        ? inList(events.id, ask.series)
        : and(eq(events.seriesId, events.id), lt(events.horizonGmt, ask.dueBefore)),
    )
    .as("due");
  return db
    .select(getTableColumns(events))
    .from(due)
    .crossJoin(events)
    .where(
      and(
        eq(events.id, due.id),
        eq(events.seriesId, events.id),
        whereClause(db, seriesLevel, user),
      ),
    );
}

/** The occurrences `ask` computes from the due series' rows. */
export function computedRows(rows: EventRow[], ask: ComputedAsk): OccurrenceRow[] {
  if ("window" in ask) return computedOccurrences(rows, ask.window);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ask.ids.flatMap((id) => {
    const row = byId.get(readInstanceId(id)!.seriesId);
    const o = row && computedOccurrence(row, id);
    return o ? [o] : [];
  });
}

/** The computed side of a list: its table (as a FROM clause) and its WHERE clause. */
export interface ComputedSide {
  from: SQL;
  where: SQL;
}

/**
 * The computed occurrences as a table of the page's statements, with the archive's clause on them
 * (`occurrenceWhere`); undefined when there are none.
 */
export function computedSide(
  db: Db,
  rows: OccurrenceRow[],
  f: EventFilters,
  user: AuthUser | null,
  common: CommonTerms = {},
): ComputedSide | undefined {
  if (!rows.length) return undefined;
  const list = JSON.stringify(rows.map((o) => [o.id, o.seriesId, o.startDate, o.endDate]));
  const from = sql`(SELECT j.value ->> 0 AS id, j.value ->> 1 AS series_id, j.value ->> 2 AS ${sql.identifier(computedTable.startDate.name)}, j.value ->> 3 AS ${sql.identifier(computedTable.endDate.name)},
    s.status AS status, s.hide_from_listings AS hide_from_listings, s.post_date AS post_date, s.changed_gmt AS changed_gmt
    FROM json_each(${list}) j JOIN ${events} s ON s.id = j.value ->> 1) AS ${sql.identifier("computed_occurrences")}`;
  return {
    from,
    where: occurrenceWhere(
      db,
      f,
      user,
      common,
      computedTable as unknown as typeof eventOccurrences,
    ),
  };
}
