/**
 * A bounded, least-recently-used memo for per-isolate work that repeats from request to request
 * (route matches, request shapes, kept answers, rendered events' texts, parsed dates): the
 * maintained `lru-cache` package, with the one call the project makes of it everywhere
 * (`get(key, make)`: the kept value, or `make`'s, kept). Entries are pure functions of their key
 * (or keyed by what makes them valid), so any entry may be dropped at any time.
 */
import { LRUCache } from "lru-cache";

/** A kept value, boxed: lru-cache keeps no `null` (parsed dates keep "not a date" too). */
type Box<V> = { value: V };

export class Memo<V> {
  readonly #entries: LRUCache<string, Box<V>>;

  /**
   * @param max the most total weight kept; the least recently used go first beyond it.
   * @param weigh an entry's weight (default 1: `max` counts entries; e.g. a text's length); at least 1.
   */
  constructor(max: number, weigh?: (value: V) => number) {
    this.#entries = weigh
      ? new LRUCache<string, Box<V>>({
          maxSize: max,
          sizeCalculation: (box) => Math.max(1, weigh(box.value)),
        })
      : new LRUCache<string, Box<V>>({ max });
  }

  /**
   * The value for `key`, computed by `make` when not kept (and then kept).
   * @example new Memo<number>(2).get("a", () => 1) // 1; a second get("a", …) does not call make
   */
  get(key: string, make: () => V): V {
    const kept = this.#entries.get(key);
    if (kept !== undefined) return kept.value;
    const value = make();
    this.set(key, value);
    return value;
  }

  /** The value kept for `key`, marked as recently used; undefined when none is kept. */
  find(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** Keeps `value` for `key` (replacing what was kept), as the most recently used. */
  set(key: string, value: V): void {
    this.#entries.set(key, { value });
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries.clear();
  }

  /** How many entries are kept (tests). */
  get size(): number {
    return this.#entries.size;
  }
}
