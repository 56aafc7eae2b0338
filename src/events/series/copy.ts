/**
 * Copying a series' event row and links to a new row with an occurrence's id (contract §7.8): an
 * override starts as its series, and a series split off another as the series it leaves.
 */
import { getTableColumns, sql } from "drizzle-orm";
import type { BatchQuery } from "../../db/batch";
import type { Db } from "../../db/client";
import { eventOrganizers, events, eventTerms } from "../../db/schema";

/**
 * `INSERT … SELECT` of a copy of the event row `from`, with `own` columns (by drizzle field name;
 * values or SQL) in place of its own.
 */
export function copySeries(db: Db, from: number, own: Record<string, unknown>): BatchQuery {
  // drizzle lists every column of the table, in this order.
  const values = sql.join(
    Object.entries(getTableColumns(events)).map(([field, c]) =>
      field in own ? sql`${own[field]}` : sql`${c}`,
    ),
    sql`, `,
  );
  return db
    .insert(events)
    .select(sql`SELECT ${values} FROM ${events} WHERE ${events.id} = ${from}`);
}

/** The statements copying the terms and organizers of event `from` to event `to`. */
export function copyLinks(db: Db, from: number, to: number): BatchQuery[] {
  return [
    db
      .insert(eventTerms)
      .select(
        sql`SELECT ${to}, ${eventTerms.termId} FROM ${eventTerms} WHERE ${eventTerms.eventId} = ${from}`,
      ),
    db
      .insert(eventOrganizers)
      .select(
        sql`SELECT ${to}, ${eventOrganizers.organizerId}, ${eventOrganizers.position} FROM ${eventOrganizers} WHERE ${eventOrganizers.eventId} = ${from}`,
      ),
  ];
}
