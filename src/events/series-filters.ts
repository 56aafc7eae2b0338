/**
 * The archive's filters that name recurring series (contract §7.8), for src/events/filters.ts: the
 * series a `uid` names, and the series of an event id (`/events/{id}/instances`).
 */
import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { eventOccurrences, events } from "../db/schema";
import { inList } from "../db/sql";
import { readInstanceId } from "./series/instance-ids";

/** What these filters read of the archive's filters (src/events/filters.ts `EventFilters`). */
interface SeriesFilters {
  uid?: string[];
  uidIds?: number[];
}

/** The id of the series of event `id` (`EventFilters.seriesOf`), as SQL: `id` itself for a single event. */
export function seriesOfId(id: number): SQL {
  const named = readInstanceId(id);
  if (named) return sql`${named.seriesId}`;
  const o = eventOccurrences;
  return sql`coalesce((SELECT ${o.seriesId} FROM ${o} WHERE ${o.id} = ${id}), (SELECT s.series_id FROM ${events} s WHERE s.id = ${id}), ${id})`;
}

/**
 * The single events and series a `uid` filter names (`EventFilters.uid`): by their stored UID, and
 * a series without one by the `{id}@{host}` UID the feed gives it (`series.uid`; a single event
 * without a stored UID is not found by its id: an iCalendar file of another instance on the same
 * host name holds the same UIDs, and the importer looks its UIDs up by this filter).
 */
export function uidNamed(db: Db, f: SeriesFilters) {
  const isSeries = eq(events.seriesId, events.id);
  return db
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        or(
          inList(events.uid, f.uid ?? []),
          f.uidIds?.length
            ? and(isNull(events.uid), isSeries, inList(events.id, f.uidIds))
            : undefined,
        ),
        or(isNull(events.seriesId), isSeries),
      ),
    );
}
