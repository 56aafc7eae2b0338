/**
 * The datasets of `npm run bench`, each in its own local D1 state directory `.wrangler/bench/<name>`
 * (a `--persist-to` folder): `demo`, the demo calendar of `npm start`, or a number of generated events
 * (./generate.ts). A directory is migrated (`wrangler d1 migrations apply`), seeded by ./seeder.ts,
 * and reused by later runs while its marker (`bench-dataset.json`) is current: the same generator
 * version, the same number of events in the data, and for the demo calendar (built around today) a
 * day at most `DEMO_MAX_AGE_DAYS` ago. Migrations added since are applied to a reused directory.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../lib/paths";
import { wranglerEnv } from "../lib/wrangler";
import { GENERATOR_VERSION } from "./generate";
import type { Facts, SeederArgs, SeederResult } from "./seeder";
import { finished, spawnTracked, wrangler } from "./servers";

/** A reused demo directory built around a day older than this is rebuilt (~10 s). */
const DEMO_MAX_AGE_DAYS = 7;
/** Bump when the demo dataset is seeded differently. */
const DEMO_VERSION = 2;

/** How a dataset directory was seeded (its marker file). */
export interface SeedReport {
  dataset: string;
  version: number;
  dir: string;
  reused: boolean;
  /** Wall time of the seeding (migrations included). */
  seconds: number;
  migrateSeconds: number;
  batches: number;
  splits: number;
  sqlBytes: number;
  /** Events the data must hold. */
  events: number;
  seededAt: string;
  /** Site-local day the calendar was built around (its dates are relative to it). */
  today: string;
}

export interface DatasetOptions {
  /** `demo` or a number of events. */
  dataset: string;
  /** The state directory, relative to the project root. */
  dir: string;
  /** Site-local `yyyy-MM-dd`. */
  today: string;
  siteTimezone: string;
  reseed: boolean;
  log: (line: string) => void;
}

/** Runs ./seeder.ts over `dir` in its own process group (its workerd stops with it). */
async function runSeeder(args: SeederArgs, log: (line: string) => void): Promise<SeederResult> {
  const script = path.join(import.meta.dirname, "seeder.ts");
  const child = spawnTracked(process.execPath, ["--import", "tsx", script, JSON.stringify(args)], {
    cwd: ROOT,
    env: wranglerEnv(),
  });
  let pending = "";
  const out = await finished(child, `seeding ${args.dir}`, (text) => {
    const lines = (pending + text).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("progress: ")) log(line.slice(10));
  });
  return JSON.parse(out.trim().split("\n").pop() ?? "") as SeederResult;
}

/** Applies the migrations the directory does not have yet; returns the seconds it took. */
async function migrate(dir: string): Promise<number> {
  const t0 = performance.now();
  await wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", dir]);
  return (performance.now() - t0) / 1000;
}

/** Why a marker cannot be reused, or null when it can. */
function stale(m: SeedReport | null, o: DatasetOptions, version: number): string | null {
  if (o.reseed) return "--reseed: rebuilding it";
  if (!m || m.dataset !== o.dataset) return "no complete dataset: seeding anew";
  if (m.version !== version)
    return `built by version ${m.version} of its generator (now ${version}): rebuilding it`;
  const age = (Date.parse(o.today) - Date.parse(m.today)) / 86_400_000;
  if (o.dataset === "demo" && (age < 0 || age > DEMO_MAX_AGE_DAYS))
    return `built around ${m.today}: rebuilding it around ${o.today}`;
  return null;
}

/**
 * A migrated, seeded directory for the dataset, and its facts (read from the data).
 * @throws Error when a migration or the seeding fails, or the data does not hold its events.
 */
export async function ensureDataset(
  o: DatasetOptions,
): Promise<{ seed: SeedReport; facts: Facts }> {
  const markerFile = path.join(o.dir, "bench-dataset.json");
  const version = o.dataset === "demo" ? DEMO_VERSION : GENERATOR_VERSION;
  let marker: SeedReport | null = null;
  try {
    marker = JSON.parse(readFileSync(markerFile, "utf8")) as SeedReport;
  } catch {
    // none, or unreadable
  }
  const common = { dir: o.dir, today: o.today, siteTimezone: o.siteTimezone };
  const why = stale(marker, o, version);
  if (marker && !why) {
    try {
      await migrate(o.dir);
      const { facts } = await runSeeder(common, o.log);
      if (facts.events === marker.events)
        return { seed: { ...marker, dir: o.dir, reused: true }, facts };
      o.log(`${o.dir} holds ${facts.events} events, not ${marker.events}: seeding anew`);
    } catch (err) {
      o.log(
        `${o.dir} is not usable (${err instanceof Error ? err.message.split("\n")[0] : String(err)}): seeding anew`,
      );
    }
  } else if (existsSync(o.dir)) o.log(`${o.dir}: ${why}`);
  const t0 = performance.now();
  rmSync(o.dir, { recursive: true, force: true });
  mkdirSync(o.dir, { recursive: true });
  const migrateSeconds = await migrate(o.dir);
  o.log(`migrations applied (${migrateSeconds.toFixed(1)} s)`);
  const { seed, facts } = await runSeeder({ ...common, seed: o.dataset }, o.log);
  if (!seed || facts.events !== seed.expected)
    throw new Error(`seeding ${o.dir} left ${facts.events} events instead of ${seed?.expected}`);
  const report: SeedReport = {
    dataset: o.dataset,
    version,
    dir: o.dir,
    reused: false,
    seconds: (performance.now() - t0) / 1000,
    migrateSeconds,
    batches: seed.batches,
    splits: seed.splits,
    sqlBytes: seed.sqlBytes,
    events: seed.expected,
    seededAt: new Date().toISOString(),
    today: o.today,
  };
  writeFileSync(markerFile, `${JSON.stringify(report, null, 2)}\n`);
  return { seed: report, facts };
}
