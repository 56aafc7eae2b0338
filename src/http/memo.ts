/**
 * A bounded, least-recently-used memo for per-isolate work that repeats from request to request
 * (issue 16: route matching, entity tags, the site's URLs). Entries are pure functions of their
 * key, so any entry may be dropped at any time.
 */
export class Memo<V> {
  readonly #entries = new Map<string, V>();

  /** @param maxEntries entries kept; the least recently used goes first beyond it. */
  constructor(readonly maxEntries: number) {}

  /**
   * The value for `key`, computed by `make` when not kept (and then kept).
   * @example new Memo<number>(2).get("a", () => 1) // 1; a second get("a", …) does not call make
   */
  get(key: string, make: () => V): V {
    const entries = this.#entries;
    const kept = entries.get(key);
    if (kept !== undefined) {
      entries.delete(key);
      entries.set(key, kept);
      return kept;
    }
    const value = make();
    entries.set(key, value);
    if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value as string);
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
    entries.delete(key);
    entries.set(key, value);
    if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value as string);
  }

  /** Forgets every entry (tests). */
  clear(): void {
    this.#entries.clear();
  }

  /** How many entries are kept (tests). */
  get size(): number {
    return this.#entries.size;
  }
}
