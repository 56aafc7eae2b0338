/**
 * Storing rendered events (src/events/rendering/format.ts). Renderings are stored:
 *
 * - after a write, for everything it marked stale (`renderAfterWrite`: the app calls it after every
 *   successful write; it runs after the answer, in chunks);
 * - after an anonymous read that found an event's rendering missing or stale (`storeRenderings`:
 *   the read serialized the event anyway).
 *
 * A rendering is stored only against the generation it was read at (`gen`, moved on by the triggers
 * of drizzle/0010_event_rendering_triggers.sql with every change the event shows), so one made from
 * data a concurrent write has since changed is never stored; the next read or write renders again.
 * Only published events are stored (nothing else is shown to anonymous readers); the rest are
 * marked fresh with no text, so that the read path keeps serializing them as usual.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { runBatch } from "../../db/batch";
import { type Db, openDb } from "../../db/client";
import { eventRenderings, events } from "../../db/schema";
import { type AppContext, afterAnswer } from "../../http/context";
import type { Settings } from "../../settings";
import { assemble, EVENT_COLUMNS, relatedQueries, relatedRows } from "../load";
import type { EventRecord } from "../record";
import { render, renderKey } from "./format";

/** An event to store, with the generation its data was read at. */
export interface ToStore {
  record: EventRecord;
  gen: number | null;
}

/** The statements that store renderings, each only if the event's generation is still `gen`. */
async function storeStatements(db: Db, settings: Settings, items: ToStore[]) {
  const key = await renderKey(settings);
  return items.flatMap(({ record, gen }) => {
    if (gen === null) return [];
    const published = record.row.status === "publish";
    const { list, single, occurrence, occurrenceSingle } = published
      ? render(settings, record)
      : { list: null, single: null, occurrence: null, occurrenceSingle: null };
    return [
      db
        .update(eventRenderings)
        .set({ list, single, occurrence, occurrenceSingle, renderKey: key, stale: false })
        .where(and(eq(eventRenderings.eventId, record.row.id), eq(eventRenderings.gen, gen))),
    ];
  });
}

/**
 * Stores the renderings of events a read serialized itself (records assembled for an anonymous
 * viewer), in one batch (after the answer: src/events/rendering/read.ts `storeAfterAnswer`).
 */
export async function storeRenderings(db: Db, settings: Settings, items: ToStore[]): Promise<void> {
  const statements = await storeStatements(db, settings, items);
  if (statements.length) await db.batch(statements as never);
}

/** Stale renderings taken per round (a page's worth). */
const CHUNK = 50;
/** Rounds per write: whatever is left is rendered by the next write or the first read. */
const ROUNDS = 20;

/**
 * Renders what is stale, `CHUNK` events per round (one batch to read them with what they link
 * to, one to store), until nothing is stale or `ROUNDS` rounds ran.
 * @returns how many events were stored.
 */
export async function renderStale(db: Db, settings: Settings): Promise<number> {
  let stored = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const ids = sql`(SELECT ${eventRenderings.eventId} FROM ${eventRenderings} WHERE ${eventRenderings.stale} = 1 ORDER BY ${eventRenderings.eventId} LIMIT ${CHUNK})`;
    const r = await runBatch(db, {
      stale: db
        .select({ id: eventRenderings.eventId, gen: eventRenderings.gen })
        .from(eventRenderings)
        .where(sql`${eventRenderings.eventId} IN ${ids}`),
      rows: db.select(EVENT_COLUMNS).from(events).where(sql`${events.id} IN ${ids}`),
      ...relatedQueries(db, ids),
    });
    if (r.stale.length === 0) break;
    const gens = new Map(r.stale.map((s) => [s.id, s.gen]));
    const records = assemble(r.rows, relatedRows(r.related), null);
    const statements = await storeStatements(
      db,
      settings,
      records.map((record) => ({ record, gen: gens.get(record.row.id) ?? null })),
    );
    // Rows whose event is gone (none: the foreign key cascades) would be taken again; drop them.
    const found = new Set(r.rows.map((row) => row.id));
    const orphans = r.stale.map((s) => s.id).filter((id) => !found.has(id));
    const cleanup = orphans.length
      ? [db.delete(eventRenderings).where(inArray(eventRenderings.eventId, orphans))]
      : [];
    const batch = [...statements, ...cleanup];
    if (batch.length) await db.batch(batch as never);
    stored += statements.length;
    if (r.stale.length < CHUNK) break;
  }
  return stored;
}

/**
 * After a successful write: renders what it marked stale, after the answer (`waitUntil`). Outside a
 * worker invocation (no execution context) it does nothing; the first read renders instead.
 */
export function renderAfterWrite(c: AppContext): void {
  // A session of its own: not one of the write's round trips.
  afterAnswer(c, "rendering events after a write failed", () =>
    renderStale(openDb(c.env.DB, { write: true }).db, c.get("settings")),
  );
}
