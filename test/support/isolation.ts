/**
 * Per-test isolation (test/setup.ts): storage as a freshly migrated database with the strings in
 * KV, and a way to wait for the edge-cache writes a response leaves behind instead of sleeping.
 * Fixtures that are expensive to build are put back by their rows instead (restorable.ts).
 *
 * Storage is isolated per test file only (TOOLCHAIN.md gotcha 3), and test files share workers, so
 * every test starts with `freshStorage()`. Its slow path is `reset()` (D1, KV, the Cache API and the
 * `AUTH_FAILURES` rate-limit buckets are all Durable-Object backed in miniflare) plus the migrations,
 * about 60 ms; its fast path empties the tables in one D1 batch, about 10 ms. The fast path is taken
 * when nothing but rows can differ from a fresh database:
 *
 * - the schema is the migrated one (tests inject failing triggers; a changed schema → slow path);
 * - the rate limiter was not called since the last reset (its buckets survive anything but reset());
 * - KV: the strings (the only keys anything writes) are put again when a key was put or deleted
 *   since they were last put (KV's `put` and `delete` are watched; a test that calls `reset()` itself
 *   must put them back, as test/import/tec-copy.test.ts does, or anything that writes KV does);
 * - the Cache API keeps its entries, but their keys hold the content version, which the fast path
 *   moves past every version used before, so no entry can be hit again.
 */
import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { stringsKey } from "../../src/i18n";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";

/** Rows of the ordinary tables, by table, and `sqlite_sequence` (AUTOINCREMENT counters). */
export interface Rows {
  rows: Array<{ table: string; row: Record<string, unknown> }>;
  sequences: Array<{ name: string; seq: number }>;
}

/** What a fresh database holds besides its schema, and how to get back to it by deleting rows. */
export interface Snapshot extends Rows {
  /** Every schema object (type, name, SQL): a test that changed it needs the slow path. */
  schema: string;
  /** Ordinary tables to empty (not the FTS5 tables, `d1_migrations`, `sqlite_*`, `_cf_*`). */
  tables: string[];
  /** FTS5 tables: emptied with their `delete-all` command after the rows they index are gone. */
  fts: string[];
  /** Of `tables`, those triggers write (derived data: renderings, the webhook outbox, …). */
  derived: string[];
}

/**
 * Kept on `globalThis`: setup files and their imports are evaluated again for every test file, the
 * worker's isolate (and so its storage, the patched prototypes and what is pending) stays.
 */
interface IsolationState {
  snapshot?: Snapshot;
  /** The rate limiter was called since the last `reset()`. */
  limiterUsed: boolean;
  /** KV holds the strings as `putStrings` put them: nothing was put or deleted since. */
  stringsIntact: boolean;
  /** Edge-cache writes (`cache.put`) not yet settled, whoever started them. */
  pendingPuts: Set<Promise<unknown>>;
  /** Prototypes already patched (`track`). */
  patched: boolean;
}
const holder = globalThis as { [key: symbol]: IsolationState | undefined };
const KEY = Symbol.for("tec-edge.test.isolation");
holder[KEY] ??= {
  limiterUsed: true,
  stringsIntact: false,
  pendingPuts: new Set(),
  patched: false,
};
const state = holder[KEY];

/** The table `applyD1Migrations` (cloudflare:test) records applied migrations in, same columns. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations" (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;
const SCHEMA_QUERY =
  "SELECT group_concat(type || ' ' || name || ' ' || coalesce(sql, ''), char(10)) AS schema FROM (SELECT * FROM sqlite_master ORDER BY type, name)";
export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** Every content version of a test is below its start plus this (each write bumps it by one). */
const VERSION_STRIDE = 1_000_000_000;

/**
 * Applies every migration to the empty database in one D1 batch (one transaction, one round trip),
 * recording each in `d1_migrations` as `applyD1Migrations` does; that helper spends a round trip per
 * migration plus two.
 */
async function migrate(): Promise<void> {
  const db = env.DB;
  const record = db.prepare('INSERT INTO "d1_migrations" (name) VALUES (?)');
  const statements = [db.prepare(MIGRATIONS_TABLE)];
  for (const migration of env.TEST_MIGRATIONS)
    statements.push(...migration.queries.map((q) => db.prepare(q)), record.bind(migration.name));
  await db.batch(statements);
}

/**
 * The strings of every language, where `loadStrings` (src/i18n) reads them; nothing to do while
 * they are intact (two KV writes of the whole strings cost more than emptying the database).
 */
async function putStrings(): Promise<void> {
  if (state.stringsIntact) return;
  await Promise.all([
    env.STRINGS.put(stringsKey("en"), JSON.stringify(en)),
    env.STRINGS.put(stringsKey("de"), JSON.stringify(de)),
  ]);
  state.stringsIntact = true;
}

/** Every row of `tables` and the AUTOINCREMENT counters, in one round trip. */
export async function readRows(tables: string[]): Promise<Rows> {
  const db = env.DB;
  const [sequence, ...contents] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT name, seq FROM sqlite_sequence"),
    ...tables.map((t) => db.prepare(`SELECT * FROM ${quote(t)}`)),
  ]);
  return {
    rows: tables.flatMap((table, i) => contents[i].results.map((row) => ({ table, row }))),
    sequences: sequence.results as Array<{ name: string; seq: number }>,
  };
}

/**
 * An `INSERT` of one row as `SELECT *` read it; `replace`: `INSERT OR REPLACE`, over a row the
 * triggers of an earlier insert wrote.
 */
export function insertRow(
  table: string,
  row: Record<string, unknown>,
  replace = false,
): D1PreparedStatement {
  const columns = Object.keys(row);
  return env.DB.prepare(
    `INSERT${replace ? " OR REPLACE" : ""} INTO ${quote(table)} (${columns.map(quote).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  ).bind(...columns.map((c) => row[c]));
}

/** The tables trigger bodies insert into, update or delete from. */
function triggerTargets(triggers: Array<{ sql: string | null }>): Set<string> {
  const out = new Set<string>();
  for (const { sql } of triggers) {
    const body = (sql ?? "").slice((sql ?? "").search(/\bBEGIN\b/i));
    for (const m of body.matchAll(
      /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+[`"[]?(\w+)/gi,
    ))
      out.add(m[1]);
  }
  return out;
}

/** Reads what the freshly migrated database holds (three round trips, once per worker). */
async function takeSnapshot(): Promise<Snapshot> {
  const db = env.DB;
  const schema = (await db.prepare(SCHEMA_QUERY).first<{ schema: string }>())!.schema;
  const { results: objects } = await db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger')")
    .all<{ type: string; name: string; sql: string | null }>();
  const targets = triggerTargets(objects.filter((o) => o.type === "trigger"));
  const fts = objects.filter(
    (o) => o.type === "table" && /^CREATE VIRTUAL TABLE .* USING fts5/is.test(o.sql ?? ""),
  );
  const shadow = (name: string) => fts.some((f) => name.startsWith(`${f.name}_`));
  const tables = objects
    .filter((o) => o.type === "table")
    .map((o) => o.name)
    .filter(
      (n) =>
        !/^(sqlite_|_cf_)/.test(n) &&
        n !== "d1_migrations" &&
        !fts.some((f) => f.name === n) &&
        !shadow(n),
    );
  return {
    schema,
    tables,
    fts: fts.map((f) => f.name),
    derived: tables.filter((t) => targets.has(t)),
    ...(await readRows(tables)),
  };
}

/**
 * Empties every table and puts back what the migrations inserted, in one batch; the content version
 * moves past every version used so far. Checks the schema in the same round trip.
 * @returns false when the schema differs from the snapshot's or the batch failed (the rows may be
 *   gone, the schema is as the test left it: the caller resets).
 */
async function wipe(s: Snapshot): Promise<boolean> {
  const db = env.DB;
  const statements = [
    db.prepare(SCHEMA_QUERY),
    db.prepare("PRAGMA defer_foreign_keys = on"),
    ...s.tables
      .filter((t) => t !== "content_version")
      .map((t) => db.prepare(`DELETE FROM ${quote(t)}`)),
    ...s.fts.map((t) => db.prepare(`INSERT INTO ${quote(t)}(${quote(t)}) VALUES('delete-all')`)),
    db.prepare("DELETE FROM sqlite_sequence"),
    ...s.sequences.map((q) =>
      db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").bind(q.name, q.seq),
    ),
    ...s.rows.filter((r) => r.table !== "content_version").map((r) => insertRow(r.table, r.row)),
    // Not deleted: its next value must stay above every earlier one (cache keys hold it).
    db.prepare(`UPDATE content_version SET version = version + ${VERSION_STRIDE}`),
  ];
  try {
    const [schema] = await db.batch<{ schema: string }>(statements);
    return schema.results[0]?.schema === s.schema;
  } catch {
    return false;
  }
}

/**
 * Storage as a freshly migrated database with the strings in KV (see the file comment for the two
 * paths). Call `settleEdgeCache()` first: a cache write still in flight would land after it.
 *
 * `reset()` now and then leaves the previous database in place (seen on the first test of a file
 * that follows a heavy one, with workers shared between files, and after tens of thousands of
 * requests): the migration batch then fails on its first `CREATE TABLE`, atomically, and a second
 * `reset()` has always been enough. So no test runs on the old rows, as with `applyD1Migrations`
 * (which skips migrations it finds recorded).
 * @returns whether the strings were put into KV anew: strings the isolate keeps (src/i18n) may then
 *   be stale; otherwise KV holds exactly what they were read from.
 * @throws Error when the database survives three resets.
 */
export async function freshStorage(): Promise<boolean> {
  track();
  const stringsPut = !state.stringsIntact;
  const s = state.snapshot;
  if (s && !state.limiterUsed) {
    const [wiped] = await Promise.all([wipe(s), putStrings()]);
    if (wiped) return stringsPut;
  }
  for (let attempt = 1; ; attempt++) {
    await reset();
    state.stringsIntact = false;
    const [schema, strings] = await Promise.allSettled([migrate(), putStrings()]);
    if (strings.status === "rejected") throw strings.reason;
    if (schema.status === "fulfilled") break;
    if (attempt === 3 || !/already exists/.test(String(schema.reason))) throw schema.reason;
  }
  state.limiterUsed = false;
  state.snapshot ??= await takeSnapshot();
  return true;
}

/** What a fresh database holds (known once `freshStorage()` ran in this worker). */
export function freshSnapshot(): Snapshot {
  if (!state.snapshot) throw new Error("no fresh storage yet (test/setup.ts runs freshStorage())");
  return state.snapshot;
}

/**
 * Patches, once per isolate (the worker runs in the test's isolate, SELF included):
 * - `Cache#put`, so `settleEdgeCache()` knows every edge-cache write. src/read-cache/store.ts hands
 *   its put to `waitUntil`, which SELF's execution context never awaits.
 * - the rate limiter's `limit`, so `freshStorage()` knows when only `reset()` will do.
 * - KV's `put` and `delete`, so `freshStorage()` knows when the strings must be put again.
 */
function track(): void {
  if (state.patched) return;
  const cache = Object.getPrototypeOf((caches as unknown as { default: Cache }).default) as Cache;
  const put = cache.put;
  cache.put = function (this: Cache, ...args: Parameters<Cache["put"]>) {
    const promise = put.apply(this, args);
    state.pendingPuts.add(promise);
    const forget = () => state.pendingPuts.delete(promise);
    promise.then(forget, forget);
    return promise;
  };
  const kv = Object.getPrototypeOf(env.STRINGS) as KVNamespace;
  for (const name of ["put", "delete"] as const) {
    const original = kv[name] as (...args: unknown[]) => Promise<void>;
    (kv as unknown as Record<string, unknown>)[name] = function (
      this: KVNamespace,
      ...args: unknown[]
    ) {
      state.stringsIntact = false;
      return original.apply(this, args);
    };
  }
  if (env.AUTH_FAILURES) {
    const limiter = Object.getPrototypeOf(env.AUTH_FAILURES) as RateLimit;
    const limit = limiter.limit;
    limiter.limit = function (this: RateLimit, ...args: Parameters<RateLimit["limit"]>) {
      state.limiterUsed = true;
      return limit.apply(this, args);
    };
  }
  state.patched = true;
}

/** Resolves once every edge-cache write started so far has settled (failures are the worker's to log). */
export async function settleEdgeCache(): Promise<void> {
  while (state.pendingPuts.size > 0) await Promise.allSettled([...state.pendingPuts]);
}
