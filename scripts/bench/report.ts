/**
 * The benchmark's results: the raw record (written as JSON), the D1 round-trip limits, the read
 * path's targets, and the markdown report (printed and written to bench/RESULTS.md).
 */
import type { SeedReport } from "./datasets";
import { type AnswerTally, cpuPerAnswer, type LoadResult, type Measured } from "./load";
import {
  BUST_PARAM,
  p50Ratio,
  type RouteResult,
  ratio,
  routeName,
  rpsRatio,
  TRIP_STATES,
  type TripState,
} from "./routes";
import type { Facts } from "./seeder";
import type { CpuRole } from "./servers";
import { renderWrites, type WriteResult } from "./writes";

/** Most D1 round trips allowed per state of an anonymous GET; more fails the run (exit 1). */
export type TripLimits = Record<TripState, number>;
/** The read path's bound: a miss makes one round trip, a hit and a 304 none (in steady state). */
export const DEFAULT_TRIP_LIMITS: TripLimits = { miss: 1, hit: 0, "304": 0 };

/**
 * Parses `miss=1,hit=0,304=0` (any subset; the others keep their defaults).
 * @throws Error on an unknown state or a value that is not a non-negative integer.
 */
export function parseTripLimits(text: string): TripLimits {
  const limits = { ...DEFAULT_TRIP_LIMITS };
  for (const part of text.split(",").filter((p) => p.trim())) {
    const m = /^(miss|hit|304)=(\d{1,3})$/.exec(part.trim());
    if (!m)
      throw new Error(
        `--trip-limits takes state=n pairs (states miss, hit, 304), e.g. ${formatTripLimits(DEFAULT_TRIP_LIMITS)}; got ${JSON.stringify(part)}`,
      );
    limits[m[1] as TripState] = Number(m[2]);
  }
  return limits;
}
export const formatTripLimits = (l: TripLimits) => TRIP_STATES.map((s) => `${s}=${l[s]}`).join(",");

export interface DatasetResult {
  /** `demo`, or the number of generated events. */
  dataset: string;
  label: string;
  seed: SeedReport;
  facts: Facts;
  /** Seconds from spawning `wrangler dev` to the first answer. */
  startSeconds: { real: number; static: number };
  /** Load average (1/5/15 min) when this dataset's measurements started and ended. */
  load: { start: number[]; end: number[] };
  routes: RouteResult[];
  targets: TargetResult[];
  /** The series writes (scripts/bench/writes.ts), when measured. */
  writes?: WriteResult[];
}

/** The options of a run (bench.ts). */
export interface BenchOptions {
  /** `demo` and/or numbers of events. */
  datasets: string[];
  duration: number;
  connections: number;
  rounds: number;
  warmup: number;
  tripLimits: TripLimits;
  /** Measured requests per write row (scripts/bench/writes.ts). */
  writeIterations: number;
  /** Measurements of each row; the targets take the median of their ratios (1: one). */
  repeat: number;
  /** Row keys to measure (all when undefined). */
  routes?: string[];
  seedOnly: boolean;
  reseed: boolean;
  bust: boolean;
  liveSrc: boolean;
}

export interface RunResult {
  startedAt: string;
  finishedAt?: string;
  command: string;
  options: BenchOptions & { snapshot: boolean };
  /** nproc, cpu, os, node, wrangler, workerd, autocannon (versions); memGiB, clkTck; load averages. */
  machine: Record<
    "nproc" | "cpu" | "os" | "node" | "wrangler" | "workerd" | "autocannon",
    string
  > & {
    memGiB: number;
    clkTck: number;
    loadStart: number[];
    loadEnd?: number[];
  };
  git: { head: string; uncommitted: number };
  datasets: DatasetResult[];
  /** Round trips over the limits, as `dataset: route, state: N D1 round trips (limit L)`. */
  violations: string[];
  /** Problems worth a look (non-200 answers, unexpected statuses under load). */
  warnings: string[];
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const secs = (n: number) => `${n.toFixed(1)} s`;
const times = (n: number | null) => (n === null || !Number.isFinite(n) ? "n/a" : n.toFixed(2));
const us = (n: number | null) => (n === null ? "n/a" : int(n));
/** Round trips over the limits in one route result, as text. */
export function tripViolations(r: RouteResult, limits: TripLimits): string[] {
  return TRIP_STATES.flatMap((state) => {
    const t = r.states[state]?.trips;
    return t != null && t > limits[state]
      ? [`${routeName(r)}, ${state}: ${t} D1 round trips (limit ${limits[state]})`]
      : [];
  });
}

// The read path's targets: ratios to the static worker measured in the same run

export interface TargetResult {
  /** What is required, e.g. `hit: one-client p50 ≤ 1.3× static`. */
  target: string;
  route: string;
  measured: string;
  /** null when it could not be measured; "floor" for the floor rows (no target: the reference). */
  met: boolean | null | "floor";
}

const MISS_KEYS = ["events-12", "events-50", "events-50-cold", "events-category", "events-search"];
MISS_KEYS.push("events-month", "event-single", "venues", "categories", "deleted");

/**
 * What is measured: D1 round trips in a state (the worst of the rows; at most the default limit), a
 * ratio (`p50` and `cpu` — CPU per request at `--connections` — at most, `rps` at least `bound`;
 * only from `minEvents` events), or a floor.
 */
type Measure = TripState | "p50" | "rps" | "cpu" | "floor";
const TARGETS: Array<[name: string, keys: string[], Measure, bound?: number, minEvents?: number]> =
  [
    ["hit: 0 D1 round trips", ["events-50-hit"], "hit"],
    ["hit: one-client p50 ≤ 1.3× static", ["events-50-hit"], "p50", 1.3],
    ["hit: 16-connection req/s ≥ 0.8× static", ["events-50-hit"], "rps", 0.8],
    ["304: 0 D1 round trips", ["events-50-304"], "304"],
    ["304: one-client p50 ≤ 1.2× static", ["events-50-304"], "p50", 1.2],
    ["miss: 1 D1 round trip (worst route)", MISS_KEYS, "miss"],
    ["miss: `per_page=12` one-client p50 ≤ 2.5×", ["events-12"], "p50", 2.5],
    ["miss: `per_page=50` one-client p50 ≤ 3×", ["events-50"], "p50", 3],
    ["miss: single event one-client p50 ≤ 2.2×", ["event-single"], "p50", 2.2],
    ["miss: 16-connection req/s ≥ 0.4×", ["events-12"], "rps", 0.4],
    ["miss: 16-connection req/s ≥ 0.4×", ["events-50"], "rps", 0.4],
    ["miss: 16-connection req/s ≥ 0.4×", ["event-single"], "rps", 0.4],
    [
      "miss at 100k: `categories=<most used>&per_page=50` p50 ≤ 4×",
      ["events-category"],
      "p50",
      4,
      1e5,
    ],
    // Issue 36: against the floor, measured in alternating rounds of the same phases.
    [
      "issue 36: miss `per_page=12` one-client p50 ≤ 1.3× the floor of a miss",
      ["events-12-floor"],
      "p50",
      1.3,
    ],
    [
      "issue 36: miss `per_page=12` CPU per request ≤ 1.5× the floor's",
      ["events-12-floor"],
      "cpu",
      1.5,
    ],
    [
      "issue 36: miss `per_page=12` 16-connection req/s ≥ 0.8× the floor's",
      ["events-12-floor"],
      "rps",
      0.8,
    ],
    [
      "issue 36: hit one-client p50 ≤ 1.15× the floor of a hit",
      ["events-50-hit-floor"],
      "p50",
      1.15,
    ],
    [
      "for reference, the floor of a miss (one Cache API lookup, one D1 round trip, the headers)",
      ["floor-miss"],
      "floor",
    ],
    ["for reference, the floor of a hit (the headers)", ["floor-hit"], "floor"],
  ];

const p50Pair = (r: RouteResult) =>
  `${ms(r.single!.real.load.p50)} / ${ms(r.single!.static.load.p50)} ms`;
const cpuPair = (r: RouteResult) =>
  `${int(cpuPerAnswer(r.concurrent!.real) ?? 0)} / ${int(cpuPerAnswer(r.concurrent!.static) ?? 0)} µs`;
const cpuRatio = (r: RouteResult) =>
  r.concurrent ? ratio(cpuPerAnswer(r.concurrent.real), cpuPerAnswer(r.concurrent.static)) : null;
const rpsPair = (r: RouteResult) =>
  `${int(r.concurrent!.real.load.rps)} / ${int(r.concurrent!.static.load.rps)} req/s`;

/** The median of the numbers among `values` (null when there are none). */
export function median(values: Array<number | null>): number | null {
  const xs = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (!xs.length) return null;
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/**
 * One row from its `--repeat` measurements of the same route (contract of `RouteResult.repeats`):
 * the measurement whose one-client p50 ratio is the median (the lower middle of an even count), with
 * every measurement's ratios. Rows that were not measured each time are returned as the first.
 */
export function withRepeats(results: RouteResult[]): RouteResult {
  if (results.length < 2 || results.some((r) => !r.measured)) return results[0];
  const repeats = results.map((r) => ({ p50: p50Ratio(r), cpu: cpuRatio(r), rps: rpsRatio(r) }));
  const order = results
    .map((_, i) => ({ i, p50: repeats[i].p50 ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.p50 - b.p50);
  const chosen = results[order[(results.length - 1) >> 1].i];
  return { ...chosen, repeats };
}

/** A row's value of `measure`: the median over its repeats when it was measured more than once. */
function measureOf(r: RouteResult, measure: "p50" | "cpu" | "rps"): number | null {
  if (r.repeats) return median(r.repeats.map((x) => x[measure]));
  return measure === "rps" ? rpsRatio(r) : measure === "cpu" ? cpuRatio(r) : p50Ratio(r);
}

/** `median of 3: 1.10×, 1.21×, 1.35×` for a repeated row; empty otherwise. */
function repeatsNote(r: RouteResult, measure: "p50" | "cpu" | "rps"): string {
  if (!r.repeats) return "";
  const each = r.repeats.map((x) => `${times(x[measure])}×`).join(", ");
  return `; median of ${r.repeats.length}: ${each}`;
}

/** The read path's targets on one dataset's routes (`connections` names the req/s phase). */
export function evaluateTargets(
  routes: RouteResult[],
  events: number,
  connections: number,
): TargetResult[] {
  const byKey = new Map(routes.map((r) => [r.key, r]));
  const out: TargetResult[] = [];
  for (const [name, keys, measure, bound = 0, minEvents = 0] of TARGETS) {
    const target = name.replace("16-connection", `${connections}-connection`);
    if (measure === "miss" || measure === "hit" || measure === "304") {
      const worst = keys
        .flatMap((k) => {
          const r = byKey.get(k);
          const trips = r?.states[measure]?.trips;
          return r && trips != null ? [{ route: routeName(r), trips }] : [];
        })
        .sort((a, b) => b.trips - a.trips)[0];
      const met = worst ? worst.trips <= DEFAULT_TRIP_LIMITS[measure] : null;
      out.push({
        target,
        route: worst?.route ?? "n/a",
        measured: String(worst?.trips ?? "n/a"),
        met,
      });
      continue;
    }
    const r = byKey.get(keys[0]);
    if (!r || events < minEvents) continue;
    if (measure === "floor") {
      const value = measureOf(r, "p50");
      const measured = `p50 ${times(value)}× (${value === null ? "n/a" : p50Pair(r)}), req/s ${times(measureOf(r, "rps"))}×`;
      if (value !== null) out.push({ target, route: routeName(r), measured, met: "floor" });
    } else {
      const value = measureOf(r, measure);
      const pairOf = { p50: p50Pair, cpu: cpuPair, rps: rpsPair }[measure];
      const pair = value === null ? "" : ` (${pairOf(r)}${repeatsNote(r, measure)})`;
      const met = value === null ? null : measure === "rps" ? value >= bound : value <= bound;
      out.push({ target, route: routeName(r), measured: `${times(value)}×${pair}`, met });
    }
  }
  return out;
}

// Markdown

/** A markdown table: `head` and `align` (the separator row) as written, then the rows. */
const table = (head: string, align: string, rows: string[]) =>
  rows.length ? [`| ${head} |`, align, ...rows] : [];

function mainRow(r: RouteResult, limits: TripLimits): string {
  const trips = TRIP_STATES.map((state) => {
    const t = r.states[state]?.trips;
    return t === undefined ? "–" : t === null ? "?" : t > limits[state] ? `**${t}⚠**` : String(t);
  }).join(" / ");
  const flag = r.unexpected ? " ⚠" : "";
  const head = `| ${routeName(r)} | ${r.sample.status}${flag} | ${trips} | ${int(r.sample.bytes)} |`;
  if (!r.measured || !r.single || !r.concurrent) return `${head}${" n/a |".repeat(9)}`;
  const [one, many] = [r.single, r.concurrent];
  const [cpuReal, cpuStatic] = [cpuPerAnswer(many.real), cpuPerAnswer(many.static)];
  return `${head} ${ms(one.real.load.p50)} | ${ms(one.static.load.p50)} | ${times(p50Ratio(r))} | ${int(many.real.load.rps)} | ${int(many.static.load.rps)} | ${times(rpsRatio(r))} | ${us(cpuReal)} | ${us(cpuStatic)} | ${times(ratio(cpuReal, cpuStatic))} |`;
}

/** Mean D1 round trips per answer that reported them, and the share of `X-Cache: HIT` answers. */
function tallies(t: AnswerTally): [string, string] {
  const reported = Object.entries(t.trips).filter(([n]) => n !== "none");
  const answers = reported.reduce((s, [, c]) => s + c, 0);
  const mean = answers
    ? (reported.reduce((s, [n, c]) => s + Number(n) * c, 0) / answers).toFixed(2)
    : "?";
  const hit =
    t.answers === 0
      ? "n/a"
      : (t.xCache.none ?? 0) === t.answers
        ? "–"
        : `${Math.round((100 * (t.xCache.HIT ?? 0)) / t.answers)}%`;
  return [mean, hit];
}

function latencyRow(r: RouteResult): string {
  const [a, b] = [r.single!, r.concurrent!];
  const three = (l: LoadResult) => `${ms(l.p50)} / ${ms(l.p90)} / ${ms(l.p99)}`;
  const two = (l: LoadResult) => `${ms(l.p50)} / ${ms(l.p99)}`;
  const [ta, tb] = [tallies(a.real.load.tally), tallies(b.real.load.tally)];
  return `| ${routeName(r)} | ${three(a.real.load)} | ${three(a.static.load)} | ${int(a.real.load.rps)} | ${int(a.static.load.rps)} | ${two(b.real.load)} | ${two(b.static.load)} | ${ta[0]} / ${tb[0]} | ${ta[1]} / ${tb[1]} |`;
}

function cpuRow(r: RouteResult): string {
  const [a, b] = [r.single!, r.concurrent!];
  const pair = (x: Measured, y: Measured, roles?: CpuRole[]) => {
    const [p, q] = [cpuPerAnswer(x, roles), cpuPerAnswer(y, roles)];
    return [`${us(p)} / ${us(q)}`, times(ratio(p, q))];
  };
  const roles = (["runtime", "proxy", "wrangler", "other"] as const).map(
    (role) => pair(b.real, b.static, [role])[0],
  );
  const all = pair(b.real, b.static, ["runtime", "proxy", "wrangler", "other"]);
  return `| ${routeName(r)} | ${roles.join(" | ")} | ${all.join(" | ")} | ${pair(a.real, a.static).join(" | ")} |`;
}

function describe(ds: DatasetResult): string[] {
  const [s, f] = [ds.seed, ds.facts];
  const what =
    ds.dataset === "demo"
      ? "the demo calendar of `npm start` (tools/demo)"
      : `a calendar generated from the demo's programs, venues, organizers and terms (scripts/bench/generate.ts)${f.series ? ", with recurring series" : ""}`;
  const how = `${secs(s.seconds)}: migrations ${secs(s.migrateSeconds)}, then ${int(s.sqlBytes / 1024)} KiB of SQL in ${s.batches} D1 batch${s.batches === 1 ? "" : "es"}${s.splits ? ` (${s.splits} split after SQLITE_NOMEM)` : ""}`;
  const seeded = s.reused
    ? `reused \`${s.dir}\`, built ${s.seededAt.slice(0, 10)} around ${s.today} in ${how}`
    : `seeded \`${s.dir}\` around ${s.today} in ${how}`;
  return [
    `Dataset: ${what}, ${seeded}.`,
    `${int(f.events)} events${f.series ? ` (${int(f.series)} of them weekly series, with ${int(f.occurrences)} more occurrences in \`event_occurrences\`, ${int(f.occurrencesInWindow)} of them listed in the default window)` : ""} (${int(f.published)} published, ${int(f.drafts)} drafts, ${int(f.pending)} pending, ${int(f.private)} private; ${int(f.inWindow)} listed in the default window; ` +
      `${int(f.featured)} featured, ${int(f.hidden)} hidden, ${int(f.password)} password-protected, ${int(f.allDay)} all-day, ${int(f.jazz)} about jazz, ${int(f.withVenue)} with a venue), ` +
      `${int(f.venues)} venues (${int(f.venuesWithGeo)} with geo), ${int(f.organizers)} organizers, ${f.categories} categories, ${f.tags} tags; ${int(f.termLinks)} term links, ${int(f.organizerLinks)} organizer links. ` +
      `Most used category: \`${f.category}\` (${int(f.categoryCount)} published events); single event: ${f.eventId}${f.series ? " (an occurrence)" : ""}.`,
  ];
}

/** Fewer answers than this in a measuring window get a note. */
const FEW_ANSWERS = 20;

function notes(ds: DatasetResult): string[] {
  const out: string[] = [];
  for (const r of ds.routes) {
    const note = (text: string) => out.push(`- ${routeName(r)}${text}`);
    if (!r.measured || r.reason) note(`: ${r.measured ? "" : "n/a — "}${r.reason}`);
    const counts = Object.entries(r.unexpected ?? {}).map(([c, n]) => `${n}× ${c}`);
    if (counts.length) note(`: unexpected statuses under load: ${counts.join(", ")}`);
    for (const [state, st] of Object.entries(r.states))
      if (new Set(st.samples).size > 1)
        note(
          `: ${state} samples made ${st.samples.map((n) => n ?? "?").join(", ")} round trips (the table shows the most frequent)`,
        );
    for (const [phase, p] of [
      ["one client", r.single],
      ["concurrent", r.concurrent],
    ] as const) {
      const l = p?.real.load;
      if (!p || !l) continue;
      if (l.errors || l.timeouts)
        note(` (${phase}): ${l.errors} connection errors, ${l.timeouts} timeouts`);
      const few = l.window?.requests ?? FEW_ANSWERS;
      if (few < FEW_ANSWERS)
        note(
          ` (${phase}): only ${few} answer${few === 1 ? "" : "s"} of the real worker in the measuring window: its req/s, CPU and latencies rest on few answers (and the slowest ones, abandoned when the phase ended, are not among them); a longer \`--duration\` helps`,
        );
      if (p.real.settleMs.after > 1000)
        note(
          ` (${phase}): the real worker kept working ${secs(p.real.settleMs.after / 1000)} after the client stopped (answers abandoned by the clock)`,
        );
    }
  }
  return out;
}

const loadAvg = (l?: number[]) => (l ? l.map((x) => x.toFixed(2)).join(" / ") : "?");

/** The markdown report. */
export function renderMarkdown(run: RunResult): string {
  const [m, o] = [run.machine, run.options];
  const n = o.connections;
  const took = run.finishedAt
    ? ` (run took ${secs((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000)})`
    : "";
  const busy = m.loadStart[0] >= Number(m.nproc) * 0.5 || (m.loadEnd?.[0] ?? 0) >= Number(m.nproc);
  const lines = [
    "# Benchmark results",
    "",
    `> **Load average at start: ${m.loadStart[0].toFixed(2)}** (1 min; ${loadAvg(m.loadStart)} for 1/5/15 min) on ${m.nproc} cores${busy ? " — a busy machine: compare the ratios of this run, not its absolute figures" : ""}.`,
    "",
    `- **Date:** ${run.startedAt.replace("T", " ").slice(0, 19)} UTC${took}`,
    `- **Command:** \`${run.command}\``,
    `- **Machine:** \`nproc\` = ${m.nproc}, ${m.cpu}, ${m.memGiB} GiB RAM, ${m.os}; load average (1/5/15 min) ${loadAvg(m.loadStart)} at start, ${loadAvg(m.loadEnd)} at end`,
    `- **Software:** Node ${m.node}, wrangler ${m.wrangler} (workerd ${m.workerd}), autocannon ${m.autocannon}`,
    `- **Worker:** ${o.snapshot ? "a snapshot bundle of src/ (`wrangler deploy --dry-run --outdir`) run by `wrangler dev --no-bundle`" : "`wrangler dev` on src/ (reloads on edits)"}, git ${run.git.head}${run.git.uncommitted ? ` + ${run.git.uncommitted} uncommitted files` : ""}`,
    `- **Load:** autocannon; per route two phases, one client (1 connection), then ${n} connections; each phase ${o.duration} s on the real worker and ${o.duration} s on the static worker (bench/static) with a body of the same size, in ${o.rounds} round${o.rounds === 1 ? "" : "s"} alternating real, static, static, real…; warm-up ${o.warmup} s before the route's first round on the real worker, ≤ 1 s before each phase's first on either${(o.repeat ?? 1) > 1 ? `; each row measured ${o.repeat} times: the targets take the median of the ${o.repeat} ratios, the tables show the measurement with the median one-client p50 ratio` : ""}`,
    `- **Cache:** rows without a note send a fresh \`${BUST_PARAM}=<n>\` per request${o.bust ? "" : " (not in this run: `--no-bust`)"}, so every request misses the edge cache and runs its D1 statement (an archive's total is counted once per content version and filter: src/events/listed.ts \`listedTotal\`); the "total counted every time" row also sends a fresh \`starts_before\` in the year 3000 (another WHERE clause every time); the "edge-cache hit" and "304" rows repeat one URL`,
    `- **D1 round-trip limits:** ${formatTripLimits(o.tripLimits)} (\`--trip-limits\`); CPU: \`utime + stime\` from /proc, clock tick ${(1000 / m.clkTck).toFixed(0)} ms`,
    "",
    `Columns: \`D1 miss / hit / 304\` = D1 round trips in \`Server-Timing\` of sample requests in each state (a fresh URL, the same URL again, the same URL with \`If-None-Match\`; the most frequent of 3 each; ⚠ = over the limit); \`p50\` = one-client median latency in ms; \`req/s\` at ${n} connections; \`CPU µs/req\` = CPU of the workerd that runs the worker (and its local D1 and cache) per request in the ${n}-connection phase (wrangler's proxy workerd and node not counted: see the CPU detail); \`×\` = real ÷ static.`,
  ];
  for (const ds of run.datasets) {
    const measured = ds.routes.filter((r) => r.measured && r.single && r.concurrent);
    lines.push("", `## ${ds.label}`, "", ...describe(ds));
    lines.push(
      `Server start (spawn → first answer): real ${secs(ds.startSeconds.real)}, static ${secs(ds.startSeconds.static)}. Load average ${loadAvg(ds.load.start)} at start, ${loadAvg(ds.load.end)} at end.`,
      "",
      ...table(
        `route | status | D1 miss / hit / 304 | body bytes | p50 ms | static p50 | p50 × | req/s (${n} conn.) | static req/s | req/s × | CPU µs/req | static CPU µs | CPU ×`,
        "|---|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ds.routes.map((r) => mainRow(r, o.tripLimits)),
      ),
    );
    if (ds.writes?.length) lines.push("", ...renderWrites(ds.writes));
    if (ds.targets.length)
      lines.push(
        "",
        `The read path's targets (${ds.label}):`,
        "",
        ...table(
          `target | route | measured | `,
          "|---|---|---:|---|",
          ds.targets.map(
            (t) =>
              `| ${t.target} | ${t.route} | ${t.measured} | ${t.met === "floor" ? "–" : t.met === null ? "n/a" : t.met ? "met" : "**not met**"} |`,
          ),
        ),
      );
    if (measured.length)
      lines.push(
        "",
        `<details><summary>Latency detail (${ds.label})</summary>`,
        "",
        ...table(
          `route | 1 client p50 / p90 / p99 ms | static | 1 client req/s | static | ${n} conn. p50 / p99 ms | static | D1 trips per answer under load (1 / ${n} conn.) | X-Cache HIT under load (1 / ${n} conn.)`,
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
          measured.map(latencyRow),
        ),
        "",
        "</details>",
        "",
        `<details><summary>CPU detail (${ds.label}): µs per request, real / static</summary>`,
        "",
        ...table(
          `route | runtime workerd (${n} conn.) | proxy workerd | wrangler (node) | other | all processes | all × | runtime workerd, 1 client | ×`,
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
          measured.map(cpuRow),
        ),
        "",
        "</details>",
      );
    const nt = notes(ds);
    if (nt.length) lines.push("", ...nt);
  }
  lines.push("");
  if (run.violations.length)
    lines.push(
      `**Result: FAIL** — ${run.violations.length} sampled D1 round-trip count(s) over the limits (${formatTripLimits(o.tripLimits)}):`,
      ...run.violations.map((v) => `- ${v}`),
    );
  else
    lines.push(
      `**Result: OK** — no sampled request made more D1 round trips than its limit (${formatTripLimits(o.tripLimits)}).`,
    );
  if (run.warnings.length) lines.push("", "Warnings:", ...run.warnings.map((w) => `- ${w}`));
  return `${lines.join("\n")}\n`;
}
