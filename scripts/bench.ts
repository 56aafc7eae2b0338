/**
 * `npm run bench [-- --sizes 1000,10000,100000] [--duration 10] [--connections 10] [--warmup 2]`
 *
 * The project's benchmark (issues 3 and 7). For each dataset size:
 * 1. a local D1 state directory `.wrangler/bench/<size>`, migrated and seeded with a deterministic,
 *    realistic calendar (scripts/bench/dataset.ts), or reused when complete;
 * 2. the real worker (`wrangler dev` on a snapshot bundle of src/, over that directory) and the static
 *    worker of bench/static ("the limit": same runtime, no work, a body of the same size);
 * 3. per route: one sample request (status, body size, D1 round trips from `Server-Timing`, ETag),
 *    a warm-up, then autocannon against the route and against the static worker.
 * Prints a markdown table, writes it to bench/RESULTS.md and the raw figures to
 * bench/results-<timestamp>.json. Every process group started is stopped (also on Ctrl-C and errors)
 * and checked for leftovers.
 *
 * Exit codes: 0 ok; 1 when a GET makes more than 2 D1 round trips, or on a failure; 2 on bad arguments;
 * 130/143 when interrupted.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DateTime } from "luxon";
import { resolveZone } from "../src/time/zone";
import { type LoadResult, runLoad } from "./bench/load";
import { groupCount, killTrackedGroups, stragglers } from "./bench/procs";
import {
  type Machine,
  type RouteResult,
  type RunResult,
  renderMarkdown,
  type SizeResult,
  tripViolation,
} from "./bench/report";
import {
  BUST_PARAM,
  busted,
  COLD_PARAM,
  coldValue,
  type RouteSpec,
  routesFor,
  sample,
} from "./bench/routes";
import { ensureDataset, type Seeder } from "./bench/seed";
import { buildSnapshot, type DevServer, startDev, stopDev } from "./bench/servers";
import { readSettings } from "./lib/config";
import { PATHS, ROOT } from "./lib/paths";
import { exitOnSignals, stopAll } from "./lib/processes";

const USAGE = `Usage: npm run bench -- [options]
  --sizes <n,n,…>       dataset sizes in events (default 10000; e.g. 1000,10000,100000)
  --duration <s>        seconds of load per route (default 10)
  --connections <n>     concurrent connections (default 10)
  --warmup <s>          seconds of warm-up load per route before measuring (default 2)
  --seeder <how>        auto | file | proxy (default auto: file up to 20000 events, proxy above)
  --chunk <n>           events per seeding transaction (default 2500 for file, 2000 for proxy)
  --reseed              rebuild the datasets even when a complete one exists
  --no-bust             request every URL as is (repeats may be edge-cache hits) instead of a fresh
                        ${BUST_PARAM}=<n> per request
  --live-src            run wrangler dev on src/ (reloads on edits) instead of a snapshot bundle`;

interface Options {
  sizes: number[];
  duration: number;
  connections: number;
  warmup: number;
  seeder: "auto" | Seeder;
  chunk?: number;
  reseed: boolean;
  bust: boolean;
  liveSrc: boolean;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: "string", default: "10000" },
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "10" },
      warmup: { type: "string", default: "2" },
      seeder: { type: "string", default: "auto" },
      chunk: { type: "string" },
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
  const sizes = values.sizes.split(",").map((s) => number("sizes", s.trim(), 1, 1_000_000));
  if (!["auto", "file", "proxy"].includes(values.seeder))
    throw new Error(`--seeder must be auto, file or proxy, got ${JSON.stringify(values.seeder)}`);
  return {
    sizes: [...new Set(sizes)],
    duration: number("duration", values.duration, 1, 3600),
    connections: number("connections", values.connections, 1, 1000),
    warmup: number("warmup", values.warmup, 0, 600),
    seeder: values.seeder as Options["seeder"],
    chunk: values.chunk === undefined ? undefined : number("chunk", values.chunk, 1, 100_000),
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
const fmtLoad = (l: LoadResult) =>
  `${Math.round(l.rps).toLocaleString("en-US")} req/s, p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms`;

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
    loadStart: os.loadavg(),
  };
}

/** The code a status-`status` answer carries (`rest_no_route`), for the n/a reason. */
function errorCode(excerpt: string): string {
  const m = /"code"\s*:\s*"([^"]+)"/.exec(excerpt);
  return m ? ` ${m[1]}` : "";
}

async function measureRoute(
  route: RouteSpec,
  real: DevServer,
  stat: DevServer,
  nsRoot: string,
  sizeLabel: string,
  run: RunResult,
): Promise<RouteResult> {
  const url = real.origin + nsRoot + route.path.replace(/^\//, "");
  const expected = route.mode === "304" ? 304 : 200;
  let headers: Record<string, string> = {};
  let s: Awaited<ReturnType<typeof sample>>;
  if (route.mode === "miss") {
    s = await sample(busted(url, `sample-${Date.now()}`));
  } else if (route.mode === "cold") {
    s = await sample(busted(url, coldValue(0), COLD_PARAM));
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
      return {
        key: route.key,
        label: route.label,
        note: route.note,
        mode: route.mode,
        path: route.path,
        sample: first,
        measured: false,
        reason,
      };
    }
    headers = { "If-None-Match": first.etag };
    s = await sample(url, headers, 304);
  }
  const result: RouteResult = {
    key: route.key,
    label: route.label,
    note: route.note,
    mode: route.mode,
    path: route.path,
    sample: s,
    measured: false,
  };
  if (s.status !== expected) {
    result.reason = `HTTP ${s.status}${errorCode(s.excerpt)}`;
    if (s.status >= 500)
      run.warnings.push(
        `${sizeLabel}: \`GET ${s.url}\`${Object.keys(headers).length ? ` with ${JSON.stringify(headers)}` : ""} answered ${s.status}: ${s.excerpt.slice(0, 300)}`,
      );
    detail(`${route.label}${route.note ? ` (${route.note})` : ""}: n/a (${result.reason})`);
    return result;
  }
  if (route.key === "events-50-hit" && s.xCache !== "HIT")
    result.reason = `the repeated request answered \`X-Cache: ${s.xCache ?? "(none)"}\`, not HIT`;

  const bust = route.mode === "miss" ? BUST_PARAM : route.mode === "cold" ? COLD_PARAM : undefined;
  const bustValue = route.mode === "cold" ? coldValue : undefined;
  const base = {
    origin: real.origin,
    path: url.slice(real.origin.length),
    headers,
    connections: options.connections,
    bustParam: bust,
    bustValue,
  };
  if (options.warmup > 0) await runLoad({ ...base, duration: options.warmup });
  result.load = await runLoad({ ...base, duration: options.duration });
  result.measured = true;
  const unexpected = Object.fromEntries(
    Object.entries(result.load.statuses).filter(([code]) => Number(code) !== expected),
  );
  if (Object.keys(unexpected).length) {
    result.unexpected = unexpected;
    run.warnings.push(
      `${sizeLabel}: \`${route.label}\` answered ${Object.entries(unexpected)
        .map(([c, n]) => `${n}× ${c}`)
        .join(", ")} under load (see the real worker's log)`,
    );
  }
  result.staticPath = route.mode === "304" ? "/0?status=304" : `/${s.bytes}`;
  const staticBase = {
    origin: stat.origin,
    path: result.staticPath,
    connections: options.connections,
  };
  if (options.warmup > 0) await runLoad({ ...staticBase, duration: Math.min(1, options.warmup) });
  result.static = await runLoad({ ...staticBase, duration: options.duration });
  const ratio = result.static.rps > 0 ? (result.load.rps / result.static.rps).toFixed(2) : "n/a";
  detail(
    `${route.label}${route.note ? ` (${route.note})` : ""}: ${s.status}, ${s.bytes.toLocaleString("en-US")} B, D1 ${s.trips ?? "?"} — ${fmtLoad(result.load)} | static ${fmtLoad(result.static)} | ${ratio}`,
  );
  return result;
}

async function benchSize(
  size: number,
  entry: string | null,
  run: RunResult,
  today: string,
  siteTimezone: string,
  nsRoot: string,
): Promise<SizeResult> {
  const label = `${size.toLocaleString("en-US")} events`;
  say(`\n▸ ${label}`);
  const dir = path.join(BENCH_STATE, String(size));
  const seeder: Seeder =
    options.seeder === "auto" ? (size > 20_000 ? "proxy" : "file") : options.seeder;
  const t0 = performance.now();
  const { report, facts } = await ensureDataset({
    size,
    dir: rel(dir),
    seeder,
    chunkEvents: options.chunk ?? (seeder === "file" ? 2500 : 2000),
    today,
    siteTimezone,
    configPath: PATHS.wranglerToml,
    reseed: options.reseed,
    log: detail,
  });
  if (report.reused)
    detail(
      `reused ${report.dir} (${facts.events.toLocaleString("en-US")} events; seeded ${report.seededAt.slice(0, 10)} in ${report.seconds.toFixed(1)} s); checked in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  else
    detail(
      `seeded ${report.dir} in ${report.seconds.toFixed(1)} s (migrations ${report.migrateSeconds.toFixed(1)} s, ${report.chunks} ${seeder === "file" ? "wrangler d1 execute --file runs" : "D1 batches"}, ${(report.sqlBytes / 1_048_576).toFixed(0)} MiB of SQL)`,
    );
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
      name: `real-${size}`,
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
    const routes: RouteResult[] = [];
    for (const route of routesFor(facts, today, options.bust))
      routes.push(await measureRoute(route, real, stat, nsRoot, label, run));
    return {
      size,
      seed: report,
      facts,
      startSeconds: { real: realStart, static: staticStart },
      routes,
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
      sizes: options.sizes,
      duration: options.duration,
      warmup: options.warmup,
      connections: options.connections,
      seeder: options.seeder,
      bust: options.bust,
      snapshot: !options.liveSrc,
    },
    machine: machineInfo(),
    git: {
      head: commandOutput("git", ["rev-parse", "--short", "HEAD"]),
      uncommitted: commandOutput("git", ["status", "--porcelain"]).split("\n").filter(Boolean)
        .length,
    },
    sizes: [],
    violations: [],
    warnings: [],
  };
  say(
    `Benchmark: sizes ${options.sizes.join(", ")}; ${options.duration} s per route, ${options.connections} connections, ${options.warmup} s warm-up; nproc ${run.machine.nproc}, load ${run.machine.loadStart.map((x) => x.toFixed(2)).join(" ")}`,
  );
  mkdirSync(BENCH_STATE, { recursive: true });

  let failure: unknown = null;
  try {
    let entry: string | null = null;
    if (!options.liveSrc) {
      const t = performance.now();
      entry = await buildSnapshot(path.join(BENCH_STATE, "build"));
      say(
        `✓ Bundled the worker as it is now (${((performance.now() - t) / 1000).toFixed(1)} s): ${rel(entry)}`,
      );
    }
    for (const size of options.sizes) {
      const result = await benchSize(size, entry, run, today, settings.siteTimezone, nsRoot);
      run.sizes.push(result);
      for (const r of result.routes) {
        const v = tripViolation(r);
        if (v) run.violations.push(`${size.toLocaleString("en-US")} events: ${v}`);
      }
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

  run.finishedAt = new Date().toISOString();
  run.machine.loadEnd = os.loadavg();
  const markdown = renderMarkdown(run);
  mkdirSync(BENCH_DIR, { recursive: true });
  writeFileSync(path.join(BENCH_DIR, "RESULTS.md"), markdown);
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
