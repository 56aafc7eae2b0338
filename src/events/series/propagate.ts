/**
 * A series' change copied to its overrides (contract §7.8): every field and link the series changes
 * that an override does not set itself, in the series' write batch (src/events/series/save.ts).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchQuery } from "../../db/batch";
import type { Db } from "../../db/client";
import { eventOrganizers, events, eventTerms, type Taxonomy, terms } from "../../db/schema";
import type { EventRow } from "../record";
import { DATE_COLUMNS, follows } from "./fields";

/** What `propagate` needs of the series' save (src/events/series/save.ts `SeriesSaveInput`). */
export interface SeriesChange {
  /** The series' id. */
  id: number;
  /** The series' organizers when the write changes them. */
  organizers?: number[];
  /** The series' terms per taxonomy when the write changes them. */
  terms: Array<readonly [Taxonomy, number[] | undefined]>;
  /** The write's site-local post-date stamp. */
  plan: { stamp: { local: string } };
}

/**
 * The series' changed columns and links, set on each override that follows them (an override keeps
 * what it sets itself: its `overrides`), stamped as modified.
 * @param values the series' changed columns (the batch's slug is read back from the series' row).
 * @param stamp the write's UTC change time (`Y-m-d H:i:s`).
 */
export function propagate(
  db: Db,
  overrides: EventRow[],
  values: Record<string, unknown>,
  input: SeriesChange,
  stamp: string,
): BatchQuery[] {
  const out: BatchQuery[] = [];
  const skip = new Set([
    ...DATE_COLUMNS,
    "seriesId",
    "recurrence",
    "occurrenceStart",
    "horizonGmt",
  ]);
  for (const row of overrides) {
    const set: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(values)) {
      if (skip.has(column as never)) continue;
      // The slug the batch decides for the series (src/db/slugs.ts `freeSlug`), read back.
      if (column === "slug")
        set.slug = sql`(SELECT ${events.slug} FROM ${events} WHERE ${events.id} = ${input.id})`;
      else if (follows(row.overrides, column as never)) set[column] = value;
    }
    const links: BatchQuery[] = [];
    if (input.organizers && !row.overrides.includes("organizer")) {
      links.push(db.delete(eventOrganizers).where(eq(eventOrganizers.eventId, row.id)));
      if (input.organizers.length)
        links.push(
          db
            .insert(eventOrganizers)
            .select(
              sql`SELECT ${row.id}, value, key FROM json_each(${JSON.stringify(input.organizers)})`,
            ),
        );
    }
    for (const [taxonomy, ids] of input.terms) {
      const field = taxonomy === "tribe_events_cat" ? "categories" : "tags";
      if (ids === undefined || row.overrides.includes(field)) continue;
      links.push(
        db
          .delete(eventTerms)
          .where(
            and(
              eq(eventTerms.eventId, row.id),
              inArray(
                eventTerms.termId,
                db.select({ id: terms.id }).from(terms).where(eq(terms.taxonomy, taxonomy)),
              ),
            ),
          ),
      );
      if (ids.length)
        links.push(
          db
            .insert(eventTerms)
            .select(sql`SELECT ${row.id}, value FROM json_each(${JSON.stringify(ids)})`),
        );
    }
    if (!Object.keys(set).length && !links.length) continue;
    Object.assign(set, {
      postModified: input.plan.stamp.local,
      postModifiedGmt: stamp,
      changedGmt: stamp,
    });
    out.push(db.update(events).set(set).where(eq(events.id, row.id)), ...links);
  }
  return out;
}
