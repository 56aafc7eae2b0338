/**
 * Rendered events the isolate has read from D1 (issue 16), so that a read need not fetch them
 * again. Most misses repeat a query the isolate answered before — after a write moved the content
 * version (and with it every cached answer), or under another URL — and find the same events at
 * the same generations: the read statement is told which `id:gen` renderings this isolate holds
 * (those of the query's last answer) and leaves their texts out (src/events/rendered.ts). A
 * rendering is the same text for the same event, generation and settings (`gen` moves with every
 * change, src/events/render-store.ts), so a remembered one is never out of date.
 *
 * Bounded: texts by total length (least recently used out first), queries by count.
 */
import { Memo } from "../http/memo";
import type { Settings } from "../settings";

/** Characters of stored text kept per isolate (~2,000 events). */
const MAX_CHARS = 8 * 1024 * 1024;
/** Bytes of filled-in texts kept per isolate. */
const MAX_FILLED_BYTES = 8 * 1024 * 1024;

/** Which rendering of an event: as a list shows it, or as a single GET does. */
export type TextKind = "list" | "single";

class TextMemory {
  /** Texts read from D1, by kind and `id:gen`. */
  readonly #texts = new Memo<string>(MAX_CHARS, (text) => text.length);
  /** Texts as answered (URLs and counts filled in, UTF-8), by kind, `id:gen`, URLs and counts. */
  readonly #filled = new Memo<Uint8Array<ArrayBuffer>>(MAX_FILLED_BYTES, (b) => b.byteLength);
  /**
   * Each query's last answer: its `id:gen` pairs, whether every rendering was fresh, and the
   * content version it was read at.
   */
  readonly #queries = new Memo<{ pairs: string[]; allFresh: boolean; version?: number }>(2048);

  /** The text kept for `kind:id:gen`, marked as recently used. */
  text(kind: TextKind, pair: string): string | undefined {
    return this.#texts.find(`${kind}:${pair}`);
  }

  /** Keeps a text read from D1. */
  keep(kind: TextKind, pair: string, text: string): void {
    this.#texts.set(`${kind}:${pair}`, text);
  }

  /**
   * The bytes of a text as answered for these URLs and counts (`filledKey`), made by `make` when not
   * kept: the same event at the same generation, under the same URLs with the same counts, is the
   * same bytes.
   */
  filled(key: string, make: () => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
    return this.#filled.get(key, make);
  }

  /**
   * What to tell the statement for `query`: the `id:gen` pairs of its last answer whose texts are
   * still kept, with the texts (held here, so that nothing evicts them meanwhile), and whether it
   * may be lean (src/events/rendered-sql.ts `ReadPlan`): the last answer had every rendering fresh
   * and was read at `version`, the content version the request expects — no write anonymous
   * readers could see has happened since, so no rendering of the answer can have gone stale.
   */
  known(
    kind: TextKind,
    query: string,
    version: number | undefined,
  ): { held: Map<string, string>; lean: boolean } {
    const last = this.#queries.find(query);
    const held = new Map<string, string>();
    for (const pair of last?.pairs ?? []) {
      const text = this.text(kind, pair);
      if (text !== undefined) held.set(pair, text);
    }
    return {
      held,
      lean: (last?.allFresh ?? false) && version !== undefined && last?.version === version,
    };
  }

  /** Remembers `query`'s answer: its `id:gen` pairs, whether every rendering was fresh, its version. */
  answered(query: string, pairs: string[], allFresh: boolean, version: number | undefined): void {
    this.#queries.set(query, { pairs, allFresh, version });
  }
}

const memories = new WeakMap<Settings, TextMemory>();

/** The memory of rendered events for these settings (renderings depend on them). */
export function renderingMemory(settings: Settings): TextMemory {
  let memory = memories.get(settings);
  if (!memory) {
    memory = new TextMemory();
    memories.set(settings, memory);
  }
  return memory;
}

/** The key of a filled-in text: kind, `id:gen`, the request's URL bases and the counts as read. */
export const filledKey = (
  kind: TextKind,
  pair: string,
  base: string,
  counts: string | null,
): string => `${kind}:${pair}\u0000${base}\u0000${counts ?? ""}`;
