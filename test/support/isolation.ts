/**
 * Per-test isolation (test/setup.ts, the hardening world): empty storage with the schema and the
 * strings, and a way to wait for the work a response leaves behind instead of sleeping.
 *
 * Storage is isolated per test file only (TOOLCHAIN.md gotcha 3), so every test starts with
 * `reset()`: it empties D1, KV, the Cache API and the `AUTH_FAILURES` rate-limit buckets (all
 * Durable-Object backed in miniflare), which no table wipe could do for the last three.
 */
import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { stringsKey } from "../../src/i18n";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";

/** The table `applyD1Migrations` (cloudflare:test) records applied migrations in, same columns. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations" (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/**
 * Applies every migration to the empty database in one D1 batch (one transaction, one round trip),
 * recording each in `d1_migrations` as `applyD1Migrations` does; that helper spends a round trip per
 * migration plus two, which is most of a test's set-up time.
 */
async function migrate(): Promise<void> {
  const db = env.DB;
  const record = db.prepare('INSERT INTO "d1_migrations" (name) VALUES (?)');
  const statements = [db.prepare(MIGRATIONS_TABLE)];
  for (const migration of env.TEST_MIGRATIONS)
    statements.push(...migration.queries.map((q) => db.prepare(q)), record.bind(migration.name));
  await db.batch(statements);
}

/** The strings of every language, where `loadStrings` (src/i18n) reads them. */
async function putStrings(): Promise<void> {
  await Promise.all([
    env.STRINGS.put(stringsKey("en"), JSON.stringify(en)),
    env.STRINGS.put(stringsKey("de"), JSON.stringify(de)),
  ]);
}

/**
 * Empty storage (D1, KV, cache, rate-limit buckets), then the migrated schema and the strings.
 * Call `settleEdgeCache()` first: a cache write still in flight would land after the reset.
 *
 * `reset()` now and then leaves the previous database in place (seen on the first test of a file
 * that follows a heavy one, with workers shared between files, and after tens of thousands of
 * requests): the migration batch then fails on its first `CREATE TABLE`, atomically, and a second
 * `reset()` has always been enough. So this never runs a test on the old rows, as
 * `applyD1Migrations` (which skips migrations it finds recorded) would.
 * @throws Error when the database survives three resets.
 */
export async function freshStorage(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await reset();
    const [schema, strings] = await Promise.allSettled([migrate(), putStrings()]);
    if (strings.status === "rejected") throw strings.reason;
    if (schema.status === "fulfilled") return;
    if (attempt === 3 || !/already exists/.test(String(schema.reason))) throw schema.reason;
  }
}

/**
 * Edge-cache writes (`cache.put`) not yet settled, whoever started them. Kept on `globalThis`: setup
 * files are evaluated again for every test file, the patched `Cache#put` stays.
 */
const globalState = globalThis as { [key: symbol]: Set<Promise<unknown>> | undefined };
const PENDING = Symbol.for("tec-edge.test.pendingCachePuts");
globalState[PENDING] ??= new Set();
const pendingPuts = globalState[PENDING];

/**
 * Makes every `Cache#put` of this isolate (the worker runs in the test's isolate, SELF included)
 * known to `settleEdgeCache()`. src/http/edge-cache.ts hands its put to `waitUntil`, which SELF's
 * execution context never awaits; the put is still running when the response arrives.
 * Idempotent.
 */
export function trackEdgeCachePuts(): void {
  const proto = Object.getPrototypeOf(
    (caches as unknown as { default: Cache }).default,
  ) as Cache & {
    [key: symbol]: true | undefined;
  };
  const tracked = Symbol.for("tec-edge.test.trackedCachePut");
  if (proto[tracked]) return;
  const put = proto.put;
  proto.put = function (this: Cache, ...args: Parameters<Cache["put"]>) {
    const promise = put.apply(this, args);
    pendingPuts.add(promise);
    const forget = () => pendingPuts.delete(promise);
    promise.then(forget, forget);
    return promise;
  };
  proto[tracked] = true;
}

/** Resolves once every edge-cache write started so far has settled (failures are the worker's to log). */
export async function settleEdgeCache(): Promise<void> {
  while (pendingPuts.size > 0) await Promise.allSettled([...pendingPuts]);
}
