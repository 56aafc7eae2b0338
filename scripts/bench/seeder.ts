/**
 * Child process of `npm run bench` (./datasets.ts): over a migrated dataset directory, through one
 * workerd of wrangler's `getPlatformProxy()` (the local bindings `wrangler dev` uses, on the same
 * files), seeds the dataset when asked, then reads what the report and the routes need from the data
 * itself. It runs in its own process group, so that stopping the group stops that workerd too.
 *
 * Seeding goes through the statements of the SQL that `npm start` runs (tools/demo/sql.ts
 * `demoStatements`: INSERTs in foreign-key order, then the term recount), each list one D1 batch (a
 * transaction): the demo calendar (tools/demo/calendar.ts) in one; a generated calendar
 * (./generate.ts) in one for its venues, organizers and terms, then its `chunk` events per batch
 * (2,000 single events; local D1 answers `SQLITE_NOMEM` for much larger ones: such a batch is split
 * in two and retried) with the `event_occurrences` rows of the series among them, then the recount.
 * The FTS triggers fire on every insert; they are the bulk of the cost.
 *
 * Argument: JSON `SeederArgs`. Progress lines go to stderr as `progress: …`; the `SeederResult` is
 * the last line of stdout.
 */
import path from "node:path";
import { DateTime } from "luxon";
import { getPlatformProxy } from "wrangler";
import { resolveZone } from "../../src/time/zone";
import { buildDemoCalendar, type DemoCalendar } from "../../tools/demo/calendar";
import { demoStatements } from "../../tools/demo/sql";
import { insertRows, sqlLiteral } from "../../tools/lib/sql";
import { PATHS } from "../lib/paths";
import { eventRowsOf, generateCalendar, generatedSpec } from "./generate";

export interface SeederArgs {
  /** The state directory (`--persist-to`), migrated. */
  dir: string;
  /** `demo`, `series` or a number of events: seed it (else only read the facts). */
  seed?: string;
  /** Site-local `yyyy-MM-dd`. */
  today: string;
  siteTimezone: string;
}

/**
 * The counts that describe a dataset in the report, as `table WHERE condition`; `day(d, m)` is the
 * SQL date `d` days and `m` months from today. The default window is yesterday … 24 months ahead.
 */
const counts = (day: (days: number, months?: number) => string) => ({
  events: "events",
  published: "events WHERE status = 'publish'",
  drafts: "events WHERE status = 'draft'",
  pending: "events WHERE status = 'pending'",
  private: "events WHERE status = 'private'",
  inWindow: `events WHERE status = 'publish' AND hide_from_listings = 0 AND start_date >= ${day(-1)} AND start_date <= ${day(0, 24)}`,
  featured: "events WHERE featured = 1",
  hidden: "events WHERE hide_from_listings = 1",
  password: "events WHERE password_digest <> ''",
  allDay: "events WHERE all_day = 1",
  jazz: `events_fts WHERE events_fts MATCH '"jazz"'`,
  withVenue: "events WHERE venue_id IS NOT NULL",
  venues: "venues",
  venuesWithGeo: "venues WHERE geo_lat IS NOT NULL",
  organizers: "organizers",
  categories: "terms WHERE taxonomy = 'tribe_events_cat'",
  tags: "terms WHERE taxonomy = 'post_tag'",
  termLinks: "event_terms",
  organizerLinks: "event_organizers",
  series: "events WHERE series_id = id",
  occurrences: "event_occurrences",
  occurrencesInWindow: `event_occurrences WHERE status = 'publish' AND hide_from_listings = 0 AND start_date >= ${day(-1)} AND start_date <= ${day(0, 24)}`,
});

/**
 * What the data holds, read from it: the counts, and the routes' parameters: the most used category
 * (its slug and published events) and a published, listed, unprotected event about a month ahead
 * (with series, an occurrence of one: `/events/{occurrence id}`).
 */
export type Facts = Record<keyof ReturnType<typeof counts>, number> & {
  category: string;
  categoryCount: number;
  eventId: number;
};

export interface SeedStats {
  /** D1 batches run, and those split in two after SQLITE_NOMEM. */
  batches: number;
  splits: number;
  sqlBytes: number;
  /** Events the calendar has (the data must hold as many). */
  expected: number;
}

export interface SeederResult {
  seed?: SeedStats;
  facts: Facts;
}

function factsSql(today: string): string {
  const day = (days: number, months = 0) =>
    sqlLiteral(DateTime.fromISO(today, { zone: "utc" }).plus({ days, months }).toISODate());
  const top = (col: string) =>
    `(SELECT ${col} FROM terms WHERE taxonomy = 'tribe_events_cat' ORDER BY count DESC, id LIMIT 1)`;
  return `SELECT ${Object.entries(counts(day))
    .map(([name, from]) => `(SELECT count(*) FROM ${from}) AS ${name}`)
    .join(", ")}, ${top("slug")} AS category, ${top("count")} AS categoryCount,
    coalesce((SELECT o.id FROM event_occurrences o JOIN events e ON e.id = o.series_id
        WHERE o.status = 'publish' AND o.hide_from_listings = 0 AND e.password_digest = ''
          AND o.start_date >= ${day(30)} ORDER BY o.start_date, o.id LIMIT 1),
      (SELECT id FROM events WHERE status = 'publish' AND hide_from_listings = 0 AND password_digest = ''
        AND start_date >= ${day(30)} ORDER BY start_date, id LIMIT 1)) AS eventId`;
}

const args = JSON.parse(process.argv[2] ?? "{}") as SeederArgs;
const progress = (line: string) => process.stderr.write(`progress: ${line}\n`);
const proxy = await getPlatformProxy<{ DB: D1Database }>({
  configPath: PATHS.wranglerToml,
  persist: { path: path.resolve(args.dir, "v3") },
  remoteBindings: false,
});
try {
  const db = proxy.env.DB;
  let seed: SeedStats | undefined;
  if (args.seed) {
    const stats: SeedStats = { batches: 0, splits: 0, sqlBytes: 0, expected: 0 };
    const run = async (statements: string[]) => {
      stats.batches++;
      stats.sqlBytes += statements.reduce((n, s) => n + Buffer.byteLength(s) + 1, 0);
      await db.batch(statements.map((s) => db.prepare(s)));
    };
    const today = DateTime.fromISO(args.today, { zone: resolveZone(args.siteTimezone) ?? "utc" });
    if (args.seed === "demo") {
      // The first migration adds no posts or terms: ids start at 1, as in `npm start`'s first seed.
      const calendar = buildDemoCalendar({
        today,
        siteTimezone: args.siteTimezone,
        firstPostId: 1,
        firstTermId: 1,
      });
      stats.expected = calendar.summary.events;
      await run(demoStatements(calendar));
    } else {
      const t0 = performance.now();
      const spec = generatedSpec(args.seed);
      stats.expected = eventRowsOf(spec);
      const calendar = generateCalendar(spec, today, args.siteTimezone);
      progress(
        `generated ${stats.expected.toLocaleString("en-US")} events in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      // demoStatements ends with the term recount (~0.8 s at 100,000 events): it runs once, at the
      // end, as the statements of an empty part. Occurrences follow their series.
      const inserts = (part: DemoCalendar & { occurrences?: DemoCalendar["events"] }) => [
        ...demoStatements(part).slice(0, -1),
        ...insertRows("event_occurrences", part.occurrences ?? []),
      ];
      await run(inserts(calendar.prelude));
      let last = performance.now();
      const events = async (from: number, to: number): Promise<void> => {
        try {
          await run(inserts(calendar.events(from, to)));
        } catch (err) {
          if (!/SQLITE_NOMEM|out of memory/i.test(String(err)) || to - from < 2) throw err;
          stats.splits++;
          const mid = from + Math.ceil((to - from) / 2);
          await events(from, mid);
          await events(mid, to);
        }
      };
      const chunk = calendar.chunk;
      for (let from = 0; from < stats.expected; from += chunk) {
        await events(from, Math.min(from + chunk, stats.expected));
        if (performance.now() - last > 10_000) {
          last = performance.now();
          progress(
            `${Math.min(from + chunk, stats.expected).toLocaleString("en-US")} events (${((last - t0) / 1000).toFixed(0)} s)`,
          );
        }
      }
      await run(demoStatements(calendar.events(0, 0)));
    }
    seed = stats;
  }
  const row = (await db.prepare(factsSql(args.today)).first<Record<string, unknown>>()) ?? {};
  const facts = Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, k === "category" ? String(v ?? "") : Number(v ?? 0)]),
  ) as unknown as Facts;
  process.stdout.write(`\n${JSON.stringify({ seed, facts } satisfies SeederResult)}\n`);
} finally {
  await proxy.dispose();
}
