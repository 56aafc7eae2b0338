/**
 * A bounded, least-recently-used memo for per-isolate work that repeats from request to request
 * (route matches, entity tags, known URLs, kept answers, rendered events' texts, parsed
 * dates). Entries are pure functions of their key (or keyed by what makes them valid), so any entry
 * may be dropped at any time.
 */
export class Memo<V> {
  readonly #entries = new Map<string, V>();
  #weight = 0;

  /**
   * @param max the most total weight kept; the least recently used go first beyond it.
   * @param weigh an entry's weight (default 1: `max` counts entries; e.g. a text's length).
   */
  constructor(
    readonly max: number,
    readonly weigh: (value: V) => number = () => 1,
  ) {}

  /**
   * The value for `key`, computed by `make` when not kept (and then kept).
   * @example new Memo<number>(2).get("a", () => 1) // 1; a second get("a", …) does not call make
   */
  get(key: string, make: () => V): V {
    const kept = this.find(key);
    if (kept !== undefined) return kept;
    const value = make();
    this.set(key, value);
    return value;
  }

  /** The value kept for `key`, marked as recently used; undefined when none is kept. */
  find(key: string): V | undefined {
    const kept = this.#entries.get(key);
    if (kept !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, kept);
    }
    return kept;
  }

  /** Keeps `value` for `key` (replacing what was kept), as the most recently used. */
  set(key: string, value: V): void {
    const entries = this.#entries;
    const old = entries.get(key);
    if (old !== undefined) {
      entries.delete(key);
      this.#weight -= this.weigh(old);
    }
    entries.set(key, value);
    this.#weight += this.weigh(value);
    for (const [oldest, entry] of entries) {
      if (this.#weight <= this.max) break;
      entries.delete(oldest);
      this.#weight -= this.weigh(entry);
    }
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }

  /** How many entries are kept (tests). */
  get size(): number {
    return this.#entries.size;
  }
}
