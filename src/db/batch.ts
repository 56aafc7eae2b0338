/**
 * Named, typed batches: queries collected under names, run as one `db.batch()` (one D1 round trip),
 * their results read back by name with the type of the query that produced them — never by
 * position. Two forms:
 *
 * - `runBatch(db, { total, rows, checks: {...} })` for a batch whose shape is known where it is
 *   built (entries may be `undefined`: left out of the batch, `undefined` in the answer);
 * - `NamedBatch` for a batch several helpers add to (`add` returns a typed key, `get(key)` its result).
 */
import type { Db } from "./client";

/** Anything drizzle accepts in a batch. */
export type BatchQuery = Parameters<Db["batch"]>[0][number];

/** What a query answers in a batch: its rows for a select, its result for a write. */
export type BatchResult<Q> = Q extends { readonly _: { readonly result: infer R } } ? R : never;

/** A group of queries: by name, or a list (e.g. the writes of a write batch). */
export type BatchGroup = { readonly [name: string]: BatchQuery } | readonly BatchQuery[];

/** One entry of `runBatch`: a query, a group of queries, or `undefined` (not run). */
export type BatchEntry = BatchQuery | BatchGroup | undefined;

/** The result of one entry (distributes over `query | undefined`): a group's by name or position. */
export type EntryResult<E> = E extends BatchQuery
  ? BatchResult<E>
  : E extends undefined
    ? undefined
    : { [G in keyof E]: BatchResult<E[G]> };

/** The results of `runBatch`'s entries, under the same names. */
export type BatchResults<E extends Record<string, BatchEntry>> = {
  [K in keyof E]: EntryResult<E[K]>;
};

/** A group of queries is an array or a plain object; a query is an instance of a drizzle builder. */
const isGroup = (entry: BatchEntry): entry is BatchGroup =>
  Array.isArray(entry) ||
  (entry !== undefined && Object.getPrototypeOf(entry) === Object.prototype);

/**
 * Runs every entry in one batch, in the record's order; answers each result under its name (a
 * group's under its group). No query at all costs no round trip.
 * @example const { total, rows } = await runBatch(db, { total: countQuery, rows: pageQuery });
 */
export async function runBatch<E extends Record<string, BatchEntry>>(
  db: Db,
  entries: E,
): Promise<BatchResults<E>> {
  const queries: BatchQuery[] = [];
  for (const entry of Object.values(entries)) {
    if (isGroup(entry)) queries.push(...Object.values(entry as Record<string, BatchQuery>));
    else if (entry !== undefined) queries.push(entry as BatchQuery);
  }
  const results = queries.length ? ((await db.batch(queries as never)) as unknown[]) : [];
  let next = 0;
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(entries) as Array<[string, BatchEntry]>) {
    if (Array.isArray(entry)) out[name] = entry.map(() => results[next++]);
    else if (isGroup(entry))
      out[name] = Object.fromEntries(Object.keys(entry).map((key) => [key, results[next++]]));
    else out[name] = entry === undefined ? undefined : results[next++];
  }
  return out as BatchResults<E>;
}

/** The typed name of one entry of a `NamedBatch`; `get` and `maybe` answer its result. */
export interface BatchKey<T> {
  readonly name: string;
  /**
   * Type only: the result the key reads. A parameter, so a key declared ahead (`batchKey<T>`)
   * accepts any query whose result is assignable to `T`.
   */
  readonly __result?: (result: T) => void;
}

/**
 * A key made ahead of the query, for helpers that add under a name in one place and read it in
 * another: `add(key, query)` only compiles when the query answers `T`.
 * @example const TERMS = batchKey<Array<{ id: number }>>("categories:terms");
 */
export const batchKey = <T>(name: string): BatchKey<T> => ({ name });

/**
 * A batch several helpers add to, read back through typed keys: `add` returns the key of its
 * query (or takes one made with `batchKey`), `run` runs everything in one round trip, `get(key)`
 * answers that query's result.
 */
export class NamedBatch {
  private readonly entries: Record<string, BatchEntry> = {};
  private results: Record<string, unknown> | null = null;

  /** Adds a query under a name (unique within the batch) or a key made with `batchKey`. */
  add<Q extends BatchQuery>(
    key: string | BatchKey<BatchResult<Q>>,
    query: Q,
  ): BatchKey<BatchResult<Q>> {
    return this.put(typeof key === "string" ? key : key.name, query);
  }

  /** Adds a group of queries (by name or a list) under one name; its key reads the group's results. */
  addGroup<G extends BatchGroup>(name: string, group: G): BatchKey<EntryResult<G>> {
    return this.put(name, group);
  }

  private put<T>(name: string, entry: BatchEntry): BatchKey<T> {
    if (name in this.entries) throw new Error(`duplicate batch entry ${name}`);
    this.entries[name] = entry;
    return { name };
  }

  get size(): number {
    return Object.keys(this.entries).length;
  }

  /** Runs every query in one batch (none: no round trip). */
  async run(db: Db): Promise<this> {
    this.results = await runBatch(db, this.entries);
    return this;
  }

  /** The result of an entry of the batch, after `run`. */
  get<T>(key: BatchKey<T>): T {
    if (!this.results || !(key.name in this.results))
      throw new Error(`batch entry ${key.name} has not run`);
    return this.results[key.name] as T;
  }

  /** The result of an entry that may not have been added: `undefined` then. */
  maybe<T>(key: BatchKey<T> | undefined): T | undefined {
    if (!this.results) throw new Error("the batch has not run");
    return key === undefined ? undefined : (this.results[key.name] as T | undefined);
  }
}
