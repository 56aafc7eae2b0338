/**
 * Anonymous event reads from the stored renderings (src/events/renderings.ts): one statement per
 * page or single GET (src/events/rendered-sql.ts) answers each event's stored text when it is fresh,
 * its terms' counts, and for every other event its row and what it links to. Texts are filled in
 * for the request; the other events are serialized by the full path (src/events/serialize.ts), and
 * those whose rendering was missing or stale are stored after the answer
 * (src/events/render-store.ts). A rendering that is missing is never an error: the answer is the
 * full path's either way (the differential test, test/read-cache, holds the two together).
 */
import { openDb } from "../db/client";
import { events } from "../db/schema";
import { type AppContext, afterAnswer } from "../http/context";
import type { Urls } from "../http/urls";
import { assemble, decodeRow, type RelatedRows, relatedFromText } from "./load";
import { storeRenderings, type ToStore } from "./render-store";
import type { RenderedRow } from "./rendered-sql";
import { filler, renderKey } from "./renderings";
import type { EventRecord, EventRow } from "./serialize";

/** An event of a rendered read: its filled-in text (UTF-8), or its record to serialize. */
export type RenderedItem =
  | { bytes: Uint8Array<ArrayBuffer> }
  | {
      record: EventRecord;
      /** The generation to store its rendering against; null when it is not to be stored. */
      gen: number | null;
    };

const encoder = new TextEncoder();

/** A text as UTF-8 bytes. */
export const utf8 = (text: string) => encoder.encode(text) as Uint8Array<ArrayBuffer>;

/**
 * Decodes a rendered read: each event's stored text filled in for this request (its URLs and the
 * terms' current counts), or its record (assembled for an anonymous viewer) when it has no text.
 */
export function readRendered(rows: RenderedRow[], urls: Urls): RenderedItem[] {
  let related: RelatedRows = { venues: [], organizers: [], terms: [], media: [] };
  const bare: Array<{ row: EventRow; gen: number | null; at: number }> = [];
  const items: Array<RenderedItem | null> = [];
  const fill = filler(urls);
  for (const r of rows) {
    if (r.related !== null) related = relatedFromText(r.related);
    if (r.id === null) continue;
    if (r.text !== null) {
      items.push({ bytes: utf8(fill(r.text, JSON.parse(r.counts ?? "{}"))) });
    } else {
      bare.push({
        row: decodeRow(events, JSON.parse(r.row ?? "{}")),
        gen: r.gen,
        at: items.length,
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
    items[b.at] = { record: records[n], gen: b.gen };
  });
  return items as RenderedItem[];
}

/** The render key the request's statement asks for (src/events/renderings.ts `renderKey`). */
export const planRead = (c: AppContext): Promise<string> => renderKey(c.get("settings"));

/**
 * The JSON texts (UTF-8) of a rendered page read, in order: stored ones as filled in, the others
 * serialized by `serialize`, and those with a missing or stale rendering stored after the answer.
 */
export function renderedTexts(
  c: AppContext,
  rows: RenderedRow[],
  serialize: (record: EventRecord) => string,
): Uint8Array<ArrayBuffer>[] {
  const toStore: ToStore[] = [];
  const texts = readRendered(rows, c.get("urls")).map((item) => {
    if ("bytes" in item) return item.bytes;
    if (item.gen !== null) toStore.push(item);
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
