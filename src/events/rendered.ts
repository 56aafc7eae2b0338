/**
 * Anonymous event reads from the stored renderings (src/events/renderings.ts): one statement per
 * page or single GET (src/events/rendered-sql.ts) answers each event's stored text when it is fresh,
 * already filled in for the request by SQLite (its URLs, its terms' current counts), and for every
 * other event its row and what it links to. An occurrence of a series gets its own values filled in
 * here; the other events are serialized by the full path (src/events/serialize.ts), and those whose
 * rendering was missing or stale are stored after the answer (src/events/render-store.ts). A
 * rendering that is missing is never an error: the answer is the full path's either way (the
 * differential test, test/read-cache, holds the two together). Nothing read is kept between
 * requests: the read cache (src/read-cache/) keeps answers.
 */
import { openDb } from "../db/client";
import { eventOccurrences } from "../db/schema";
import { type AppContext, afterAnswer } from "../http/context";
import type { Urls } from "../http/urls";
import { Memo } from "../lib/memo";
import { type OccurrenceRow, occurrenceRecord } from "../series/occurrences";
import type { KnownTotal } from "./listed";
import { assemble, decodeEventRow, decodeRow, type RelatedRows, relatedFromText } from "./load";
import type { EventRecord, EventRow } from "./record";
import { storeRenderings, type ToStore } from "./render-store";
import type { RenderedRow } from "./rendered-sql";
import { filler } from "./renderings";

/** An event of a rendered read: its filled-in text (UTF-8), or its record to serialize. */
export type RenderedItem =
  | { bytes: Uint8Array<ArrayBuffer> }
  | {
      record: EventRecord;
      /** The record whose rendering is stored: the event's, or an occurrence's series'. */
      source: EventRecord;
      /** The generation to store its rendering against; null when it is not to be stored. */
      gen: number | null;
    };

const encoder = new TextEncoder();

/** A text as UTF-8 bytes. */
export const utf8 = (text: string) => encoder.encode(text) as Uint8Array<ArrayBuffer>;

/**
 * Archive totals counted for anonymous readers, by their filters (not the page: every page of a
 * filter shares it), with the content version each was counted at. A read hands the statement the
 * kept one, which uses it only at that same version (src/events/listed.ts `listedTotal`).
 */
const totals = new Memo<KnownTotal>(2048);

/** The total kept for an anonymous archive's filters (`query`: its filters as JSON), if any. */
export const knownTotal = (query: string): KnownTotal | undefined => totals.find(query);

/** Keeps the total a statement answered, at the version it read (none read: nothing kept). */
export function keepTotal(query: string, read: { version: number | null; total: number }): void {
  if (read.version !== null) totals.set(query, { version: read.version, total: read.total });
}

/**
 * Decodes a rendered read: each event's text (filled in by the statement; an occurrence's own values
 * filled in here), or its record (assembled for an anonymous viewer) when it has no text.
 */
export function readRendered(rows: RenderedRow[], urls: Urls): RenderedItem[] {
  let related: RelatedRows = { venues: [], organizers: [], terms: [], media: [] };
  const bare: Array<{
    row: EventRow;
    gen: number | null;
    at: number;
    occurrence: OccurrenceRow | null;
  }> = [];
  const items: Array<RenderedItem | null> = [];
  const fill = filler(urls);
  // The occurrences of one series share its text and its row: the statement sends each once per
  // answer (`RenderedRow.held` 2, `row`), read here from the row that carried it.
  const textOf = (r: RenderedRow) => `${r.occurrence === null ? "" : "o"}${r.src}`;
  const carried = new Map<string, string>();
  const rowOf = new Map<number | null, string>();
  for (const r of rows) {
    if (r.id === null) continue;
    if (r.text !== null) carried.set(textOf(r), r.text);
    if (r.row !== null) rowOf.set(r.src, r.row);
  }
  for (const r of rows) {
    if (r.related !== null) related = relatedFromText(r.related);
    if (r.id === null) continue;
    // An occurrence of a series shows its series' `occurrence` text with its own row (contract §7.8).
    const occurrence =
      r.occurrence === null ? null : decodeRow(eventOccurrences, JSON.parse(r.occurrence));
    const text = r.held === 2 ? carried.get(textOf(r)) : r.text;
    if (text !== null && text !== undefined) {
      items.push({ bytes: utf8(occurrence ? fill(text, {}, occurrence) : text) });
    } else {
      bare.push({
        row: decodeEventRow(JSON.parse(r.row ?? rowOf.get(r.src) ?? "{}")),
        gen: r.gen,
        at: items.length,
        occurrence,
      });
      items.push(null);
    }
  }
  const records = assemble(
    bare.map((b) => b.row),
    related,
    null,
  );
  bare.forEach((b, n) => {
    const source = records[n];
    const record = b.occurrence ? occurrenceRecord(source, b.occurrence) : source;
    items[b.at] = { record, source, gen: b.gen };
  });
  return items as RenderedItem[];
}

/**
 * The JSON texts (UTF-8) of a rendered page read, in order: stored ones as filled in, the others
 * serialized by `serialize`, and those with a missing or stale rendering stored after the answer.
 */
export function renderedTexts(
  c: AppContext,
  rows: RenderedRow[],
  serialize: (record: EventRecord) => string,
): Uint8Array<ArrayBuffer>[] {
  const toStore = new Map<number, ToStore>();
  const out = readRendered(rows, c.get("urls")).map((item) => {
    if ("bytes" in item) return item.bytes;
    if (item.gen !== null) toStore.set(item.source.row.id, { record: item.source, gen: item.gen });
    return utf8(serialize(item.record));
  });
  storeAfterAnswer(c, [...toStore.values()]);
  return out;
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
