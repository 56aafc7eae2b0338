/**
 * The drizzle handle of one request, over a D1 session (contract §2: read replication), counting D1
 * round trips so that the "at most 2 per GET" budget is visible (`Server-Timing: d1;desc="N round
 * trips"`) to tests and to `npm run bench`.
 */
import { drizzle } from "drizzle-orm/d1";
import pRetry from "p-retry";
import type * as schema from "./schema";
import { shareParams } from "./shared-params";

export type Db = ReturnType<typeof drizzle<typeof schema>>;

/** Round trips made so far by one request. */
export interface RoundTrips {
  count: number;
}

/** D1 errors that mean "the request did not reach a healthy database; try again" (Cloudflare's list). */
const TRANSIENT =
  /Network connection lost|storage caused object to be reset|reset because its code was updated|D1_ERROR: internal error|Cannot resolve D1 DB due to transient issue|Memory limit would be exceeded/i;

/** How many times a read-only request retries a transient D1 failure. */
export const READ_RETRIES = 3;

/** A D1 call, sent again (`p-retry`: 10, 20, 40 ms) after a transient failure, each try counted. */
function attempt<T>(trips: RoundTrips, retries: number, call: () => Promise<T>): Promise<T> {
  return pRetry(
    () => {
      trips.count++;
      return call();
    },
    {
      retries,
      minTimeout: 10,
      factor: 2,
      randomize: false,
      shouldRetry: ({ error }) => TRANSIENT.test(String(error?.message ?? error)),
    },
  );
}

class CountingStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly trips: RoundTrips,
    private readonly retries: number,
    /** The statement's SQL and its session, to number its parameters (src/db/shared-params.ts). */
    private readonly source?: { query: string; session: D1DatabaseSession | D1Database },
  ) {}
  bind(...values: unknown[]) {
    // Past D1's 100 bound values, equal values share one numbered parameter.
    const shared = this.source && shareParams(this.source.query, values);
    const inner = shared
      ? this.source!.session.prepare(shared.query).bind(...shared.values)
      : this.inner.bind(...values);
    return new CountingStatement(inner, this.trips, this.retries);
  }
  first(col?: string) {
    return attempt(this.trips, this.retries, () =>
      col === undefined ? this.inner.first() : this.inner.first(col),
    );
  }
  run() {
    return attempt(this.trips, this.retries, () => this.inner.run());
  }
  all() {
    return attempt(this.trips, this.retries, () => this.inner.all());
  }
  raw(options?: { columnNames?: boolean }) {
    return attempt(this.trips, this.retries, () =>
      this.inner.raw(options as { columnNames?: false }),
    );
  }
}

/**
 * The statement that reads the content version and the sync clock (src/db/schema.ts
 * `content_version`).
 */
const VERSION_SQL = "SELECT version, version_seq, seq FROM content_version WHERE id = 1";

/**
 * The sync clock as read with a batch (contract §7.3): `seq`, the position of the latest change,
 * and `versionSeq`, that position as of the last change anonymous readers can see.
 */
export interface SyncClock {
  seq: number;
  versionSeq: number;
}

class CountingSession {
  /** Set by `carryVersion`: the next batch also reads the content version. */
  versionWanted = false;
  /** The content version read along with a batch, once it was. */
  versionRead: number | undefined;
  /** The sync clock read with it (in the same snapshot). */
  clockRead: SyncClock | undefined;

  constructor(
    private readonly inner: D1DatabaseSession | D1Database,
    readonly trips: RoundTrips,
    private readonly retries: number,
  ) {}
  prepare(query: string) {
    return new CountingStatement(this.inner.prepare(query), this.trips, this.retries, {
      query,
      session: this.inner,
    });
  }
  async batch(statements: Array<CountingStatement | D1PreparedStatement>) {
    const inner = statements.map((s) => (s instanceof CountingStatement ? s.inner : s));
    if (!this.versionWanted)
      return attempt(this.trips, this.retries, () => this.inner.batch(inner));
    // The version rides along in the same round trip, read in the same snapshot as the data.
    this.versionWanted = false;
    const results = await attempt(this.trips, this.retries, () =>
      this.inner.batch([this.inner.prepare(VERSION_SQL), ...inner]),
    );
    const row = results[0]?.results?.[0] as
      | { version?: number; version_seq?: number; seq?: number }
      | undefined;
    this.versionRead = row?.version ?? 0;
    this.clockRead = { seq: row?.seq ?? 0, versionSeq: row?.version_seq ?? 0 };
    return results.slice(1);
  }
  exec(query: string) {
    return attempt(this.trips, this.retries, () => (this.inner as D1Database).exec(query));
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
  /**
   * Asks the request's next `db.batch()` to read the content version too, in the same round trip
   * and snapshot (an anonymous miss costs one round trip); `versionRead` then gives it.
   */
  carryVersion(): void;
  /** The version read along with a batch (undefined until one ran after `carryVersion`). */
  versionRead(): number | undefined;
  /**
   * The sync clock read with the latest batch that read the version (undefined until one ran
   * after `carryVersion`): src/sync/cursor.ts.
   */
  clockRead(): SyncClock | undefined;
}

/**
 * Opens the request's D1 session: at the client's bookmark when it sent one (read-your-writes),
 * else at the primary for writes and anywhere for reads.
 */
export function openDb(
  d1: D1Database,
  options: { write: boolean; bookmark?: string | null },
): RequestDb {
  const trips: RoundTrips = { count: 0 };
  // Opened on first use: an answer from a cache or a 304 needs no session at all.
  let counting: CountingSession | undefined;
  let handle: Db | undefined;
  let versionWanted = false;
  const open = (): CountingSession => {
    if (counting) return counting;
    const constraint =
      options.bookmark || (options.write ? "first-primary" : "first-unconstrained");
    let session: D1DatabaseSession | D1Database;
    try {
      session = typeof d1.withSession === "function" ? d1.withSession(constraint) : d1;
    } catch {
      // A malformed bookmark: start a fresh session instead of failing the request.
      session = d1.withSession(options.write ? "first-primary" : "first-unconstrained");
    }
    // Only reads are retried: a failed write may or may not have been applied.
    counting = new CountingSession(session, trips, options.write ? 0 : READ_RETRIES);
    counting.versionWanted = versionWanted;
    return counting;
  };
  return {
    get db() {
      // No `schema` option: the relational query API is not used, and building its metadata cost
      // about 0.1 ms on every request.
      handle ??= drizzle(open() as unknown as D1Database) as unknown as Db;
      return handle;
    },
    trips,
    bookmark: () => counting?.getBookmark() ?? null,
    carryVersion: () => {
      versionWanted = true;
      if (counting) counting.versionWanted = true;
    },
    versionRead: () => counting?.versionRead,
    clockRead: () => counting?.clockRead,
  };
}
