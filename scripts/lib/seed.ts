/**
 * Seeding the demo calendar into D1 (local state of `wrangler dev`, or the deployed database with
 * `remote`): one query to see what is there, one SQL file with everything.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DateTime } from "luxon";
import { WP_FORMAT } from "../../src/time/format";
import { resolveZone } from "../../src/time/zone";
import { buildDemoCalendar, DEMO_PASSWORD, type DemoCalendar } from "../../tools/demo/calendar";
import { demoSql, wipeContentSql } from "../../tools/demo/sql";
import { readSettings } from "./config";
import { runWrangler, WranglerError, where } from "./wrangler";

/** What `seedDemo` does; all optional (local, no force, today). */
export interface SeedOptions {
  remote?: boolean;
  /** Seed even though events exist, replacing the calendar's content (local only). */
  force?: boolean;
  /** The site-local day to build around, `yyyy-MM-dd` (default: today in SITE_TIMEZONE). */
  today?: string;
  /**
   * The caller has just created the database from the first migration, so it holds no content and
   * the query for it (one wrangler start, ~2 s) is skipped. Should a migration have added posts or
   * terms after all, the seed's batch fails on their ids, changes nothing, and the normal path runs.
   */
  justCreated?: boolean;
}

/** Rows of calendar content already in the database. */
export interface Existing {
  events: number;
  venues: number;
  organizers: number;
  terms: number;
}

/** Either nothing was done (content exists) or the demo was written (with what it replaced). */
export type SeedResult =
  | { seeded: false; existing: Existing }
  | { seeded: true; replaced: Existing; summary: DemoCalendar["summary"]; sqlBytes: number };

interface DbState {
  existing: Existing;
  maxPost: number;
  maxTerm: number;
}

/** True when any calendar content exists. */
export const hasContent = (e: Existing) => e.events + e.venues + e.organizers + e.terms > 0;

/** `12 events, 3 venues` (zero counts left out). */
export const describeExisting = (e: Existing) =>
  Object.entries(e)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${n === 1 ? k.replace(/s$/, "") : k}`)
    .join(", ");

/**
 * Runs one SELECT through wrangler and returns its rows.
 * @throws Error with a hint when the tables do not exist yet (migrations not applied).
 */
export async function queryRows(
  sql: string,
  remote: boolean,
): Promise<Array<Record<string, unknown>>> {
  let out: string;
  try {
    out = await runWrangler(["d1", "execute", "DB", where(remote), "--json", "--command", sql]);
  } catch (err) {
    if (err instanceof WranglerError && /no such table/i.test(err.output)) {
      throw new Error(
        `The database has no tables yet: run \`npm run db:migrate:${remote ? "remote" : "local"}\` first.`,
      );
    }
    throw err;
  }
  const parsed = JSON.parse(out) as Array<{ results?: Array<Record<string, unknown>> }>;
  return parsed[0]?.results ?? [];
}

async function readState(remote: boolean): Promise<DbState> {
  const [row] = await queryRows(
    `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM venues) AS venues,
      (SELECT count(*) FROM organizers) AS organizers, (SELECT count(*) FROM terms) AS terms,
      (SELECT coalesce(max(id), 0) FROM posts) AS max_post,
      max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'terms'), 0), coalesce((SELECT max(id) FROM terms), 0)) AS max_term`,
    remote,
  );
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    existing: {
      events: n("events"),
      venues: n("venues"),
      organizers: n("organizers"),
      terms: n("terms"),
    },
    maxPost: n("max_post"),
    maxTerm: n("max_term"),
  };
}

/** Site-local midnight of `day` (`yyyy-MM-dd`) or of today, in the site zone. */
function siteToday(siteTimezone: string, day?: string): DateTime {
  const zone = resolveZone(siteTimezone) ?? "utc";
  const today = day ? DateTime.fromISO(day, { zone }) : DateTime.now().setZone(zone);
  if (!today.isValid)
    throw new Error(`--today must be a date written yyyy-MM-dd, got ${JSON.stringify(day)}`);
  return today.startOf("day");
}

/**
 * Seeds the demo calendar into an empty calendar. When events, venues, organizers or terms exist it
 * does nothing (their slugs could collide with the demo's), unless `force`: then it replaces them.
 * @throws SettingsError on bad settings, Error when `force` is combined with `remote` or the
 *   database is not migrated, WranglerError when wrangler fails.
 */
export async function seedDemo(options: SeedOptions = {}): Promise<SeedResult> {
  const remote = options.remote ?? false;
  const settings = readSettings({ remote });
  if (options.justCreated && !remote) {
    const empty: DbState = {
      existing: { events: 0, venues: 0, organizers: 0, terms: 0 },
      maxPost: 0,
      maxTerm: 0,
    };
    try {
      return await seedInto(empty, settings.siteTimezone, options);
    } catch (err) {
      if (!(err instanceof WranglerError && /constraint/i.test(err.output))) throw err;
    }
  }
  const state = await readState(remote);
  const { existing } = state;
  if (hasContent(existing) && !options.force) return { seeded: false, existing };
  if (hasContent(existing) && remote) {
    throw new Error(
      `The remote database already has ${describeExisting(existing)}; --force does not delete remote content.`,
    );
  }
  return seedInto(state, settings.siteTimezone, options);
}

/** Builds the calendar for the free ids of `state` and runs it as one SQL file (replacing content if any). */
async function seedInto(
  state: DbState,
  siteTimezone: string,
  options: SeedOptions,
): Promise<SeedResult> {
  const remote = options.remote ?? false;
  const calendar = buildDemoCalendar({
    today: siteToday(siteTimezone, options.today),
    siteTimezone,
    firstPostId: state.maxPost + 1,
    firstTermId: state.maxTerm + 1,
  });
  const prelude = hasContent(state.existing)
    ? wipeContentSql(DateTime.utc().toFormat(WP_FORMAT))
    : [];
  const sql = demoSql(calendar, prelude);
  const dir = mkdtempSync(path.join(tmpdir(), "tec-demo-"));
  try {
    const file = path.join(dir, "demo-calendar.sql");
    writeFileSync(file, sql);
    await runWrangler(["d1", "execute", "DB", where(remote), "--yes", "--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    seeded: true,
    replaced: state.existing,
    summary: calendar.summary,
    sqlBytes: Buffer.byteLength(sql),
  };
}

/** The lines to print about a seed result (shared by `npm run seed:demo` and `npm start`). */
export function describeSeed(result: SeedResult): string[] {
  if (!result.seeded) {
    return [
      `The calendar already has ${describeExisting(result.existing)}: demo not seeded (npm run seed:demo -- --force replaces it).`,
    ];
  }
  const s = result.summary;
  const lines = [
    `${s.events} events: ${s.published} published, ${s.draft} draft, ${s.pending} pending, ${s.private} private; ` +
      `${s.featured} featured, ${s.sticky} sticky, ${s.hidden} hidden, ${s.password} password-protected, ${s.allDay} all-day, ${s.multiDay} multi-day`,
    `${s.venues} venues, ${s.organizers} organizers, ${s.terms} categories and tags (${Math.round(result.sqlBytes / 1024)} KiB of SQL)`,
    `Password of the protected demo events: ${DEMO_PASSWORD}`,
  ];
  if (hasContent(result.replaced)) lines.unshift(`Replaced ${describeExisting(result.replaced)}.`);
  return lines;
}
