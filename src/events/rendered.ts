/**
 * Anonymous event reads from the rendered events (issue 16, src/events/renderings.ts): one statement
 * per page or single GET (src/events/rendered-sql.ts) answers each event's stored text, its terms'
 * counts, and — for events whose rendering is missing or stale — the event row and what it links
 * to, so that those are serialized as usual (src/events/serialize.ts) and their renderings stored
 * after the answer (src/events/render-store.ts). A miss is one D1 round trip; a lean read (the
 * isolate's last answer to the query had every rendering fresh) that finds a stale one makes a
 * second.
 */
import { and, eq, inArray } from "drizzle-orm";
import { runBatch } from "../db/batch";
import { type Db, openDb } from "../db/client";
import { events } from "../db/schema";
import { type AppContext, afterAnswer } from "../http/context";
import type { Urls } from "../http/urls";
import {
  assemble,
  decodeRow,
  type RelatedRows,
  relatedFromText,
  relatedQueries,
  relatedRows,
} from "./load";
import { storeRenderings, type ToStore } from "./render-store";
import type { ReadPlan, RenderedRow } from "./rendered-sql";
import { filledKey, renderingMemory, type TextKind } from "./rendering-memory";
import { filler, renderKey } from "./renderings";
import type { EventRecord, EventRow } from "./serialize";

/** An event of a rendered read: its filled-in text (UTF-8), or its record to serialize (stale). */
export type RenderedItem =
  | { bytes: Uint8Array<ArrayBuffer>; pair: string }
  | { record: EventRecord; gen: number | null };

const encoder = new TextEncoder();

/** A text as UTF-8 bytes. */
export const utf8 = (text: string) => encoder.encode(text) as Uint8Array<ArrayBuffer>;

/** A rendered read, decoded. */
export interface RenderedEvents {
  items: RenderedItem[];
  /** Whether every event had a fresh rendering (a lean read will do next time). */
  allFresh: boolean;
}

/**
 * Decodes a rendered read: each event's stored text (from the answer, or held by this isolate)
 * filled in for this request, or its record (assembled for an anonymous viewer) when the text was
 * missing or stale — read with the page, or after a lean read in a second round trip. Texts read
 * from D1 are kept in the isolate's memory.
 * @param memory the texts the statement was told this isolate holds, by `id:gen`
 *   (src/events/rendering-memory.ts `known`), and where to keep the texts it sent.
 * @param listed the events are a list's page (published, not hidden): an event that no longer is
 *   by the second round trip is left out.
 */
export async function readRendered(
  db: Db,
  rows: RenderedRow[],
  urls: Urls,
  memory: {
    held: Map<string, string>;
    keep: (pair: string, text: string) => void;
    filled: (
      pair: string,
      counts: string | null,
      make: () => Uint8Array<ArrayBuffer>,
    ) => Uint8Array<ArrayBuffer>;
  },
  listed: boolean,
): Promise<RenderedEvents> {
  let related: RelatedRows = { venues: [], organizers: [], terms: [], media: [] };
  const stale: Array<{ row: EventRow | number; gen: number | null; at: number }> = [];
  const items: Array<RenderedItem | null> = [];
  const fill = filler(urls);
  for (const r of rows) {
    if (r.related !== null) related = relatedFromText(r.related);
    if (r.freshGen !== null) {
      const pair = `${r.id}:${r.freshGen}`;
      const text = r.text ?? memory.held.get(pair);
      if (text === undefined) throw new Error(`rendering ${pair} neither sent nor held`);
      if (r.text !== null) memory.keep(pair, r.text);
      const bytes = memory.filled(pair, r.counts, () =>
        utf8(fill(text, JSON.parse(r.counts ?? "{}"))),
      );
      items.push({ bytes, pair });
    } else if (r.id !== null) {
      const row = r.row !== null ? decodeRow(events, JSON.parse(r.row)) : r.id;
      stale.push({ row, gen: r.gen, at: items.length });
      items.push(null);
    }
  }
  // A lean read left out the rows of stale events: one more round trip for them. A list keeps
  // only those still listed: the second read does not see the page's filter (§6.1).
  const missing = stale.flatMap((s) => (typeof s.row === "number" ? [s.row] : []));
  if (missing.length) {
    const still = listed
      ? and(
          inArray(events.id, missing),
          eq(events.status, "publish"),
          eq(events.hideFromListings, false),
        )
      : inArray(events.id, missing);
    const more = await runBatch(db, {
      rows: db.select().from(events).where(still),
      ...relatedQueries(db, missing),
    });
    related = relatedRows(more.related);
    const byId = new Map(more.rows.map((row) => [row.id, row]));
    for (const s of stale) if (typeof s.row === "number") s.row = byId.get(s.row) ?? s.row;
  }
  const found = stale.filter((s): s is typeof s & { row: EventRow } => typeof s.row !== "number");
  const records = assemble(
    found.map((s) => s.row),
    related,
    null,
  );
  found.forEach((s, n) => {
    items[s.at] = { record: records[n], gen: s.gen };
  });
  // An event gone between the two round trips is left out.
  return {
    items: items.filter((item): item is RenderedItem => item !== null),
    allFresh: stale.length === 0,
  };
}

/** A rendered read being made: what its statement is told (`ReadPlan`), and for which query. */
export interface PlannedRead extends ReadPlan {
  kind: TextKind;
  /** The query, as the isolate's memory knows it (same arguments, same query). */
  query: string;
  held: Map<string, string>;
}

/**
 * Plans a rendered read of `query` from the isolate's memory (src/events/rendering-memory.ts):
 * the renderings held from its last answer, and whether the read may be lean.
 */
export async function planRead(c: AppContext, kind: TextKind, query: string): Promise<PlannedRead> {
  const settings = c.get("settings");
  const { held, lean } = renderingMemory(settings).known(kind, query, c.get("contentVersion"));
  return { kind, query, key: await renderKey(settings), held, lean };
}

/** Decodes a planned read's rows (`readRendered`) and remembers its answer for next time. */
export async function finishRead(
  c: AppContext,
  plan: PlannedRead,
  rows: RenderedRow[],
): Promise<RenderedEvents> {
  const memory = renderingMemory(c.get("settings"));
  const urls = c.get("urls");
  const base = `${urls.site}\u0000${urls.namespaceRoot}`;
  const read = await readRendered(
    c.get("rdb").db,
    rows,
    urls,
    {
      held: plan.held,
      keep: (pair, text) => memory.keep(plan.kind, pair, text),
      filled: (pair, counts, make) => memory.filled(filledKey(plan.kind, pair, base, counts), make),
    },
    plan.kind === "list",
  );
  memory.answered(
    plan.query,
    read.items.flatMap((item) => ("pair" in item && item.pair ? [item.pair] : [])),
    read.allFresh,
    c.get("rdb").versionRead(),
  );
  return read;
}

/**
 * The JSON texts (UTF-8) of a planned page read, in order: stored ones as filled in, stale ones
 * serialized by `serialize` and stored for next time after the answer (src/events/render-store.ts).
 */
export async function renderedTexts(
  c: AppContext,
  plan: PlannedRead,
  rows: RenderedRow[],
  serialize: (record: EventRecord) => string,
): Promise<Uint8Array<ArrayBuffer>[]> {
  const read = await finishRead(c, plan, rows);
  const toStore: ToStore[] = [];
  const texts = read.items.map((item) => {
    if ("bytes" in item) return item.bytes;
    toStore.push(item);
    return utf8(serialize(item.record));
  });
  storeAfterAnswer(c, toStore);
  return texts;
}

/**
 * A JSON list answer as bytes: `head`, the items (JSON texts, UTF-8) separated by commas, `tail`.
 * @example listBytes('{"events":[', items, '],"total":3}')
 */
export function listBytes(
  head: string,
  items: Uint8Array<ArrayBuffer>[],
  tail: string,
): Uint8Array<ArrayBuffer> {
  const h = utf8(head);
  const t = utf8(tail);
  let size = h.byteLength + t.byteLength + Math.max(items.length - 1, 0);
  for (const item of items) size += item.byteLength;
  const out = new Uint8Array(size);
  out.set(h, 0);
  let at = h.byteLength;
  items.forEach((item, i) => {
    if (i > 0) out[at++] = 44; // ","
    out.set(item, at);
    at += item.byteLength;
  });
  out.set(t, at);
  return out;
}

/** Stores the renderings of events a read serialized itself, after the answer (`waitUntil`). */
export function storeAfterAnswer(c: AppContext, items: ToStore[]): void {
  if (!items.length) return;
  // A session of its own: a write, after the answer, not one of the answer's round trips.
  afterAnswer(c, "storing event renderings failed", () =>
    storeRenderings(openDb(c.env.DB, { write: true }).db, c.get("settings"), items),
  );
}
