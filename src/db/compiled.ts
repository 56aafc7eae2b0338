/**
 * Statements compiled once per isolate and replayed with each request's session. Building a read's
 * drizzle tree and turning it into SQL text is the largest share of an anonymous miss's own
 * JavaScript (bench/README.md, "Where a miss spends its time"); a read whose SQL text and bound
 * values are a function of a key (its resolved arguments) is built once per key.
 *
 * drizzle's own `.prepare()` cannot serve here: a prepared query belongs to the handle (and so the
 * D1 session) it was made on, and every request opens its own session (src/db/client.ts).
 *
 * Nothing read from the database is kept: only SQL text, the values the request's arguments bind,
 * and drizzle's mapping of result rows (the columns the statement selects). The key must determine
 * every value the statement binds — a caller that puts less in the key gets another request's
 * statement (the differential test, test/read-cache, compares answers with and without).
 */
import { Memo } from "../lib/memo";
import type { BatchQuery } from "./batch";
import type { Db } from "./client";

/** drizzle's prepared query, as its D1 batch uses it (drizzle-orm/d1/session.js `batch`). */
interface Prepared {
  getQuery(): { sql: string; params: unknown[] };
  mapResult(result: unknown, isFromBatch?: boolean): unknown;
}

interface Compiled {
  query: { sql: string; params: unknown[] };
  /** The first build's prepared query: maps result rows by its selection (no session state used). */
  mapper: Prepared;
}

/** Compiled statements per isolate, least recently used out first. */
const statements = new Memo<Compiled>(512);

/** The session drizzle sends a handle's statements to (src/db/client.ts `CountingSession`). */
const clientOf = (db: Db) =>
  (db as unknown as { session: { client: { prepare(sql: string): unknown } } }).session.client;

/** A compiled statement as drizzle's batch takes one (it calls `_prepare()`). */
class Replay {
  constructor(
    private readonly client: { prepare(sql: string): unknown },
    private readonly compiled: Compiled,
  ) {}

  _prepare() {
    const { query, mapper } = this.compiled;
    return {
      getQuery: () => query,
      stmt: this.client.prepare(query.sql),
      mapResult: (result: unknown, isFromBatch?: boolean) => mapper.mapResult(result, isFromBatch),
    };
  }
}

/**
 * The statement `build` makes, built and compiled once per `key` and replayed on `db`'s session;
 * answers the same rows, typed as `build`'s query. `key` must determine the statement's SQL and
 * every value it binds.
 * @example runBatch(db, { total: reused(db, `total|${JSON.stringify(filters)}`, () => countQuery(db, filters)) })
 */
export function reused<Q extends BatchQuery>(db: Db, key: string, build: () => Q): Q {
  let compiled = statements.find(key);
  if (!compiled) {
    const prepared = (build() as unknown as { _prepare(): Prepared })._prepare();
    compiled = { query: prepared.getQuery(), mapper: prepared };
    statements.set(key, compiled);
  }
  return new Replay(clientOf(db), compiled) as unknown as Q;
}

/** Forgets every compiled statement (tests that compare a first build with a replay). */
export function forgetStatements(): void {
  statements.clear();
}
