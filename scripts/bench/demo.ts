/**
 * The `demo` dataset of `npm run bench`: the project's demo calendar (what `npm start` seeds through
 * scripts/lib/seed.ts `seedDemo`: scripts/lib/demo/calendar.ts `buildDemoCalendar`, written as one SQL
 * file by scripts/lib/demo/sql.ts `demoSql`), in its own state directory `.wrangler/bench/demo`:
 * migrated, then the same SQL file run by `wrangler d1 execute --local --persist-to <dir> --file`.
 *
 * The calendar is built around today (the coming 12 months and a few past days). A complete directory
 * is reused (with the migrations added since applied) while it was built less than `DEMO_MAX_AGE_DAYS`
 * ago (it takes ~10 s to rebuild); `--reseed` rebuilds it anyway.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DateTime } from "luxon";
import { resolveZone } from "../../src/time/zone";
import { buildDemoCalendar } from "../lib/demo/calendar";
import { demoSql } from "../lib/demo/sql";
import { migrate, readMarker, startOver, unusable } from "./dataset-dir";
import { runWranglerTracked as runWrangler } from "./procs";
import { type DatasetFacts, readFacts } from "./seed";

/** A reused demo directory built around a day older than this is rebuilt. */
export const DEMO_MAX_AGE_DAYS = 7;

/** How the demo directory was seeded (kept in its marker file). */
export interface DemoSeedReport {
  kind: "demo";
  dir: string;
  reused: boolean;
  /** Wall time of the seeding (migrations included), or of the original seeding when reused. */
  seconds: number;
  migrateSeconds: number;
  sqlBytes: number;
  seededAt: string;
  /** Day the calendar was built around. */
  today: string;
  /** `buildDemoCalendar`'s summary (events by kind, venues, organizers, terms). */
  summary: Record<string, number>;
}

const MARKER = "bench-dataset.json";

export interface DemoOptions {
  /** State directory (`--persist-to`). */
  dir: string;
  /** `yyyy-MM-dd`, site-local today. */
  today: string;
  siteTimezone: string;
  reseed: boolean;
  log: (line: string) => void;
}

/** Days from `from` to `to` (both `yyyy-MM-dd`). */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * Returns the migrated and seeded demo directory, reusing a complete, recent one.
 * @throws WranglerError when a migration or the seed fails.
 */
export async function ensureDemoDataset(
  o: DemoOptions,
): Promise<{ report: DemoSeedReport; facts: DatasetFacts }> {
  const markerFile = path.join(o.dir, MARKER);
  const found = o.reseed ? null : readMarker<DemoSeedReport>(markerFile);
  if (found?.kind === "demo") {
    const age = daysBetween(found.today, o.today);
    if (age > DEMO_MAX_AGE_DAYS || age < 0) {
      o.log(`${o.dir} was built around ${found.today}: rebuilding it around ${o.today}`);
    } else {
      try {
        await migrate(o.dir);
        const facts = await readFacts(o.dir, o.today);
        if (facts.events === found.summary.events)
          return { report: { ...found, dir: o.dir, reused: true }, facts };
        o.log(`${o.dir} holds ${facts.events} events, not ${found.summary.events}: seeding anew`);
      } catch (err) {
        o.log(unusable(o.dir, err));
      }
    }
  }
  const t0 = performance.now();
  const migrateSeconds = await startOver(o, found?.kind === "demo");

  // The first migration adds no posts or terms, so the calendar's ids start at 1 (as `npm start`'s
  // first seed: scripts/lib/seed.ts with `justCreated`).
  const zone = resolveZone(o.siteTimezone) ?? "utc";
  const calendar = buildDemoCalendar({
    today: DateTime.fromISO(o.today, { zone }).startOf("day"),
    siteTimezone: o.siteTimezone,
    firstPostId: 1,
    firstTermId: 1,
  });
  const sql = demoSql(calendar);
  const file = path.join(o.dir, "demo-calendar.sql");
  writeFileSync(file, sql);
  try {
    await runWrangler([
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      o.dir,
      "--yes",
      "--file",
      file,
    ]);
  } finally {
    rmSync(file, { force: true });
  }
  const report: DemoSeedReport = {
    kind: "demo",
    dir: o.dir,
    reused: false,
    seconds: (performance.now() - t0) / 1000,
    migrateSeconds,
    sqlBytes: Buffer.byteLength(sql),
    seededAt: new Date().toISOString(),
    today: o.today,
    summary: calendar.summary,
  };
  const facts = await readFacts(o.dir, o.today);
  if (facts.events !== calendar.summary.events)
    throw new Error(
      `seeding ${o.dir} left ${facts.events} events instead of ${calendar.summary.events}`,
    );
  writeFileSync(markerFile, `${JSON.stringify(report, null, 2)}\n`);
  return { report, facts };
}
