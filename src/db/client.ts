/**
 * The drizzle handle of one request, over a D1 session (contract §2: read replication), counting D1
 * round trips so that the "at most 2 per GET" budget is visible (`Server-Timing: d1;desc="N round
 * trips"`) to tests and to `npm run bench`.
 */
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof drizzle<typeof schema>>;

/** Round trips made so far by one request. */
export interface RoundTrips {
  count: number;
}

class CountingStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly trips: RoundTrips,
  ) {}
  bind(...values: unknown[]) {
    return new CountingStatement(this.inner.bind(...values), this.trips);
  }
  first(col?: string) {
    this.trips.count++;
    return col === undefined ? this.inner.first() : this.inner.first(col);
  }
  run() {
    this.trips.count++;
    return this.inner.run();
  }
  all() {
    this.trips.count++;
    return this.inner.all();
  }
  raw(options?: { columnNames?: boolean }) {
    this.trips.count++;
    return this.inner.raw(options as { columnNames?: false });
  }
}

class CountingSession {
  constructor(
    private readonly inner: D1DatabaseSession | D1Database,
    readonly trips: RoundTrips,
  ) {}
  prepare(query: string) {
    return new CountingStatement(this.inner.prepare(query), this.trips);
  }
  batch(statements: Array<CountingStatement | D1PreparedStatement>) {
    this.trips.count++;
    return this.inner.batch(statements.map((s) => (s instanceof CountingStatement ? s.inner : s)));
  }
  exec(query: string) {
    this.trips.count++;
    return (this.inner as D1Database).exec(query);
  }
  getBookmark(): string | null {
    return "getBookmark" in this.inner ? this.inner.getBookmark() : null;
  }
}

export interface RequestDb {
  db: Db;
  trips: RoundTrips;
  /** The session's latest bookmark, for the `x-d1-bookmark` response header. */
  bookmark(): string | null;
}

/**
 * Opens the request's D1 session: at the client's bookmark when it sent one (read-your-writes),
 * else at the primary for writes and anywhere for reads.
 */
export function openDb(d1: D1Database, options: { write: boolean; bookmark?: string | null }): RequestDb {
  const constraint = options.bookmark || (options.write ? "first-primary" : "first-unconstrained");
  let session: D1DatabaseSession | D1Database;
  try {
    session = typeof d1.withSession === "function" ? d1.withSession(constraint) : d1;
  } catch {
    // A malformed bookmark: start a fresh session instead of failing the request.
    session = d1.withSession(options.write ? "first-primary" : "first-unconstrained");
  }
  const counting = new CountingSession(session, { count: 0 });
  return {
    db: drizzle(counting as unknown as D1Database, { schema }),
    trips: counting.trips,
    bookmark: () => counting.getBookmark(),
  };
}
