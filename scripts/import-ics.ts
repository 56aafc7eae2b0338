/**
 * `npm run import -- <file.ics | https://…> [options]`: loads an iCalendar file into a running
 * instance through its own REST API (contract §7.9), as an administrator (or editor).
 *
 *   --url <origin or namespace root>  default http://127.0.0.1:8787 (→ /wp-json/tribe/events/v1)
 *   --user <name>                     default admin
 *   --password <application password> default $ADMIN_APP_PASSWORD, else ADMIN_APP_PASSWORD of .dev.vars
 *   --timezone <IANA zone>            zone of events the file gives none (UTC, floating, all-day);
 *                                     default: the site's
 *   --until <date>                    a recurring series the instance cannot hold as a series is
 *                                     expanded into events up to this date (YYYY-MM-DD, end of
 *                                     that day UTC, or ISO 8601); default two years ahead
 *   --concurrency <n>                 requests in flight, default 4
 *   --dry-run                         look up and compare, write nothing
 *
 * The whole file is parsed and checked first: a bad file is reported as `file:line: message` and
 * nothing is imported. Events are matched by UID, so running it again creates nothing, updates what
 * changed and resumes an import that stopped half-way. A recurring series becomes one event with
 * `recurrence` lines and overrides; occurrences an earlier importer made as events (`UID#start`)
 * are merged into it and reported. Exit code 0 on success, 1 on failure.
 */

import type { DateTime as LuxonDateTime } from "luxon";
import type { ImportProgress } from "../tools/import/importer";

// The server's date parser computes on the runtime clock (src/time/parse.ts): UTC, before any
// module is loaded (type imports are erased; the rest is imported dynamically below).
process.env.TZ = "UTC";

const { readFileSync } = await import("node:fs");
const path = await import("node:path");
const { parseArgs } = await import("node:util");
const { DateTime } = await import("luxon");
const { readDevVars } = await import("./lib/config");
const { ICS_USAGE: USAGE } = await import("./lib/import-usage");
const { seconds } = await import("./lib/log");
const { IcsError, ImportError } = await import("../tools/import/errors");
const { parseIcs } = await import("../tools/import/ics");
const { importEvents } = await import("../tools/import/importer");
const { dateRange } = await import("../tools/import/report");

/** The end of the window for recurring series: a date (its end, UTC) or an ISO 8601 instant. */
function untilOption(value: string | undefined): LuxonDateTime {
  if (value === undefined) return DateTime.utc().plus({ years: 2 });
  const at = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? DateTime.fromISO(value, { zone: "utc" }).endOf("day")
    : DateTime.fromISO(value, { zone: "utc" });
  if (!at.isValid) throw new Error(`--until must be a date such as 2027-12-31, not ${value}`);
  return at;
}

/** The namespace root for `--url`: an origin gets the default `/wp-json/tribe/events/v1`. */
function namespaceRoot(url: string): string {
  const parsed = new URL(url);
  if (!/^https?:$/.test(parsed.protocol))
    throw new Error(`--url must be an http(s) URL, not ${url}`);
  return parsed.pathname === "/"
    ? `${parsed.origin}/wp-json/tribe/events/v1`
    : url.replace(/\/+$/, "");
}

/** The calendar's text, from a file or an http(s)/webcal URL. */
async function readSource(source: string): Promise<string> {
  const url = source.replace(/^webcal:\/\//i, "https://");
  if (!/^https?:\/\//i.test(url)) return readFileSync(source, "utf8");
  const res = await fetch(url, {
    headers: { accept: "text/calendar, */*" },
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${res.statusText}`);
  return res.text();
}

function progressPrinter(): { update: (p: ImportProgress) => void; end: () => void } {
  const tty = process.stdout.isTTY === true;
  let printed = -1;
  let open = false;
  return {
    update(p) {
      const line = `  ${p.done}/${p.total}: ${p.created} created, ${p.updated} updated, ${p.unchanged} unchanged${p.skipped ? `, ${p.skipped} skipped` : ""}`;
      if (tty) {
        process.stdout.write(`\r${line}\x1b[K`);
        open = true;
      } else if (p.done === p.total || p.done - printed >= 25 || p.phase === "lookup") {
        if (p.done !== printed) console.log(line);
        printed = p.done;
      }
    },
    end() {
      if (open) process.stdout.write("\n");
      open = false;
    },
  };
}

async function main(argv: string[]): Promise<number> {
  const { values: opts, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: "string", default: "http://127.0.0.1:8787" },
      user: { type: "string", default: "admin" },
      password: { type: "string" },
      timezone: { type: "string" },
      until: { type: "string" },
      concurrency: { type: "string", default: "4" },
      "dry-run": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (opts.help || positionals.length !== 1) {
    console.log(
      `usage: ${USAGE}\n\n(a TEC site as the source: npm run import -- --help shows both)`,
    );
    return opts.help ? 0 : 1;
  }
  const until = untilOption(opts.until);
  const source = positionals[0];
  const name = /^[a-z]+:\/\//i.test(source) ? source : path.basename(source);
  const concurrency = Number(opts.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)
    throw new Error("--concurrency must be a whole number from 1 to 32");
  const base = namespaceRoot(opts.url);
  const password =
    opts.password ?? process.env.ADMIN_APP_PASSWORD ?? readDevVars().ADMIN_APP_PASSWORD;
  if (!password)
    throw new Error(
      "no password: pass --password, or set ADMIN_APP_PASSWORD (environment or .dev.vars)",
    );

  const t0 = performance.now();
  const text = await readSource(source);
  let calendar: ReturnType<typeof parseIcs>;
  try {
    calendar = parseIcs(text, { until });
  } catch (err) {
    if (err instanceof IcsError) {
      console.error(`${name}:${err.line}: ${err.message}`);
      console.error("Nothing was imported.");
      return 1;
    }
    throw err;
  }
  const { events, warnings, series } = calendar;
  const recurring = series.length
    ? ` and ${series.length} recurring series (${series.reduce((n, s) => n + s.overrides.length, 0)} changed occurrences)`
    : "";
  console.log(
    `▸ ${name}: ${events.length} events${recurring}${calendar.name ? ` ("${calendar.name}")` : ""}, ${calendar.lineCount} lines, read in ${seconds(performance.now() - t0)}`,
  );
  for (const w of warnings.slice(0, 10)) console.warn(`  ! ${name}:${w.line}: ${w.message}`);
  if (warnings.length > 10) console.warn(`  ! … and ${warnings.length - 10} more warnings`);
  if (events.length === 0 && series.length === 0) {
    console.log("Nothing to import.");
    return 0;
  }

  const dryRun = opts["dry-run"];
  console.log(
    `▸ ${dryRun ? "Comparing with" : "Importing into"} ${base} as ${opts.user}${opts.timezone ? ` (zone-less events in ${opts.timezone})` : ""}…`,
  );
  const t1 = performance.now();
  const printer = progressPrinter();
  try {
    const report = await importEvents(
      {
        base,
        authorization: `Basic ${Buffer.from(`${opts.user}:${password}`).toString("base64")}`,
        fetch: (url, init) => fetch(url, init),
      },
      events,
      { timezone: opts.timezone, concurrency, dryRun, onProgress: printer.update, series },
    );
    printer.end();
    for (const n of report.notes) console.log(`  · ${name}:${n.line}: UID ${n.uid}: ${n.message}`);
    for (const m of report.merged)
      console.log(
        `  ⇢ ${name}:${m.line}: UID ${m.uid}: ${m.copies} occurrences an earlier import made as separate events (UID#start) merged into the series ${m.series}${dryRun ? " (would be)" : ""}`,
      );
    for (const r of report.removed)
      console.log(
        `  − ${name}:${r.line}: "${r.title}" (UID ${r.uid}) was removed from its series at the source; it is still here (delete it if it should go)`,
      );
    const { created, updated, unchanged, skipped, total, requests } = report;
    const counts = dryRun
      ? `Dry run, nothing written: would create ${created}, would update ${updated}, ${unchanged} unchanged, ${skipped} skipped`
      : `${created} created, ${updated} updated, ${unchanged} unchanged, ${skipped} skipped`;
    const removed = report.removed.length
      ? `, ${report.removed.length} removed at the source (left here)`
      : "";
    console.log(
      `✓ ${counts}${removed} of ${total} in ${seconds(performance.now() - t1)} (${requests} requests; ${seconds(performance.now() - t0)} in all)`,
    );
    const range = dateRange([...events, ...series.map((s) => s.event)]);
    if (range) {
      // `/events` lists from yesterday on by default: say where the imported events are.
      const url = `${base.replace(/\/+$/, "")}/events?start_date=${range.first}&end_date=${range.last}`;
      const past = range.last < DateTime.utc().minus({ days: 1 }).toISODate()!;
      console.log(
        `  Events from ${range.first} to ${range.last}${past ? " — all before yesterday, so /events (from yesterday on by default) does not list them" : ""}: ${url}`,
      );
    }
    return 0;
  } catch (err) {
    printer.end();
    if (!(err instanceof ImportError)) throw err;
    console.error(`✗ ${err.message}`);
    const r = err.report;
    if (r && r.created + r.updated > 0) {
      console.error(
        `  Written before stopping: ${r.created} created, ${r.updated} updated. Run the import again to finish (events are matched by UID).`,
      );
    } else console.error("  Nothing was written.");
    return 1;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.error(`✗ ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
