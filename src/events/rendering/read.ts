/**
 * Anonymous event reads from the stored renderings (src/events/rendering/format.ts): one statement per
 * page or single GET (src/events/rendering/read-sql.ts) answers each event's stored text when it is fresh,
 * its terms' counts, and for every other event its row and what it links to. Texts are filled in
 * for the request; the other events are serialized by the full path (src/events/serialize.ts), and
 * those whose rendering was missing or stale are stored after the answer
 * (src/events/rendering/store.ts). A rendering that is missing is never an error: the answer is the
 * full path's either way (the differential test, test/read-cache, holds the two together).
 *
 * What the read cache keeps for these reads (src/read-cache/kept.ts; bench/README.md: without it a
 * `per_page=50` miss costs about 1.7× the CPU, most of it moving 200 KB of texts out of D1 again):
 * the texts read, by render key, kind and `id:gen` — a rendering's text never changes for these
 * (`gen` is drawn anew with every change, the render key covers code and settings) — and their UTF-8
 * bytes as filled in for a URL base and term counts. A read names the pairs of its query's last
 * answer whose texts are still kept; the statement leaves those texts out and flags them `held`,
 * and the read takes them from the map it named them from. A read whose query's last answer was all
 * texts at the expected content version is lean (`ReadPlan.lean`).
 */
import { openDb } from "../../db/client";
import { eventOccurrences } from "../../db/schema";
import { type AppContext, afterAnswer, type KeptReads } from "../../http/context";
import type { Urls } from "../../http/urls";
import type { KnownTotal } from "../listed";
import { assemble, decodeEventRow, decodeRow, type RelatedRows, relatedFromText } from "../load";
import type { EventRecord, EventRow } from "../record";
import { type OccurrenceRow, occurrenceRecord } from "../series/occurrences";
import { filler, renderKey } from "./format";
import type { ReadPlan, RenderedRow } from "./read-sql";
import { storeRenderings, type ToStore } from "./store";

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

/** The total kept for an anonymous archive's filters (`query`: its filters as JSON), if any. */
export const knownTotal = (c: AppContext, query: string): KnownTotal | undefined =>
  c.get("kept")?.totals.find(query);

/** Keeps the total a statement answered, at the version it read (none read: nothing kept). */
export function keepTotal(
  c: AppContext,
  query: string,
  read: { version: number | null; total: number },
): void {
  if (read.version !== null)
    c.get("kept")?.totals.set(query, { version: read.version, total: read.total });
}

/** Which rendering of an event: as a list shows it, or as a single GET does. */
export type TextKind = "list" | "single";

/** A rendered read being made: its statement's plan, and what it is (for the isolate's memory). */
export interface PlannedRead extends ReadPlan {
  kind: TextKind;
  /** What the read cache keeps (src/read-cache/kept.ts). */
  kept: KeptReads;
  /** The query (same arguments, same query: a list's filters and page, a single's id or slug). */
  query: string;
}

/**
 * Plans a rendered read of `query`: the render key; the texts of the query's last answer that the
 * isolate still keeps (pinned in the plan's map: the statement leaves exactly these out); and whether
 * it may be lean — the last answer had a text for every event and was read at the content version
 * the read cache expects now (no write anonymous readers could see since, as far as it knows).
 */
export async function planRead(
  c: AppContext,
  kind: TextKind,
  query: string,
  kept: KeptReads,
): Promise<PlannedRead> {
  const key = await renderKey(c.get("settings"));
  const held = new Map<string, string>();
  const last = kept.answers.find(`${kind}|${query}`);
  for (const pair of last?.pairs ?? []) {
    const text = kept.texts.find(`${key}|${kind}|${pair}`);
    if (text !== undefined) held.set(pair, text);
  }
  const expected = c.get("expectedVersion");
  const lean = !!last?.allTexts && expected !== undefined && last.version === expected;
  return { key, held, lean, kind, query, kept };
}

/**
 * Whether a lean read met an event without a text (stale, or gone from the store): its answer would
 * lack that event's row, so the whole read is made again in full — in one snapshot, the content
 * version read again with it — never pieced together from two.
 */
export const needsFullRead = (plan: PlannedRead, rows: RenderedRow[]): boolean =>
  plan.lean && rows.some((r) => r.id !== null && r.text === null && !r.held);

/**
 * Decodes a rendered read: each event's stored text (sent, or held by the plan) filled in for this
 * request (its URLs and the terms' current counts), or its record (assembled for an anonymous
 * viewer) when it has no text. Remembers the texts and the query's answer.
 */
export function readRendered(
  plan: PlannedRead,
  rows: RenderedRow[],
  urls: Urls,
  version: number | undefined,
): RenderedItem[] {
  let related: RelatedRows = { venues: [], organizers: [], terms: [], media: [] };
  const bare: Array<{
    row: EventRow;
    gen: number | null;
    at: number;
    occurrence: OccurrenceRow | null;
  }> = [];
  const items: Array<RenderedItem | null> = [];
  const pairs: string[] = [];
  const fill = filler(urls);
  const base = `${urls.site}\u0000${urls.namespaceRoot}`;
  // The occurrences of one series share its text and its row: the statement sends each once per
  // answer (`RenderedRow.held` 2, `row`), read here from the row that carried it.
  const pairOf = (r: RenderedRow) => `${r.occurrence === null ? "" : "o"}${r.src}:${r.freshGen}`;
  const carried = new Map<string, string>();
  const rowOf = new Map<number | null, string>();
  for (const r of rows) {
    if (r.id === null) continue;
    if (r.text !== null) carried.set(pairOf(r), r.text);
    if (r.row !== null) rowOf.set(r.src, r.row);
  }
  for (const r of rows) {
    if (r.related !== null) related = relatedFromText(r.related);
    if (r.id === null) continue;
    // An occurrence of a series shows its series' `occurrence` text with its own row (contract §7.8).
    const occurrence =
      r.occurrence === null ? null : decodeRow(eventOccurrences, JSON.parse(r.occurrence));
    const pair = pairOf(r);
    const text = r.held === 1 ? plan.held.get(pair) : r.held === 2 ? carried.get(pair) : r.text;
    if (text !== null && text !== undefined) {
      const textKey = `${plan.key}|${plan.kind}|${pair}`;
      if (!r.held) plan.kept.texts.set(textKey, text);
      pairs.push(pair);
      const counts = r.counts ?? "{}";
      const own = occurrence ? `\u0000${r.occurrence}` : "";
      items.push({
        bytes: plan.kept.filled.get(`${textKey}\u0000${base}\u0000${counts}${own}`, () =>
          utf8(fill(text, JSON.parse(counts), occurrence ?? undefined)),
        ),
      });
    } else if (r.held || plan.lean) {
      // The statement leaves out only texts the plan holds or an earlier row carries, and a lean
      // read without a text is made again in full (`needsFullRead`) before it is read: never reached.
      throw new Error(`rendered read of ${pair}: no text and no row`);
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
  plan.kept.answers.set(`${plan.kind}|${plan.query}`, {
    pairs,
    allTexts: bare.length === 0,
    version,
  });
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
  plan: PlannedRead,
  rows: RenderedRow[],
  serialize: (record: EventRecord) => string,
): Uint8Array<ArrayBuffer>[] {
  const toStore = new Map<number, ToStore>();
  const out = readRendered(plan, rows, c.get("urls"), c.get("rdb").versionRead()).map((item) => {
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
