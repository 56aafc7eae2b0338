/**
 * The benchmark's results: the raw record (written as JSON), the D1 round-trip limits, the read
 * path's targets, and the markdown rendering (printed and written to bench/RESULTS.md).
 */
import { type CpuRole, type CpuUsage, cpuMicrosPerRequest } from "./cpu";
import type { SeedReport } from "./datasets";
import { type LoadResult, meanTrips } from "./load";
import {
  BUST_PARAM,
  type RouteMode,
  type Sample,
  type StateTrips,
  TRIP_STATES,
  type TripState,
} from "./routes";
import type { Facts } from "./seeder";

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
  for (const part of text.split(",").map((p) => p.trim())) {
    if (!part) continue;
    const m = /^(miss|hit|304)=(\d{1,3})$/.exec(part);
    if (!m)
      throw new Error(
        `--trip-limits takes state=n pairs (states miss, hit, 304), e.g. miss=1,hit=0,304=0; got ${JSON.stringify(part)}`,
      );
    limits[m[1] as TripState] = Number(m[2]);
  }
  return limits;
}

export const formatTripLimits = (l: TripLimits) => TRIP_STATES.map((s) => `${s}=${l[s]}`).join(",");

/** One load phase against one server: autocannon's figures and the server's CPU meanwhile. */
export interface Measured {
  load: LoadResult;
  /** CPU of the server's processes in the measuring window (`load.window`). */
  cpu?: CpuUsage;
  /** Milliseconds waited for the server to become idle before and after the measured load (the most of any round). */
  settleMs?: { before: number; after: number };
  /** The rounds this measurement sums (`--rounds`), each on its own. */
  rounds?: Array<{
    load: LoadResult;
    cpu?: CpuUsage;
    settleMs: { before: number; after: number };
  }>;
}

/** One load phase against the real worker and, right after, the static worker with the same body. */
export interface PhasePair {
  real: Measured;
  static?: Measured;
}

export interface RouteResult {
  key: string;
  label: string;
  note?: string;
  mode: RouteMode;
  path: string;
  /** The request of this row's mode (its status, body size, ETag, …). */
  sample: Sample;
  /** D1 round trips sampled in each state (routes.ts `sampleStates`). */
  states: Partial<Record<TripState, StateTrips>>;
  /** Measured (the sample answered with the expected status). */
  measured: boolean;
  /** Why not measured (or, when measured, a remark). */
  reason?: string;
  /** Static-worker path measured for comparison (`/<bytes>`, or `/0?status=304`). */
  staticPath?: string;
  /** One client (`connections: 1`). */
  single?: PhasePair;
  /** `--connections` connections (16 by default). */
  concurrent?: PhasePair;
  /** Responses under load with another status than the sample's. */
  unexpected?: Record<string, number>;
}

export interface DatasetResult {
  /** `demo`, or the number of generated events. */
  dataset: string;
  /** `demo calendar` or `100,000 events`. */
  label: string;
  seed: SeedReport;
  facts: Facts;
  /** Seconds from spawning `wrangler dev` to the first answer. */
  startSeconds: { real: number; static: number };
  /** Load average (1/5/15 min) when this dataset's measurements started and ended. */
  load: { start: number[]; end?: number[] };
  routes: RouteResult[];
  targets: TargetResult[];
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
  clkTck: number;
  loadStart: number[];
  loadEnd?: number[];
}

export interface RunResult {
  startedAt: string;
  finishedAt?: string;
  command: string;
  options: {
    datasets: string[];
    duration: number;
    warmup: number;
    connections: number;
    /** Rounds per phase (absent in runs from before it existed: 1). */
    rounds?: number;
    bust: boolean;
    snapshot: boolean;
    tripLimits: TripLimits;
  };
  machine: Machine;
  git: { head: string; uncommitted: number };
  datasets: DatasetResult[];
  /** Round trips over the limits, as `dataset: route (state): N round trips (limit L)`. */
  violations: string[];
  /** Problems worth a look (non-200 answers, unexpected statuses under load). */
  warnings: string[];
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const secs = (n: number) => `${n.toFixed(1)} s`;
const times = (n: number | null) => (n === null || !Number.isFinite(n) ? "n/a" : n.toFixed(2));
const us = (n: number | null) => (n === null ? "n/a" : int(n));
const cell = (s: string) => s.replace(/\|/g, "\\|");
const routeName = (r: RouteResult) => `\`${cell(r.label)}\`${r.note ? ` (${cell(r.note)})` : ""}`;

/** Real ÷ static one-client p50 (lower is better), or null. */
export function p50Ratio(r: RouteResult): number | null {
  const p = r.single;
  if (!p?.static || p.static.load.p50 <= 0) return null;
  return p.real.load.p50 / p.static.load.p50;
}

/** Real ÷ static req/s at `--connections` (higher is better), or null. */
export function rpsRatio(r: RouteResult): number | null {
  const p = r.concurrent;
  if (!p?.static || p.static.load.rps <= 0) return null;
  return p.real.load.rps / p.static.load.rps;
}

/** CPU µs per request of `roles` in one measured phase. */
export const cpuOf = (m: Measured | undefined, roles?: CpuRole[]) =>
  m?.load.window ? cpuMicrosPerRequest(m.cpu, m.load.window.requests, roles) : null;

const ALL_ROLES: CpuRole[] = ["runtime", "proxy", "wrangler", "other"];

function ratioOf(a: number | null, b: number | null): number | null {
  return a === null || b === null || b <= 0 ? null : a / b;
}

/** Round trips over the limits in one route result, as text. */
export function tripViolations(r: RouteResult, limits: TripLimits): string[] {
  const out: string[] = [];
  for (const state of TRIP_STATES) {
    const t = r.states[state]?.trips;
    if (t !== undefined && t !== null && t > limits[state])
      out.push(
        `${r.label}${r.note ? ` (${r.note})` : ""}, ${state}: ${t} D1 round trips (limit ${limits[state]})`,
      );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The read path's targets (ratios to the static worker measured in the same run)

export interface TargetResult {
  /** What is required, e.g. `hit: one-client p50 ≤ 1.3× static`. */
  target: string;
  /** The route it was measured on. */
  route: string;
  /** The measured value as shown. */
  measured: string;
  /** null when it could not be measured; "floor" for the floor rows (no target: the reference). */
  met: boolean | null | "floor";
}

type TargetSpec =
  | { kind: "floor"; key: string; name: string }
  | { kind: "trips"; state: TripState; keys: string[]; max: number; name: string }
  | { kind: "p50"; key: string; max: number; name: string; minEvents?: number }
  | { kind: "rps"; key: string; min: number; name: string };

/** The keys (routes.ts) of the routes the targets speak of. */
const MISS_KEYS = [
  "events-12",
  "events-50",
  "events-50-cold",
  "events-category",
  "events-search",
  "events-month",
  "event-single",
  "venues",
  "categories",
  "deleted",
];

const TARGETS: TargetSpec[] = [
  { kind: "trips", state: "hit", keys: ["events-50-hit"], max: 0, name: "hit: 0 D1 round trips" },
  { kind: "p50", key: "events-50-hit", max: 1.3, name: "hit: one-client p50 ≤ 1.3× static" },
  { kind: "rps", key: "events-50-hit", min: 0.8, name: "hit: 16-connection req/s ≥ 0.8× static" },
  { kind: "trips", state: "304", keys: ["events-50-304"], max: 0, name: "304: 0 D1 round trips" },
  { kind: "p50", key: "events-50-304", max: 1.2, name: "304: one-client p50 ≤ 1.2× static" },
  {
    kind: "trips",
    state: "miss",
    keys: MISS_KEYS,
    max: 1,
    name: "miss: 1 D1 round trip (worst route)",
  },
  { kind: "p50", key: "events-12", max: 2.5, name: "miss: `per_page=12` one-client p50 ≤ 2.5×" },
  { kind: "p50", key: "events-50", max: 3, name: "miss: `per_page=50` one-client p50 ≤ 3×" },
  { kind: "p50", key: "event-single", max: 2.2, name: "miss: single event one-client p50 ≤ 2.2×" },
  { kind: "rps", key: "events-12", min: 0.4, name: "miss: 16-connection req/s ≥ 0.4×" },
  { kind: "rps", key: "events-50", min: 0.4, name: "miss: 16-connection req/s ≥ 0.4×" },
  { kind: "rps", key: "event-single", min: 0.4, name: "miss: 16-connection req/s ≥ 0.4×" },
  {
    kind: "p50",
    key: "events-category",
    max: 4,
    name: "miss at 100k: `categories=<most used>&per_page=50` p50 ≤ 4×",
    minEvents: 100_000,
  },
  {
    kind: "floor",
    key: "floor-miss",
    name: "for reference, the floor of a miss (one Cache API lookup, one D1 round trip, the headers)",
  },
  { kind: "floor", key: "floor-hit", name: "for reference, the floor of a hit (the headers)" },
];

/** Evaluates the read path's targets on one dataset's routes (`connections` names the req/s phase). */
export function evaluateTargets(
  routes: RouteResult[],
  events: number,
  connections: number,
): TargetResult[] {
  const byKey = new Map(routes.map((r) => [r.key, r]));
  const out: TargetResult[] = [];
  for (const t of TARGETS) {
    if (t.kind === "trips") {
      let worst: { r: RouteResult; trips: number } | null = null;
      for (const key of t.keys) {
        const r = byKey.get(key);
        const trips = r?.states[t.state]?.trips;
        if (r && trips !== undefined && trips !== null && (!worst || trips > worst.trips))
          worst = { r, trips };
      }
      out.push({
        target: t.name,
        route: worst ? routeName(worst.r) : "n/a",
        measured: worst ? String(worst.trips) : "n/a",
        met: worst ? worst.trips <= t.max : null,
      });
      continue;
    }
    if (t.kind === "p50" && t.minEvents && events < t.minEvents) continue;
    const r = byKey.get(t.key);
    if (t.kind === "floor") {
      const ratio = r ? p50Ratio(r) : null;
      if (r && ratio !== null && r.single?.static)
        out.push({
          target: t.name,
          route: routeName(r),
          measured: `p50 ${times(ratio)}× (${ms(r.single.real.load.p50)} / ${ms(r.single.static.load.p50)} ms), req/s ${times(rpsRatio(r))}×`,
          met: "floor",
        });
      continue;
    }
    const name =
      t.kind === "rps" ? t.name.replace("16-connection", `${connections}-connection`) : t.name;
    if (!r) continue;
    const ratio = t.kind === "p50" ? p50Ratio(r) : rpsRatio(r);
    const detail =
      t.kind === "p50"
        ? r.single?.static
          ? ` (${ms(r.single.real.load.p50)} / ${ms(r.single.static.load.p50)} ms)`
          : ""
        : r.concurrent?.static
          ? ` (${int(r.concurrent.real.load.rps)} / ${int(r.concurrent.static.load.rps)} req/s)`
          : "";
    out.push({
      target: name,
      route: routeName(r),
      measured: ratio === null ? "n/a" : `${times(ratio)}×${detail}`,
      met: ratio === null ? null : t.kind === "p50" ? ratio <= t.max : ratio >= t.min,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Markdown

function tripsCell(r: RouteResult, limits: TripLimits): string {
  return TRIP_STATES.map((state) => {
    const t = r.states[state]?.trips;
    if (t === undefined) return "–";
    if (t === null) return "?";
    return t > limits[state] ? `**${t}⚠**` : String(t);
  }).join(" / ");
}

function mainRow(r: RouteResult, limits: TripLimits): string {
  const s = r.sample;
  const flag = r.unexpected && Object.keys(r.unexpected).length ? " ⚠" : "";
  const head = `| ${routeName(r)} | ${s.status}${flag} | ${tripsCell(r, limits)} | ${int(s.bytes)} |`;
  if (!r.measured) return `${head} n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |`;
  const one = r.single;
  const many = r.concurrent;
  const cpuReal = cpuOf(many?.real);
  const cpuStatic = cpuOf(many?.static);
  return `${head} ${one ? ms(one.real.load.p50) : "n/a"} | ${one?.static ? ms(one.static.load.p50) : "n/a"} | ${times(p50Ratio(r))} | ${many ? int(many.real.load.rps) : "n/a"} | ${many?.static ? int(many.static.load.rps) : "n/a"} | ${times(rpsRatio(r))} | ${us(cpuReal)} | ${us(cpuStatic)} | ${times(ratioOf(cpuReal, cpuStatic))} |`;
}

function tallyCell(l: LoadResult | undefined): string {
  if (!l) return "n/a";
  const mean = meanTrips(l.tally);
  return mean === null ? "?" : mean.toFixed(2);
}

function hitShare(l: LoadResult | undefined): string {
  if (!l || l.tally.answers === 0) return "n/a";
  if ((l.tally.xCache.none ?? 0) === l.tally.answers) return "–";
  const hits = l.tally.xCache.HIT ?? 0;
  return `${Math.round((100 * hits) / l.tally.answers)}%`;
}

function latencyRow(r: RouteResult): string | null {
  if (!r.measured || !r.single || !r.concurrent) return null;
  const a = r.single;
  const b = r.concurrent;
  const pct = (l: LoadResult) => `${ms(l.p50)} / ${ms(l.p90)} / ${ms(l.p99)}`;
  const pct2 = (l: LoadResult) => `${ms(l.p50)} / ${ms(l.p99)}`;
  return `| ${routeName(r)} | ${pct(a.real.load)} | ${a.static ? pct(a.static.load) : "n/a"} | ${int(a.real.load.rps)} | ${a.static ? int(a.static.load.rps) : "n/a"} | ${pct2(b.real.load)} | ${b.static ? pct2(b.static.load) : "n/a"} | ${tallyCell(a.real.load)} / ${tallyCell(b.real.load)} | ${hitShare(a.real.load)} / ${hitShare(b.real.load)} |`;
}

function cpuRow(r: RouteResult): string | null {
  if (!r.measured || !r.concurrent) return null;
  const b = r.concurrent;
  const a = r.single;
  const pair = (role: CpuRole[]) => `${us(cpuOf(b.real, role))} / ${us(cpuOf(b.static, role))}`;
  const allReal = cpuOf(b.real, ALL_ROLES);
  const allStatic = cpuOf(b.static, ALL_ROLES);
  const oneReal = cpuOf(a?.real);
  const oneStatic = cpuOf(a?.static);
  return `| ${routeName(r)} | ${pair(["runtime"])} | ${pair(["proxy"])} | ${pair(["wrangler"])} | ${pair(["other"])} | ${us(allReal)} / ${us(allStatic)} | ${times(ratioOf(allReal, allStatic))} | ${us(oneReal)} / ${us(oneStatic)} | ${times(ratioOf(oneReal, oneStatic))} |`;
}

function describeDataset(ds: DatasetResult): string {
  const [s, f] = [ds.seed, ds.facts];
  const what =
    ds.dataset === "demo"
      ? "the demo calendar of `npm start` (tools/demo)"
      : "a calendar generated from the demo's programs, venues, organizers and terms (scripts/bench/generate.ts)";
  const how = `${secs(s.seconds)}: migrations ${secs(s.migrateSeconds)}, then ${int(s.sqlBytes / 1024)} KiB of SQL in ${s.batches} D1 batch${s.batches === 1 ? "" : "es"}${s.splits ? ` (${s.splits} split after SQLITE_NOMEM)` : ""}`;
  const seeded = s.reused
    ? `reused \`${s.dir}\`, built ${s.seededAt.slice(0, 10)} around ${s.today} in ${how}`
    : `seeded \`${s.dir}\` around ${s.today} in ${how}`;
  return [
    `Dataset: ${what}, ${seeded}.`,
    `${int(f.events)} events (${int(f.published)} published, ${int(f.drafts)} drafts, ${int(f.pending)} pending, ${int(f.private)} private; ${int(f.inWindow)} listed in the default window; ` +
      `${int(f.featured)} featured, ${int(f.hidden)} hidden, ${int(f.password)} password-protected, ${int(f.allDay)} all-day, ${int(f.jazz)} about jazz, ${int(f.withVenue)} with a venue), ` +
      `${int(f.venues)} venues (${int(f.venuesWithGeo)} with geo), ${int(f.organizers)} organizers, ${f.categories} categories, ${f.tags} tags; ${int(f.termLinks)} term links, ${int(f.organizerLinks)} organizer links. ` +
      `Most used category: \`${f.category}\` (${int(f.categoryCount)} published events); single event: ${f.eventId}.`,
  ].join("\n");
}

/**
 * The round trips over the limits, one line per dataset, state and count: the routes by name, or
 * "every route" when all routes sampled in that state exceed it.
 */
function violationLines(run: RunResult): string[] {
  const limits = run.options.tripLimits;
  const out: string[] = [];
  for (const ds of run.datasets) {
    for (const state of TRIP_STATES) {
      const sampled = ds.routes.filter((r) => r.states[state]?.trips != null);
      const byTrips = new Map<number, RouteResult[]>();
      for (const r of sampled) {
        const t = r.states[state]!.trips!;
        if (t > limits[state]) byTrips.set(t, [...(byTrips.get(t) ?? []), r]);
      }
      for (const [t, routes] of byTrips)
        out.push(
          `- ${ds.label}, ${state}: ${t} D1 round trip${t === 1 ? "" : "s"} (limit ${limits[state]}) on ${routes.length === sampled.length ? `every route (${routes.length})` : routes.map(routeName).join(", ")}`,
        );
    }
  }
  return out;
}

function notes(ds: DatasetResult): string[] {
  const out: string[] = [];
  for (const r of ds.routes) {
    const name = routeName(r);
    if (!r.measured) out.push(`- ${name}: n/a — ${r.reason}`);
    else if (r.reason) out.push(`- ${name}: ${r.reason}`);
    if (r.unexpected && Object.keys(r.unexpected).length) {
      out.push(
        `- ${name}: unexpected statuses under load: ${Object.entries(r.unexpected)
          .map(([c, n]) => `${n}× ${c}`)
          .join(", ")}`,
      );
    }
    for (const state of TRIP_STATES) {
      const st = r.states[state];
      if (st && new Set(st.samples).size > 1)
        out.push(
          `- ${name}: ${state} samples made ${st.samples.map((n) => n ?? "?").join(", ")} round trips (the table shows the most frequent)`,
        );
    }
    for (const [phase, p] of [
      ["one client", r.single],
      ["concurrent", r.concurrent],
    ] as const) {
      const l = p?.real.load;
      if (l && (l.errors || l.timeouts))
        out.push(`- ${name} (${phase}): ${l.errors} connection errors, ${l.timeouts} timeouts`);
      const w = l?.window;
      if (w && w.requests < FEW_ANSWERS)
        out.push(
          `- ${name} (${phase}): only ${w.requests} answer${w.requests === 1 ? "" : "s"} of the real worker in the measuring window: its req/s, CPU and latencies rest on few answers (and the slowest ones, abandoned when the phase ended, are not among them); a longer \`--duration\` helps`,
        );
      const after = p?.real.settleMs?.after ?? 0;
      if (after > 1000)
        out.push(
          `- ${name} (${phase}): the real worker kept working ${secs(after / 1000)} after the client stopped (answers abandoned by the clock)`,
        );
    }
  }
  return out;
}

/** Fewer answers than this in a measuring window get a note. */
const FEW_ANSWERS = 20;

const loadAvg = (l?: number[]) => (l ? l.map((x) => x.toFixed(2)).join(" / ") : "?");

/** The markdown report. */
export function renderMarkdown(run: RunResult): string {
  const m = run.machine;
  const o = run.options;
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
    `- **Load:** autocannon; per route two phases, one client (1 connection), then ${n} connections; each phase ${o.duration} s on the real worker and ${o.duration} s on the static worker (bench/static) with a body of the same size, in ${o.rounds ?? 1} round${(o.rounds ?? 1) === 1 ? "" : "s"} alternating real, static, static, real…; warm-up ${o.warmup} s before the route's first round on the real worker, ≤ 1 s before each phase's first on either`,
    `- **Cache:** rows without a note send a fresh \`${BUST_PARAM}=<n>\` per request${o.bust ? "" : " (not in this run: `--no-bust`)"}, so every request misses the edge cache and runs its D1 queries; the "total counted every time" row also sends a fresh \`starts_before\` in the year 3000 (another WHERE clause every time); the "edge-cache hit" and "304" rows repeat one URL`,
    `- **D1 round-trip limits:** ${formatTripLimits(o.tripLimits)} (\`--trip-limits\`); CPU: \`utime + stime\` from /proc, clock tick ${(1000 / m.clkTck).toFixed(0)} ms`,
    "",
    `Columns: \`D1 miss / hit / 304\` = D1 round trips in \`Server-Timing\` of sample requests in each state (a fresh URL, the same URL again, the same URL with \`If-None-Match\`; the most frequent of 3 each; ⚠ = over the limit); \`p50\` = one-client median latency in ms; \`req/s\` at ${n} connections; \`CPU µs/req\` = CPU of the workerd that runs the worker (and its local D1 and cache) per request in the ${n}-connection phase (wrangler's proxy workerd and node not counted: see the CPU detail); \`×\` = real ÷ static.`,
  ];
  for (const ds of run.datasets) {
    lines.push(
      "",
      `## ${ds.label}`,
      "",
      describeDataset(ds),
      `Server start (spawn → first answer): real ${secs(ds.startSeconds.real)}, static ${secs(ds.startSeconds.static)}. Load average ${loadAvg(ds.load.start)} at start, ${loadAvg(ds.load.end)} at end.`,
      "",
      `| route | status | D1 miss / hit / 304 | body bytes | p50 ms | static p50 | p50 × | req/s (${n} conn.) | static req/s | req/s × | CPU µs/req | static CPU µs | CPU × |`,
      "|---|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...ds.routes.map((r) => mainRow(r, o.tripLimits)),
    );
    if (ds.targets.length) {
      lines.push(
        "",
        `The read path's targets (${ds.label}):`,
        "",
        "| target | route | measured | |",
        "|---|---|---:|---|",
        ...ds.targets.map(
          (t) =>
            `| ${t.target} | ${t.route} | ${t.measured} | ${t.met === "floor" ? "–" : t.met === null ? "n/a" : t.met ? "met" : "**not met**"} |`,
        ),
      );
    }
    const latency = ds.routes.map(latencyRow).filter((r): r is string => r !== null);
    if (latency.length)
      lines.push(
        "",
        `<details><summary>Latency detail (${ds.label})</summary>`,
        "",
        `| route | 1 client p50 / p90 / p99 ms | static | 1 client req/s | static | ${n} conn. p50 / p99 ms | static | D1 trips per answer under load (1 / ${n} conn.) | X-Cache HIT under load (1 / ${n} conn.) |`,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ...latency,
        "",
        "</details>",
      );
    const cpu = ds.routes.map(cpuRow).filter((r): r is string => r !== null);
    if (cpu.length)
      lines.push(
        "",
        `<details><summary>CPU detail (${ds.label}): µs per request, real / static</summary>`,
        "",
        `| route | runtime workerd (${n} conn.) | proxy workerd | wrangler (node) | other | all processes | all × | runtime workerd, 1 client | × |`,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ...cpu,
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
      ...violationLines(run),
    );
  else
    lines.push(
      `**Result: OK** — no sampled request made more D1 round trips than its limit (${formatTripLimits(o.tripLimits)}).`,
    );
  if (run.warnings.length) lines.push("", "Warnings:", ...run.warnings.map((w) => `- ${w}`));
  return `${lines.join("\n")}\n`;
}
