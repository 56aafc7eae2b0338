/**
 * Named batches: collect queries under names, run them as one `db.batch()` (one D1 round trip),
 * read the results back by name.
 */
import type { Db } from "./client";

/** Anything drizzle accepts in a batch. */
export type BatchQuery = Parameters<Db["batch"]>[0][number];

export class NamedBatch {
  private readonly entries: Array<[string, BatchQuery]> = [];

  /** Adds a query; names must be unique within the batch. */
  add(name: string, query: BatchQuery): this {
    if (this.entries.some(([n]) => n === name)) throw new Error(`duplicate batch entry ${name}`);
    this.entries.push([name, query]);
    return this;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Runs every query in one batch; results keyed by name (rows for selects). */
  // biome-ignore lint/suspicious/noExplicitAny: batch results are untyped until issue 15 names and types them.
  async run(db: Db): Promise<Record<string, any>> {
    if (this.entries.length === 0) return {};
    const results = (await db.batch(this.entries.map(([, q]) => q) as never)) as unknown[];
    return Object.fromEntries(this.entries.map(([name], i) => [name, results[i]]));
  }
}
