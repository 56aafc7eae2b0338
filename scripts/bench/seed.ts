/**
 * One local D1 state directory per dataset size (`.wrangler/bench/<size>`): migrated with
 * `wrangler d1 migrations apply DB --local --persist-to <dir>`, seeded with the benchmark calendar
 * (./dataset.ts) as multi-row INSERTs, and reused by later runs when it is complete and holds the
 * requested number of events.
 *
 * Two ways to run the INSERTs (same SQL, same rows):
 * - `file`: SQL files of `chunk` events each, run by `wrangler d1 execute DB --local --persist-to <dir>
 *   --file <chunk>`. Each run starts wrangler, Miniflare and workerd (~2 s here) and executes the file
 *   as one D1 batch, i.e. one transaction. Local D1 (a SQLite Durable Object in workerd) fails a
 *   transaction that touches too much data with `SQLITE_NOMEM` (seen at ~5,000 events on an empty
 *   database), so chunks stay small and a chunk that fails that way is split in two and retried
 *   (a failed batch is rolled back whole).
 * - `proxy`: one workerd for the whole seed through wrangler's `getPlatformProxy()` (the local
 *   bindings that `wrangler dev` uses, on the same persisted files), one D1 batch per chunk. Same
 *   SQL and transactions, without a process start per chunk.
 * The FTS triggers of drizzle/0001 fire on every insert in both; they are the bulk of the cost.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../lib/paths";
import { insertRows } from "../lib/sql";
import { WranglerError, wranglerEnv } from "../lib/wrangler";
import { buildDataset, DATASET_VERSION, type DatasetSummary, type EventChunk } from "./dataset";
import { migrate, readMarker, startOver, unusable } from "./dataset-dir";
import { collect, runWranglerTracked as runWrangler, spawnTracked } from "./procs";

export type Seeder = "file" | "proxy";

export interface DatasetFacts {
  events: number;
  venues: number;
  organizers: number;
  publishedListed: number;
  /** Slug and published-event count of the most used category. */
  category: string;
  categoryCount: number;
  /** A published, listed, unprotected event about a month ahead (for `GET /events/{id}`). */
  eventId: number;
}

export interface SeedReport {
  dir: string;
  reused: boolean;
  /** Wall time of this run's seeding (migrations included), or of the original seeding when reused. */
  seconds: number;
  migrateSeconds: number;
  seeder: Seeder;
  /** Executions (files or batches) and events per chunk. */
  chunks: number;
  chunkEvents: number;
  /** Chunks split in two after SQLITE_NOMEM. */
  splits: number;
  sqlBytes: number;
  seededAt: string;
  /** Day the calendar was built around (dates are relative to it). */
  today: string;
  summary: DatasetSummary;
}

interface Marker extends SeedReport {
  version: number;
  size: number;
}

const MARKER = "bench-dataset.json";

/** Statements for one chunk of events, in foreign-key order. */
function chunkSql(c: EventChunk): string[] {
  return [
    ...insertRows("posts", c.posts),
    ...insertRows("events", c.events),
    ...insertRows("event_organizers", c.eventOrganizers),
    ...insertRows("event_terms", c.eventTerms),
  ];
}

/** Splits a chunk into two halves by event (with their registry rows and links). */
function halves(c: EventChunk): [EventChunk, EventChunk] {
  const mid = Math.ceil(c.events.length / 2);
  const firstIds = new Set(c.events.slice(0, mid).map((e) => Number(e.id)));
  const part = (inFirst: boolean): EventChunk => ({
    posts: c.posts.filter((p) => firstIds.has(Number(p.id)) === inFirst),
    events: c.events.filter((e) => firstIds.has(Number(e.id)) === inFirst),
    eventOrganizers: c.eventOrganizers.filter((l) => firstIds.has(Number(l.event_id)) === inFirst),
    eventTerms: c.eventTerms.filter((l) => firstIds.has(Number(l.event_id)) === inFirst),
  });
  return [part(true), part(false)];
}

const isNoMem = (err: unknown) =>
  /SQLITE_NOMEM|out of memory/i.test(err instanceof WranglerError ? err.output : String(err));

/** Runs statements (one transaction) against the state directory. */
export interface Executor {
  run(statements: string[], label: string): Promise<void>;
  close(): Promise<void>;
}

function fileExecutor(dir: string): Executor {
  const sqlDir = path.join(dir, "seed-sql");
  mkdirSync(sqlDir, { recursive: true });
  return {
    async run(statements, label) {
      const file = path.join(sqlDir, `${label}.sql`);
      writeFileSync(file, `${statements.join("\n")}\n`);
      try {
        await runWrangler([
          "d1",
          "execute",
          "DB",
          "--local",
          "--persist-to",
          dir,
          "--yes",
          "--file",
          file,
        ]);
      } finally {
        rmSync(file, { force: true });
      }
    },
    async close() {
      rmSync(sqlDir, { recursive: true, force: true });
    },
  };
}

/** One workerd for all chunks, through wrangler's `getPlatformProxy()` (used by ./seed-proxy.ts). */
export async function proxyExecutor(dir: string, configPath: string): Promise<Executor> {
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<{ DB: D1Database }>({
    configPath,
    persist: { path: path.resolve(dir, "v3") },
    remoteBindings: false,
  });
  const db = proxy.env.DB;
  return {
    async run(statements) {
      await db.batch(statements.map((s) => db.prepare(s)));
    },
    close: () => proxy.dispose(),
  };
}

export interface InsertOptions {
  size: number;
  today: string;
  siteTimezone: string;
  chunkEvents: number;
}

export interface InsertResult {
  executions: number;
  splits: number;
  sqlBytes: number;
  summary: DatasetSummary;
}

/**
 * Generates the calendar and runs it through `exec`: the prelude (registry rows, terms, venues,
 * organizers), then `chunkEvents` events per transaction (halved on SQLITE_NOMEM), then the term
 * recount and a content-version bump.
 */
export async function insertDataset(
  exec: Executor,
  o: InsertOptions,
  log: (line: string) => void,
): Promise<InsertResult> {
  const t0 = performance.now();
  const dataset = buildDataset({ size: o.size, today: o.today, siteTimezone: o.siteTimezone });
  let executions = 0;
  let splits = 0;
  let sqlBytes = 0;
  let done = 0;
  let lastReport = performance.now();
  const run = async (statements: string[], label: string) => {
    sqlBytes += statements.reduce((n, s) => n + Buffer.byteLength(s) + 1, 0);
    executions++;
    await exec.run(statements, label);
  };
  const runChunk = async (chunk: EventChunk, label: string): Promise<void> => {
    try {
      await run(chunkSql(chunk), label);
      done += chunk.events.length;
    } catch (err) {
      if (!isNoMem(err) || chunk.events.length < 2) throw err;
      splits++;
      log(`SQLITE_NOMEM on ${chunk.events.length} events: splitting the chunk in two`);
      const [a, b] = halves(chunk);
      await runChunk(a, `${label}a`);
      await runChunk(b, `${label}b`);
    }
  };
  const p = dataset.prelude;
  await run(
    [
      ...insertRows("posts", p.posts),
      ...insertRows("terms", p.terms),
      ...insertRows("venues", p.venues),
      ...insertRows("organizers", p.organizers),
    ],
    "0000-prelude",
  );
  let index = 0;
  for (const chunk of dataset.chunks(o.chunkEvents)) {
    await runChunk(chunk, `${String(++index).padStart(4, "0")}-events`);
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      log(
        `${done.toLocaleString("en-US")}/${o.size.toLocaleString("en-US")} events (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
    }
  }
  // Term counts as the worker keeps them (published events per term); the triggers moved the
  // content version as the rows landed.
  await run(
    [
      "UPDATE terms SET count = (SELECT count(*) FROM event_terms et JOIN events e ON e.id = et.event_id WHERE et.term_id = terms.id AND e.status = 'publish');",
    ],
    "9999-finish",
  );
  return { executions, splits, sqlBytes, summary: dataset.summary };
}

/** Runs ./seed-proxy.ts in its own process group (so that its workerd is stopped with it on Ctrl-C). */
async function insertViaProxyChild(
  dir: string,
  configPath: string,
  o: InsertOptions,
  log: (line: string) => void,
): Promise<InsertResult> {
  const script = path.join(import.meta.dirname, "seed-proxy.ts");
  const child = spawnTracked(
    process.execPath,
    ["--import", "tsx", script, JSON.stringify({ dir, configPath, ...o })],
    { cwd: ROOT, env: wranglerEnv() },
  );
  let pending = "";
  const out = await collect(
    child,
    (code, all) =>
      new Error(
        `seeding through getPlatformProxy failed (exit ${code}):\n${all.trim().split("\n").slice(-30).join("\n")}`,
      ),
    (text) => {
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("progress: ")) log(line.slice(10));
    },
  );
  const last = out.trim().split("\n").pop() ?? "";
  return JSON.parse(last) as InsertResult;
}

/** Runs one SELECT (one row) with `wrangler d1 execute --json --command`. */
async function queryRow(dir: string, sql: string): Promise<Record<string, unknown> | undefined> {
  const out = await runWrangler([
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    dir,
    "--json",
    "--command",
    sql,
  ]);
  const parsed = JSON.parse(out) as Array<{ results?: Array<Record<string, unknown>> }>;
  return parsed[0]?.results?.[0];
}

/** What the routes need, read from the database itself (so that a reused directory is described as it is). */
export async function readFacts(dir: string, today: string): Promise<DatasetFacts> {
  const ahead = new Date(Date.parse(`${today}T00:00:00Z`) + 30 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const row = await queryRow(
    dir,
    `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM venues) AS venues,
      (SELECT count(*) FROM organizers) AS organizers,
      (SELECT count(*) FROM events WHERE status = 'publish' AND hide_from_listings = 0) AS published_listed,
      (SELECT slug FROM terms WHERE taxonomy = 'tribe_events_cat' ORDER BY count DESC, id LIMIT 1) AS category,
      (SELECT count FROM terms WHERE taxonomy = 'tribe_events_cat' ORDER BY count DESC, id LIMIT 1) AS category_count,
      (SELECT id FROM events WHERE status = 'publish' AND hide_from_listings = 0 AND password_digest = ''
        AND start_date >= '${ahead}' ORDER BY start_date, id LIMIT 1) AS event_id`,
  );
  const n = (k: string) => Number(row?.[k] ?? 0);
  return {
    events: n("events"),
    venues: n("venues"),
    organizers: n("organizers"),
    publishedListed: n("published_listed"),
    category: String(row?.category ?? ""),
    categoryCount: n("category_count"),
    eventId: n("event_id"),
  };
}

export interface EnsureOptions {
  size: number;
  /** State directory (`--persist-to`). */
  dir: string;
  seeder: Seeder;
  chunkEvents: number;
  /** `yyyy-MM-dd`, site-local today. */
  today: string;
  siteTimezone: string;
  configPath: string;
  /** Re-seed even when a complete directory exists. */
  reseed: boolean;
  log: (line: string) => void;
}

/**
 * Returns a migrated, seeded state directory for `size` events, reusing a complete one (marker file
 * present and `events` count equal to `size`; migrations added since are applied to it), else wiping
 * it and seeding anew.
 * @throws WranglerError when a migration or a chunk fails for another reason than SQLITE_NOMEM.
 */
export async function ensureDataset(
  o: EnsureOptions,
): Promise<{ report: SeedReport; facts: DatasetFacts }> {
  const markerFile = path.join(o.dir, MARKER);
  const found = o.reseed ? null : readMarker<Marker>(markerFile);
  const sameSize = found !== null && found.size === o.size;
  if (sameSize) {
    try {
      await migrate(o.dir);
      const facts = await readFacts(o.dir, o.today);
      if (facts.events === o.size) {
        if (found.version !== DATASET_VERSION)
          o.log(
            `note: reusing data of generator v${found.version} (current v${DATASET_VERSION}); --reseed rebuilds it`,
          );
        const { version: _v, size: _s, ...report } = found;
        return { report: { ...report, dir: o.dir, reused: true }, facts };
      }
      o.log(`${o.dir} holds ${facts.events} events, not ${o.size}: seeding anew`);
    } catch (err) {
      o.log(unusable(o.dir, err));
    }
  }
  const t0 = performance.now();
  const migrateSeconds = await startOver(o, sameSize);

  const insert: InsertOptions = {
    size: o.size,
    today: o.today,
    siteTimezone: o.siteTimezone,
    chunkEvents: o.chunkEvents,
  };
  let result: InsertResult;
  if (o.seeder === "proxy") {
    result = await insertViaProxyChild(o.dir, o.configPath, insert, o.log);
  } else {
    const exec = fileExecutor(o.dir);
    try {
      result = await insertDataset(exec, insert, o.log);
    } finally {
      await exec.close();
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const report: SeedReport = {
    dir: o.dir,
    reused: false,
    seconds,
    migrateSeconds,
    seeder: o.seeder,
    chunks: result.executions,
    chunkEvents: o.chunkEvents,
    splits: result.splits,
    sqlBytes: result.sqlBytes,
    seededAt: new Date().toISOString(),
    today: o.today,
    summary: result.summary,
  };
  const facts = await readFacts(o.dir, o.today);
  if (facts.events !== o.size)
    throw new Error(`seeding ${o.dir} left ${facts.events} events instead of ${o.size}`);
  const marker: Marker = { version: DATASET_VERSION, size: o.size, ...report };
  writeFileSync(markerFile, `${JSON.stringify(marker, null, 2)}\n`);
  return { report, facts };
}
