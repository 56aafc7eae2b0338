/**
 * The benchmark's results: the raw record (written as JSON) and its markdown rendering (printed and
 * written to bench/RESULTS.md).
 */
import type { LoadResult } from "./load";
import { BUST_PARAM, type RouteMode, type Sample } from "./routes";
import type { DatasetFacts, SeedReport } from "./seed";

/** More D1 round trips than this on a GET fails the run (contract §2). */
export const MAX_TRIPS = 2;

export interface RouteResult {
  key: string;
  label: string;
  note?: string;
  mode: RouteMode;
  path: string;
  sample: Sample;
  /** Measured (the sample answered with the expected status). */
  measured: boolean;
  /** Why not measured (or, when measured, a remark). */
  reason?: string;
  load?: LoadResult;
  /** Static-worker path measured for comparison (`/<bytes>`). */
  staticPath?: string;
  static?: LoadResult;
  /** Responses under load with another status than the sample's. */
  unexpected?: Record<string, number>;
}

export interface SizeResult {
  size: number;
  seed: SeedReport;
  facts: DatasetFacts;
  /** Seconds from spawning `wrangler dev` to the first answer. */
  startSeconds: { real: number; static: number };
  routes: RouteResult[];
}

export interface Machine {
  nproc: string;
  cpu: string;
  memGiB: number;
  os: string;
  node: string;
  wrangler: string;
  workerd: string;
  autocannon: string;
  loadStart: number[];
  loadEnd?: number[];
}

export interface RunResult {
  startedAt: string;
  finishedAt?: string;
  command: string;
  options: {
    sizes: number[];
    duration: number;
    warmup: number;
    connections: number;
    seeder: string;
    bust: boolean;
    snapshot: boolean;
  };
  machine: Machine;
  git: { head: string; uncommitted: number };
  sizes: SizeResult[];
  /** GETs over the round-trip budget, as `label: N round trips`. */
  violations: string[];
  /** Problems worth a look (non-200 answers, unexpected statuses under load). */
  warnings: string[];
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => (Number.isInteger(n) || n >= 100 ? n.toFixed(0) : n.toFixed(1));
const secs = (n: number) => `${n.toFixed(1)} s`;

/** Violations of the round-trip budget in one route result, as text. */
export function tripViolation(r: RouteResult): string | null {
  return r.sample.trips !== null && r.sample.trips > MAX_TRIPS
    ? `${r.label}: ${r.sample.trips} D1 round trips (budget ${MAX_TRIPS})`
    : null;
}

function routeRow(r: RouteResult): string {
  const s = r.sample;
  const trips = s.trips === null ? "?" : s.trips > MAX_TRIPS ? `**${s.trips} ⚠**` : String(s.trips);
  const label = `\`${r.label.replace(/\|/g, "\\|")}\`${r.note ? ` (${r.note})` : ""}`;
  if (!r.measured || !r.load)
    return `| ${label} | ${s.status} | ${int(s.bytes)} | ${trips} | n/a | n/a | n/a | n/a | n/a | n/a |`;
  const l = r.load;
  const st = r.static;
  const ratio = st && st.rps > 0 ? (l.rps / st.rps).toFixed(2) : "n/a";
  const flag = r.unexpected && Object.keys(r.unexpected).length ? " ⚠" : "";
  return `| ${label} | ${s.status}${flag} | ${int(s.bytes)} | ${trips} | ${int(l.rps)} | ${ms(l.p50)} | ${ms(l.p99)} | ${st ? int(st.rps) : "n/a"} | ${st ? ms(st.p50) : "n/a"} | ${ratio} |`;
}

function describeSeed(sz: SizeResult): string {
  const s = sz.seed;
  const d = s.summary;
  const how =
    s.seeder === "file"
      ? `\`wrangler d1 execute --file\`, ${s.chunks} files (${int(s.chunkEvents)} events each${s.splits ? `, ${s.splits} split after SQLITE_NOMEM` : ""})`
      : `one \`getPlatformProxy()\` workerd, ${s.chunks} D1 batches (${int(s.chunkEvents)} events each${s.splits ? `, ${s.splits} split after SQLITE_NOMEM` : ""})`;
  const timing = `${secs(s.seconds)}: migrations ${secs(s.migrateSeconds)}, then ${(s.sqlBytes / 1_048_576).toFixed(1)} MiB of SQL through ${how}`;
  const seeded = s.reused
    ? `reused \`${s.dir}\`, built ${s.seededAt.slice(0, 10)} (dates relative to ${s.today}) in ${timing}`
    : `seeded \`${s.dir}\` in ${timing}`;
  return [
    `Dataset: ${seeded}.`,
    `${int(d.events)} events (${int(d.published)} published, ${int(d.drafts)} drafts, ${int(d.pending)} pending; ${int(d.inDefaultWindow)} listed in the default window; ${int(d.featured)} featured, ${int(d.hidden)} hidden, ${int(d.allDay)} all-day, ${int(d.jazz)} about jazz, ${int(d.withVenue)} with a venue), ` +
      `${int(d.venues)} venues (${int(d.venuesWithGeo)} with geo), ${int(d.organizers)} organizers, ${d.categories} categories, ${d.tags} tags; ${int(d.termLinks)} term links, ${int(d.organizerLinks)} organizer links. ` +
      `Most used category: \`${sz.facts.category}\` (${int(sz.facts.categoryCount)} published events).`,
    `Server start (spawn → first answer): real ${secs(sz.startSeconds.real)}, static ${secs(sz.startSeconds.static)}.`,
  ].join("\n");
}

function notes(sz: SizeResult): string[] {
  const out: string[] = [];
  for (const r of sz.routes) {
    const name = `\`${r.label}\`${r.note ? ` (${r.note})` : ""}`;
    if (!r.measured) out.push(`- ${name}: n/a — ${r.reason}`);
    else if (r.reason) out.push(`- ${name}: ${r.reason}`);
    if (r.unexpected && Object.keys(r.unexpected).length) {
      out.push(
        `- \`${r.label}\`: unexpected statuses under load: ${Object.entries(r.unexpected)
          .map(([c, n]) => `${n}× ${c}`)
          .join(", ")}`,
      );
    }
    const v = tripViolation(r);
    if (v) out.push(`- ⚠ ${v}`);
    if (r.load && (r.load.errors || r.load.timeouts))
      out.push(`- \`${r.label}\`: ${r.load.errors} connection errors, ${r.load.timeouts} timeouts`);
  }
  return out;
}

/** The markdown report. */
export function renderMarkdown(run: RunResult): string {
  const m = run.machine;
  const o = run.options;
  const load = (l?: number[]) => (l ? l.map((x) => x.toFixed(2)).join(" / ") : "?");
  const took = run.finishedAt
    ? ` (run took ${secs((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000)})`
    : "";
  const lines = [
    "# Benchmark results",
    "",
    `- **Date:** ${run.startedAt.replace("T", " ").slice(0, 19)} UTC${took}`,
    `- **Command:** \`${run.command}\``,
    `- **Machine:** \`nproc\` = ${m.nproc}, ${m.cpu}, ${m.memGiB} GiB RAM, ${m.os}; load average (1/5/15 min) ${load(m.loadStart)} at start, ${load(m.loadEnd)} at end`,
    `- **Software:** Node ${m.node}, wrangler ${m.wrangler} (workerd ${m.workerd}), autocannon ${m.autocannon}`,
    `- **Worker:** ${o.snapshot ? "a snapshot bundle of src/ (`wrangler deploy --dry-run --outdir`) run by `wrangler dev --no-bundle`" : "`wrangler dev` on src/ (reloads on edits)"}, git ${run.git.head}${run.git.uncommitted ? ` + ${run.git.uncommitted} uncommitted files` : ""}`,
    `- **Load:** autocannon, ${o.connections} connections, ${o.duration} s per route after ${o.warmup} s of warm-up; the static worker (bench/static) is measured right after each route, same client, with a body of the same size`,
    `- **Cache:** ${o.bust ? `rows without a note send a fresh \`${BUST_PARAM}=<n>\` per request, so every request misses the worker's edge cache and runs its D1 queries, except the archive total, which the worker remembers per content version and filter (src/http/totals.ts: a client walking the pages is counted once); the "total counted every time" row sends a fresh \`starts_before\` in the year 3000 instead, so it counts on every request; the "edge-cache hit" and "304" rows repeat one URL` : "every URL is requested as is (repeats may be edge-cache hits)"}`,
    "",
    "Columns: `D1` = round trips reported in `Server-Timing` by a sample request (budget: 2 per GET); req/s over the whole run; latencies in ms; `route/static` = route req/s ÷ static req/s.",
  ];
  for (const sz of run.sizes) {
    lines.push(
      "",
      `## ${int(sz.size)} events`,
      "",
      describeSeed(sz),
      "",
      "| route | status | body bytes | D1 | req/s | p50 ms | p99 ms | static req/s | static p50 ms | route/static |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...sz.routes.map(routeRow),
    );
    const n = notes(sz);
    if (n.length) lines.push("", ...n);
  }
  lines.push("");
  if (run.violations.length)
    lines.push(
      `**Result: FAIL** — ${run.violations.length} GET route(s) over the D1 round-trip budget:`,
      ...run.violations.map((v) => `- ${v}`),
    );
  else lines.push(`**Result: OK** — no GET made more than ${MAX_TRIPS} D1 round trips.`);
  if (run.warnings.length) lines.push("", "Warnings:", ...run.warnings.map((w) => `- ${w}`));
  return `${lines.join("\n")}\n`;
}
