/**
 * `npm run bench [-- --sizes demo,100000] [--duration 10] [--connections 16] [--warmup 2]
 *   [--trip-limits miss=1,hit=0,304=0]`
 *
 * The project's benchmark (bench/README.md). For each dataset (`demo`, the demo calendar of
 * `npm start`, or a number of generated events):
 * 1. a local D1 state directory `.wrangler/bench/<dataset>`, migrated and seeded (the demo calendar
 *    through scripts/bench/demo.ts; a deterministic, realistic calendar of that size through
 *    scripts/bench/dataset.ts), or reused when complete;
 * 2. the real worker (`wrangler dev` on a snapshot bundle of src/, over that directory) and the static
 *    worker of bench/static ("the limit": same runtime, no work, a body of the same size);
 * 3. per route: sample requests in each state (a miss, a hit, a 304: status, body size, D1 round trips
 *    from `Server-Timing`, ETag), then two load phases, one client and `--connections` connections,
 *    each after a warm-up, each against the route and then the static worker with the same body, with
 *    the CPU time of each server's processes (/proc) before and after.
 * Prints markdown tables and the read path's targets, writes them to bench/RESULTS.md and the raw
 * figures to bench/results-<timestamp>.json. Every process group started is stopped (also on Ctrl-C
 * and errors) and checked for leftovers.
 *
 * Exit codes: 0 ok; 1 when a sampled GET makes more D1 round trips than `--trip-limits` allows for its
 * state, or on a failure; 2 on bad arguments; 130/143 when interrupted.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DateTime } from "luxon";
import { resolveZone } from "../src/time/zone";
import {
  type CpuReading,
  type CpuUsage,
  clockTicksPerSecond,
  cpuBetween,
  groupProcesses,
  readCpu,
  settle,
  sumCpu,
} from "./bench/cpu";
import { ensureDataset } from "./bench/datasets";
import { type LoadOptions, type LoadRun, measureLoad, mergeLoads, runLoad } from "./bench/load";
import { groupCount, killTrackedGroups, stragglers } from "./bench/procs";
import {
  cpuOf,
  type DatasetResult,
  DEFAULT_TRIP_LIMITS,
  evaluateTargets,
  formatTripLimits,
  type Machine,
  type Measured,
  type PhasePair,
  p50Ratio,
  parseTripLimits,
  type RouteResult,
  type RunResult,
  renderMarkdown,
  rpsRatio,
  type TripLimits,
  tripViolations,
} from "./bench/report";
import {
  BUST_PARAM,
  COLD_PARAM,
  coldValue,
  type RouteSpec,
  routesFor,
  type Sample,
  sample,
  sampleStates,
  TRIP_STATES,
} from "./bench/routes";
import { buildSnapshot, type DevServer, startDev, stopDev } from "./bench/servers";
import { readSettings } from "./lib/config";
import { PATHS, ROOT } from "./lib/paths";
import { exitOnSignals, stopAll } from "./lib/processes";

const USAGE = `Usage: npm run bench -- [options]
  --sizes <d,d,…>       datasets: demo (the demo calendar of npm start) and/or numbers of generated
                        events (default demo; e.g. demo,100000 or 1000,10000,100000)
  --duration <s>        seconds of load per phase (default 10); each route has four phases: one
                        client and --connections connections, each on the route and the static worker
  --connections <n>     connections of the concurrent phase (default 16; the other phase has 1)
  --rounds <n>          rounds per phase, alternating real and static worker (default 2: real,
                        static, static, real; each round lasts duration/rounds)
  --warmup <s>          seconds of warm-up load before a route's first phase (default 2; at most 1 s
                        before each of the others)
  --trip-limits <l>     most D1 round trips allowed per state, e.g. miss=2,hit=1,304=1 for older
                        builds of the worker (default ${formatTripLimits(DEFAULT_TRIP_LIMITS)}); more fails the run
  --routes <k,k,…>      measure only these routes, by key (e.g. events-50-hit,events-50-304; the keys
                        are in scripts/bench/routes.ts and the JSON); targets need their routes
  --seed-only           prepare the datasets, then stop (no servers, no load, no report)
  --reseed              rebuild the datasets even when a complete one exists
  --no-bust             request every URL as is (repeats may be edge-cache hits) instead of a fresh
                        ${BUST_PARAM}=<n> per request
  --live-src            run wrangler dev on src/ (reloads on edits) instead of a snapshot bundle`;

/** `demo` or a number of generated events. */
type Dataset = "demo" | number;

interface Options {
  datasets: Dataset[];
  duration: number;
  connections: number;
  rounds: number;
  warmup: number;
  tripLimits: TripLimits;
  /** Route keys to measure (all when undefined). */
  routes?: string[];
  seedOnly: boolean;
  reseed: boolean;
  bust: boolean;
  liveSrc: boolean;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: "string", default: "demo" },
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "16" },
      rounds: { type: "string", default: "2" },
      warmup: { type: "string", default: "2" },
      "trip-limits": { type: "string", default: formatTripLimits(DEFAULT_TRIP_LIMITS) },
      routes: { type: "string" },
      "seed-only": { type: "boolean", default: false },
      reseed: { type: "boolean", default: false },
      bust: { type: "boolean", default: true },
      "live-src": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowNegative: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (name: string, text: string, min: number, max: number, integer = true) => {
    const n = Number(text);
    if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
      throw new Error(
        `--${name} must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, got ${JSON.stringify(text)}`,
      );
    return n;
  };
  const datasets: Dataset[] = values.sizes
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s === "demo" ? "demo" : number("sizes", s, 1, 1_000_000)));
  if (!datasets.length) throw new Error("--sizes names no dataset");
  return {
    datasets: [...new Set(datasets)],
    duration: number("duration", values.duration, 1, 3600),
    connections: number("connections", values.connections, 1, 1000),
    rounds: number("rounds", values.rounds, 1, 20),
    warmup: number("warmup", values.warmup, 0, 600),
    tripLimits: parseTripLimits(values["trip-limits"]),
    routes: values.routes
      ?.split(",")
      .map((k) => k.trim())
      .filter(Boolean),
    seedOnly: values["seed-only"],
    reseed: values.reseed,
    bust: values.bust,
    liveSrc: values["live-src"],
  };
}

let options: Options;
const argv = process.argv.slice(2);
try {
  options = parseOptions(argv);
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(2);
}

exitOnSignals("Stopping the benchmark: stopping wrangler and workerd…");
// Set when a signal arrives: the failures it causes (a child stopped mid-step) are not reported as errors.
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.on(signal, () => (interrupted = true));

const BENCH_STATE = path.join(ROOT, ".wrangler", "bench");
const BENCH_DIR = path.join(ROOT, "bench");
const rel = (p: string) => path.relative(ROOT, p) || ".";
const say = (line: string) => console.log(line);
const detail = (line: string) => console.log(`  ${line}`);
const fmtMs = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const fmtX = (n: number | null) => (n === null ? "n/a" : `${n.toFixed(2)}×`);
const fmtUs = (n: number | null) =>
  n === null ? "n/a" : `${Math.round(n).toLocaleString("en-US")} µs`;

function commandOutput(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return "?";
  }
}

function packageVersion(name: string): string {
  try {
    return (
      JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  } catch {
    return "?";
  }
}

function machineInfo(): Machine {
  return {
    nproc: commandOutput("nproc", []),
    cpu: os.cpus()[0]?.model.trim() ?? "?",
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    wrangler: packageVersion("wrangler"),
    workerd: packageVersion("workerd"),
    autocannon: packageVersion("autocannon"),
    clkTck: clockTicksPerSecond(),
    loadStart: os.loadavg(),
  };
}

/** The code a status-`status` answer carries (`rest_no_route`), for the n/a reason. */
function errorCode(excerpt: string): string {
  const m = /"code"\s*:\s*"([^"]+)"/.exec(excerpt);
  return m ? ` ${m[1]}` : "";
}

type Target = Omit<LoadOptions, "connections" | "duration">;

interface Round {
  run: LoadRun;
  cpu?: CpuUsage;
  settleMs: { before: number; after: number };
}

/**
 * A warm-up (when `warmup` > 0), then `seconds` of load, with the server's CPU read when the measuring
 * window opens and closes (load.ts `WINDOW`). Before the measured load and after it, waits until the
 * server has worked off what the previous load left outstanding (cpu.ts `settle`).
 */
async function round(
  server: DevServer,
  target: Target,
  connections: number,
  seconds: number,
  warmup: number,
): Promise<Round> {
  const pgid = server.child.pid;
  const procs = pgid ? groupProcesses(pgid, server.port) : [];
  if (warmup > 0) await runLoad({ ...target, connections, duration: warmup });
  const settleBefore = await settle(procs);
  let before: CpuReading | undefined;
  let cpu: CpuUsage | undefined;
  const run = await measureLoad({
    ...target,
    connections,
    duration: seconds,
    window: {
      open: () => {
        before = readCpu(procs);
      },
      close: () => {
        if (before) cpu = cpuBetween(before, readCpu(procs));
      },
    },
  });
  const settleAfter = await settle(procs);
  return { run, cpu, settleMs: { before: settleBefore, after: settleAfter } };
}

/** The rounds of one server in one phase, as one measurement (each round kept in `rounds`). */
function merge(rounds: Round[]): Measured {
  const cpus = rounds.map((r) => r.cpu);
  return {
    load: mergeLoads(rounds.map((r) => r.run)),
    cpu: cpus.every((c) => c !== undefined) ? sumCpu(cpus as CpuUsage[]) : undefined,
    settleMs: {
      before: Math.max(...rounds.map((r) => r.settleMs.before)),
      after: Math.max(...rounds.map((r) => r.settleMs.after)),
    },
    rounds: rounds.map((r) => ({ load: r.run.result, cpu: r.cpu, settleMs: r.settleMs })),
  };
}

/**
 * One phase: `--duration` seconds on the real worker and as many on the static worker, in
 * `--rounds` rounds that alternate real, static, static, real, … (so that a change of the machine's
 * load during the phase falls on both about equally); the warm-up before each server's first round.
 */
async function phasePair(
  real: DevServer,
  realTarget: Target,
  stat: DevServer,
  staticTarget: Target,
  connections: number,
  warmup: number,
): Promise<PhasePair> {
  const seconds = options.duration / options.rounds;
  const done = { real: [] as Round[], static: [] as Round[] };
  for (let i = 0; i < options.rounds; i++) {
    for (const which of i % 2 === 0
      ? (["real", "static"] as const)
      : (["static", "real"] as const)) {
      const first = done[which].length === 0;
      const w = !first ? 0 : which === "real" ? warmup : Math.min(1, warmup);
      done[which].push(
        which === "real"
          ? await round(real, realTarget, connections, seconds, w)
          : await round(stat, staticTarget, connections, seconds, w),
      );
    }
  }
  return { real: merge(done.real), static: merge(done.static) };
}

async function measureRoute(
  route: RouteSpec,
  real: DevServer,
  stat: DevServer,
  nsRoot: string,
  dsLabel: string,
  run: RunResult,
): Promise<RouteResult> {
  const url = real.origin + nsRoot + route.path.replace(/^\//, "");
  const expected = route.mode === "304" ? 304 : 200;
  const name = `${route.label}${route.note ? ` (${route.note})` : ""}`;
  const states = await sampleStates(url, route.mode);
  let headers: Record<string, string> = {};
  let s: Sample;
  const base = { key: route.key, label: route.label, note: route.note, mode: route.mode };
  if (route.mode === "miss" || route.mode === "cold") {
    s = states.miss!.first;
  } else if (route.mode === "hit") {
    await sample(url);
    s = await sample(url);
  } else {
    const first = await sample(url);
    if (first.status !== 200 || !first.etag) {
      const reason =
        first.status !== 200
          ? `HTTP ${first.status}${errorCode(first.excerpt)} for the list itself`
          : "no ETag header on the list (conditional requests not implemented)";
      detail(`${name}: n/a (${reason})`);
      return { ...base, path: route.path, sample: first, states, measured: false, reason };
    }
    headers = { "If-None-Match": first.etag };
    s = await sample(url, headers, 304);
  }
  const result: RouteResult = { ...base, path: route.path, sample: s, states, measured: false };
  const trips = TRIP_STATES.map((k) => {
    const st = states[k];
    return st ? (st.trips ?? "?") : "–";
  }).join("/");
  if (s.status !== expected) {
    result.reason = `HTTP ${s.status}${errorCode(s.excerpt)}`;
    if (s.status >= 500)
      run.warnings.push(
        `${dsLabel}: \`GET ${s.url}\`${Object.keys(headers).length ? ` with ${JSON.stringify(headers)}` : ""} answered ${s.status}: ${s.excerpt.slice(0, 300)}`,
      );
    detail(`${name}: n/a (${result.reason}; D1 ${trips})`);
    return result;
  }
  if (route.key === "events-50-hit" && s.xCache !== "HIT")
    result.reason = `the repeated request answered \`X-Cache: ${s.xCache ?? "(none)"}\`, not HIT`;

  const realTarget: Target = route.floor
    ? { origin: stat.origin, path: `/floor/${s.bytes}${route.floor === "hit" ? "?hit=1" : ""}` }
    : {
        origin: real.origin,
        path: url.slice(real.origin.length),
        headers,
        bustParam:
          route.mode === "miss" ? BUST_PARAM : route.mode === "cold" ? COLD_PARAM : undefined,
        bustValue: route.mode === "cold" ? coldValue : undefined,
      };
  // A floor row measures the static worker against itself (its floor path and its plain path).
  const measured = route.floor ? stat : real;
  if (route.floor) result.states = {};
  result.staticPath = route.mode === "304" ? "/0?status=304" : `/${s.bytes}`;
  const staticTarget: Target = { origin: stat.origin, path: result.staticPath };
  result.single = await phasePair(measured, realTarget, stat, staticTarget, 1, options.warmup);
  result.concurrent = await phasePair(
    measured,
    realTarget,
    stat,
    staticTarget,
    options.connections,
    Math.min(1, options.warmup),
  );
  result.measured = true;
  const unexpected: Record<string, number> = {};
  for (const l of [result.single.real.load, result.concurrent.real.load])
    for (const [code, n] of Object.entries(l.statuses))
      if (Number(code) !== expected) unexpected[code] = (unexpected[code] ?? 0) + n;
  if (Object.keys(unexpected).length) {
    result.unexpected = unexpected;
    run.warnings.push(
      `${dsLabel}: \`${route.label}\` answered ${Object.entries(unexpected)
        .map(([c, n]) => `${n}× ${c}`)
        .join(", ")} under load (see the real worker's log)`,
    );
  }
  const one = result.single;
  const many = result.concurrent;
  const cpu = (m?: Measured) => cpuOf(m);
  detail(
    `${name}: ${s.status}, ${s.bytes.toLocaleString("en-US")} B, D1 ${trips} — 1 client p50 ${fmtMs(one.real.load.p50)} ms (static ${one.static ? fmtMs(one.static.load.p50) : "n/a"}, ${fmtX(p50Ratio(result))}) | ${options.connections} conn. ${Math.round(many.real.load.rps)} req/s (static ${many.static ? Math.round(many.static.load.rps) : "n/a"}, ${fmtX(rpsRatio(result))}) | CPU per request ${fmtUs(cpu(many.real))} (static ${fmtUs(cpu(many.static))})`,
  );
  return result;
}

async function benchDataset(
  dataset: Dataset,
  entry: string | null,
  run: RunResult,
  today: string,
  siteTimezone: string,
  nsRoot: string,
): Promise<DatasetResult | null> {
  const label = dataset === "demo" ? "demo calendar" : `${dataset.toLocaleString("en-US")} events`;
  say(`\n▸ ${label}`);
  const dir = path.join(BENCH_STATE, String(dataset));
  const t0 = performance.now();
  const { seed, facts } = await ensureDataset({
    dataset: String(dataset),
    dir: rel(dir),
    today,
    siteTimezone,
    reseed: options.reseed,
    log: detail,
  });
  detail(
    seed.reused
      ? `reused ${seed.dir} (${facts.events.toLocaleString("en-US")} events, built ${seed.seededAt.slice(0, 10)} around ${seed.today}); checked in ${((performance.now() - t0) / 1000).toFixed(1)} s`
      : `seeded ${seed.dir} in ${seed.seconds.toFixed(1)} s (migrations ${seed.migrateSeconds.toFixed(1)} s, ${seed.batches} D1 batches, ${(seed.sqlBytes / 1_048_576).toFixed(1)} MiB of SQL)`,
  );
  detail(
    `route parameters from the data: most used category ${facts.category} (${facts.categoryCount} published events), event ${facts.eventId}`,
  );
  if (options.seedOnly) return null;
  // Edge-cache entries of earlier runs would turn the first requests into hits; local traces are
  // not wanted (see servers.ts). Both are also removed at the end, so state directories stay small.
  const scratch = () => {
    for (const sub of ["cache", "observability"]) {
      rmSync(path.join(dir, "v3", sub), { recursive: true, force: true });
    }
  };
  scratch();

  const logDir = path.join(BENCH_STATE, "logs");
  let real: DevServer | undefined;
  let stat: DevServer | undefined;
  try {
    let t = performance.now();
    const realArgs = entry
      ? [entry, "--no-bundle", "--config", PATHS.wranglerToml]
      : ["--config", PATHS.wranglerToml];
    real = await startDev({
      name: `real-${dataset}`,
      args: [...realArgs, "--persist-to", rel(dir)],
      logDir,
      probePath: nsRoot,
    });
    const realStart = (performance.now() - t) / 1000;
    t = performance.now();
    rmSync(path.join(BENCH_STATE, "static"), { recursive: true, force: true });
    stat = await startDev({
      name: "static",
      args: [
        "--config",
        path.join(BENCH_DIR, "static", "wrangler.toml"),
        "--persist-to",
        rel(path.join(BENCH_STATE, "static")),
      ],
      logDir,
      probePath: "/0",
    });
    const staticStart = (performance.now() - t) / 1000;
    detail(
      `real worker ${real.origin} (ready in ${realStart.toFixed(1)} s), static worker ${stat.origin} (${staticStart.toFixed(1)} s); logs in ${rel(logDir)}`,
    );
    const loadStart = os.loadavg();
    const routes: RouteResult[] = [];
    const all = routesFor(facts, today, options.bust);
    const unknown = (options.routes ?? []).filter((k) => !all.some((r) => r.key === k));
    if (unknown.length)
      throw new Error(
        `--routes: no route ${unknown.join(", ")}; the keys are ${all.map((r) => r.key).join(", ")}`,
      );
    for (const route of all.filter((r) => !options.routes || options.routes.includes(r.key)))
      routes.push(await measureRoute(route, real, stat, nsRoot, label, run));
    return {
      dataset: String(dataset),
      label,
      seed,
      facts,
      startSeconds: { real: realStart, static: staticStart },
      load: { start: loadStart, end: os.loadavg() },
      routes,
      targets: evaluateTargets(routes, facts.events, options.connections),
    };
  } finally {
    await stopDev(real);
    await stopDev(stat);
    scratch();
  }
}

async function main(): Promise<number> {
  const settings = readSettings();
  const zone = resolveZone(settings.siteTimezone) ?? "utc";
  const today = DateTime.now().setZone(zone).toFormat("yyyy-MM-dd");
  const nsRoot = `/${settings.restPrefix}/${settings.vendor}/events/v1/`;
  const startedAt = new Date().toISOString();
  const run: RunResult = {
    startedAt,
    command: `npm run bench${argv.length ? ` -- ${argv.join(" ")}` : ""}`,
    options: {
      datasets: options.datasets.map(String),
      duration: options.duration,
      warmup: options.warmup,
      connections: options.connections,
      rounds: options.rounds,
      bust: options.bust,
      snapshot: !options.liveSrc,
      tripLimits: options.tripLimits,
    },
    machine: machineInfo(),
    git: {
      head: commandOutput("git", ["rev-parse", "--short", "HEAD"]),
      uncommitted: commandOutput("git", ["status", "--porcelain"]).split("\n").filter(Boolean)
        .length,
    },
    datasets: [],
    violations: [],
    warnings: [],
  };
  say(
    `Benchmark: datasets ${options.datasets.join(", ")}; per route ${options.duration} s × 4 phases (1 client and ${options.connections} connections, real and static), ${options.warmup} s warm-up; D1 limits ${formatTripLimits(options.tripLimits)}; nproc ${run.machine.nproc}, load ${run.machine.loadStart.map((x) => x.toFixed(2)).join(" ")}`,
  );
  mkdirSync(BENCH_STATE, { recursive: true });

  let failure: unknown = null;
  try {
    let entry: string | null = null;
    if (!options.liveSrc && !options.seedOnly) {
      const t = performance.now();
      entry = await buildSnapshot(path.join(BENCH_STATE, "build"));
      say(
        `✓ Bundled the worker as it is now (${((performance.now() - t) / 1000).toFixed(1)} s): ${rel(entry)}`,
      );
    }
    for (const dataset of options.datasets) {
      const result = await benchDataset(dataset, entry, run, today, settings.siteTimezone, nsRoot);
      if (!result) continue;
      run.datasets.push(result);
      for (const r of result.routes)
        for (const v of tripViolations(r, options.tripLimits))
          run.violations.push(`${result.label}: ${v}`);
    }
  } catch (err) {
    failure = err;
  } finally {
    await stopAll();
  }
  if (interrupted) return 130;
  {
    const left = stragglers();
    if (left.length) {
      console.warn(
        `! ${left.length} process(es) of this run were still alive: ${left.map((p) => `${p.pid} ${p.command}`).join(", ")}; killing them`,
      );
      killTrackedGroups();
    } else {
      say(
        `✓ Stopped every process this run started (${groupCount()} process groups; no workerd left)`,
      );
    }
  }
  if (failure && interrupted) return 130;
  if (failure) {
    console.error(`\n✗ ${failure instanceof Error ? failure.message : String(failure)}`);
    return 1;
  }
  if (options.seedOnly) return 0;

  run.finishedAt = new Date().toISOString();
  run.machine.loadEnd = os.loadavg();
  const markdown = renderMarkdown(run);
  mkdirSync(BENCH_DIR, { recursive: true });
  const results = path.join(BENCH_DIR, "RESULTS.md");
  writeFileSync(results, markdown);
  // Biome formats Markdown too (its tables padded): written as `npm run lint` wants it.
  try {
    execFileSync(path.join(ROOT, "node_modules", ".bin", "biome"), ["format", "--write", results], {
      stdio: "ignore",
    });
  } catch {
    say(`(could not format ${rel(results)} with Biome: run \`npm run format\`)`);
  }
  const json = path.join(
    BENCH_DIR,
    `results-${startedAt.replace(/:/g, "-").replace(/\.\d+Z$/, "Z")}.json`,
  );
  writeFileSync(json, `${JSON.stringify(run, null, 2)}\n`);
  console.log(`\n${markdown}`);
  say(`Wrote ${rel(path.join(BENCH_DIR, "RESULTS.md"))} and ${rel(json)}`);
  return run.violations.length ? 1 : 0;
}

process.exit(await main());
