/**
 * `npm run bench [-- --sizes demo,100000] [--duration 10] [--connections 16] [--routes k,…] …`
 *
 * The project's benchmark (bench/README.md). For each dataset (`demo`, the demo calendar of
 * `npm start`, a number of generated events, or `series`: weekly series among single events): its local D1 state directory (scripts/bench/
 * datasets.ts); the real worker (`wrangler dev` on a snapshot bundle of src/) and the static worker
 * of bench/static ("the limit": the same runtime doing no work, a body of the same size); each row
 * (scripts/bench/routes.ts). Prints the report, writes it to bench/RESULTS.md and the raw figures to
 * bench/results-<timestamp>.json. Every process group started is stopped (also on Ctrl-C and
 * errors) and checked for leftovers.
 *
 * Exit codes: 0 ok; 1 when a sampled GET makes more D1 round trips than `--trip-limits` allows for its
 * state, or on a failure; 2 on bad arguments; 130 when interrupted.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DateTime } from "luxon";
import { resolveZone } from "../src/time/zone";
import { ensureDataset } from "./bench/datasets";
import { datasetLabel } from "./bench/generate";
import * as report from "./bench/report";
import { BUST_PARAM, measureRoute, routesFor } from "./bench/routes";
import * as servers from "./bench/servers";
import { benchWrites, WRITE_KEYS } from "./bench/writes";
import { readSettings } from "./lib/config";
import { PATHS, ROOT } from "./lib/paths";
import { exitOnSignals, stopAll } from "./lib/processes";

const LIMITS = report.formatTripLimits(report.DEFAULT_TRIP_LIMITS);
const USAGE = `Usage: npm run bench -- [options]
  --sizes <d,d,…>       datasets: demo (the demo calendar of npm start), series (10,000 weekly series
                        × 52 occurrences among 10,000 single events) and/or numbers of generated
                        events (default demo; e.g. demo,100000 or 1000,10000,100000,series)
  --duration <s>        seconds of load per phase (default 10); each route has four phases: one
                        client and --connections connections, each on the route and the static worker
  --connections <n>     connections of the concurrent phase (default 16; the other phase has 1)
  --rounds <n>          rounds per phase, alternating real and static worker (default 2: real,
                        static, static, real; each round lasts duration/rounds)
  --warmup <s>          seconds of warm-up load before a route's first phase (default 2; at most 1 s
                        before each of the others)
  --trip-limits <l>     most D1 round trips allowed per state, e.g. miss=2,hit=1,304=1 for older
                        builds of the worker (default ${LIMITS}); more fails the run
  --repeat <n>          measure each row n times (default 1); the targets take the median of the
                        n ratios, and the tables show the measurement with the median p50 ratio
  --routes <k,k,…>      only these rows, by key (bench/README.md; e.g. events-50-hit,events-50-304,
                        or the series writes: series-write,series-split)
  --write-iterations <n> measured requests per series-write row (default 5; one more first, not counted)
  --seed-only           prepare the datasets, then stop (no servers, no load, no report)
  --reseed              rebuild the datasets even when a complete one exists
  --no-bust             request every URL as is (repeats may be edge-cache hits) instead of a fresh
                        ${BUST_PARAM}=<n> per request
  --live-src            run wrangler dev on src/ (reloads on edits) instead of a snapshot bundle`;

function parseOptions(argv: string[]): report.BenchOptions {
  const string = (value: string) => ({ type: "string", default: value }) as const;
  const flag = (value: boolean) => ({ type: "boolean", default: value }) as const;
  const { values: v } = parseArgs({
    args: argv,
    options: {
      ...{ sizes: string("demo"), duration: string("10"), connections: string("16") },
      ...{ rounds: string("2"), warmup: string("2"), "trip-limits": string(LIMITS) },
      ...{ "write-iterations": string("5"), repeat: string("1") },
      ...{ routes: { type: "string" }, "seed-only": flag(false), reseed: flag(false) },
      ...{ bust: flag(true), "live-src": flag(false), help: { type: "boolean", short: "h" } },
    },
    allowNegative: true,
    strict: true,
  });
  if (v.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (name: string, text: string, min: number, max: number) => {
    const n = Number(text);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    throw new Error(
      `--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  };
  const list = (text: string) =>
    text
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const datasets = list(v.sizes).map((s) =>
    s === "demo" || s === "series" ? s : String(number("sizes", s, 1, 1e6)),
  );
  if (!datasets.length) throw new Error("--sizes names no dataset");
  return {
    datasets: [...new Set(datasets)],
    duration: number("duration", v.duration, 1, 3600),
    connections: number("connections", v.connections, 1, 1000),
    rounds: number("rounds", v.rounds, 1, 20),
    warmup: number("warmup", v.warmup, 0, 600),
    tripLimits: report.parseTripLimits(v["trip-limits"]),
    writeIterations: number("write-iterations", v["write-iterations"], 1, 1000),
    repeat: number("repeat", v.repeat, 1, 9),
    routes: v.routes === undefined ? undefined : list(v.routes),
    ...{ seedOnly: v["seed-only"], reseed: v.reseed, bust: v.bust, liveSrc: v["live-src"] },
  };
}

const argv = process.argv.slice(2);
let o: report.BenchOptions;
try {
  o = parseOptions(argv);
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(2);
}

exitOnSignals("Stopping the benchmark: stopping wrangler and workerd…");
// Set when a signal arrives: the failures it causes (a child stopped mid-step) are not errors.
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.on(signal, () => (interrupted = true));

const STATE = path.join(ROOT, ".wrangler", "bench");
const rel = (p: string) => path.relative(ROOT, p) || ".";
const detail = (line: string) => console.log(`  ${line}`);
const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
const attempt = (f: () => string) => {
  try {
    return f();
  } catch {
    return "?";
  }
};
const output = (cmd: string, args: string[]) =>
  attempt(() => execFileSync(cmd, args, { cwd: ROOT, encoding: "utf8", stdio: "pipe" }).trim());
const version = (name: string) =>
  attempt(
    () => JSON.parse(readFileSync(`${ROOT}/node_modules/${name}/package.json`, "utf8")).version,
  );

/** One dataset: its directory, the two servers over it, every row; null with `--seed-only`. */
async function benchDataset(
  dataset: string,
  run: report.RunResult,
  ctx: { entry: string | null; today: string; zone: string; nsRoot: string },
) {
  const label = datasetLabel(dataset);
  console.log(`\n▸ ${label}`);
  const dir = path.join(STATE, dataset);
  const t0 = performance.now();
  const { seed, facts } = await ensureDataset({
    dataset,
    dir: rel(dir),
    today: ctx.today,
    siteTimezone: ctx.zone,
    reseed: o.reseed,
    log: detail,
  });
  detail(
    seed.reused
      ? `reused ${seed.dir} (${facts.events.toLocaleString("en-US")} events${facts.occurrences ? ` and ${facts.occurrences.toLocaleString("en-US")} occurrences` : ""}, built ${seed.seededAt.slice(0, 10)} around ${seed.today}); checked in ${since(t0)}`
      : `seeded ${seed.dir} in ${seed.seconds.toFixed(1)} s (migrations ${seed.migrateSeconds.toFixed(1)} s, ${seed.batches} D1 batches, ${(seed.sqlBytes / 1_048_576).toFixed(1)} MiB of SQL)`,
  );
  detail(
    `route parameters from the data: most used category ${facts.category} (${facts.categoryCount} published events), event ${facts.eventId}`,
  );
  if (o.seedOnly) return null;
  // Edge-cache entries of earlier runs would turn first requests into hits; local traces are not
  // wanted. Both are removed at the start and at the end, so that state directories stay small.
  const scratch = () => {
    for (const sub of ["cache", "observability"])
      rmSync(path.join(dir, "v3", sub), { recursive: true, force: true });
  };
  scratch();
  const logDir = path.join(STATE, "logs");
  const staticDir = path.join(STATE, "static");
  let real: servers.DevServer | undefined;
  let stat: servers.DevServer | undefined;
  try {
    let t = performance.now();
    const realArgs = [
      ...(ctx.entry ? [ctx.entry, "--no-bundle"] : []),
      "--config",
      PATHS.wranglerToml,
    ];
    real = await servers.startDev(
      `real-${dataset}`,
      [...realArgs, "--persist-to", rel(dir)],
      logDir,
      ctx.nsRoot,
    );
    const startSeconds = { real: (performance.now() - t) / 1000, static: 0 };
    t = performance.now();
    rmSync(staticDir, { recursive: true, force: true });
    const staticArgs = ["--config", "bench/static/wrangler.toml", "--persist-to", rel(staticDir)];
    stat = await servers.startDev("static", staticArgs, logDir, "/0");
    startSeconds.static = (performance.now() - t) / 1000;
    detail(
      `real worker ${real.origin} (ready in ${startSeconds.real.toFixed(1)} s), static worker ${stat.origin} (${since(t)}); logs in ${rel(logDir)}`,
    );
    const loadStart = os.loadavg();
    const phase = {
      duration: o.duration,
      rounds: o.rounds,
      warmup: o.warmup,
      connections: o.connections,
    };
    const measure = {
      real,
      stat,
      nsRoot: ctx.nsRoot,
      phase,
      log: detail,
      warn: (w: string) => run.warnings.push(`${label}: ${w}`),
    };
    const routes = [];
    for (const route of routesFor(facts, ctx.today, o.bust)) {
      if (o.routes && !o.routes.includes(route.key)) continue;
      const results = [];
      for (let i = 0; i < o.repeat; i++) results.push(await measureRoute(route, measure));
      routes.push(report.withRepeats(results));
    }
    const writeKeys = WRITE_KEYS.filter((k) => !o.routes || o.routes.includes(k));
    const writes = writeKeys.length
      ? await benchWrites({
          ...{ keys: writeKeys, iterations: o.writeIterations, dir: rel(dir), entry: ctx.entry },
          ...{ wranglerToml: PATHS.wranglerToml, stat, nsRoot: ctx.nsRoot, logDir, log: detail },
        })
      : [];
    // Occurrences are listed as events: a target "at 100,000 events" counts them.
    const targets = report.evaluateTargets(routes, facts.events + facts.occurrences, o.connections);
    const load = { start: loadStart, end: os.loadavg() };
    return {
      dataset,
      label,
      seed,
      facts,
      startSeconds,
      load,
      routes,
      targets,
      writes,
    } satisfies report.DatasetResult;
  } finally {
    await servers.stopDev(real);
    await servers.stopDev(stat);
    scratch();
  }
}

async function main(): Promise<number> {
  const settings = readSettings();
  const zone = settings.siteTimezone;
  const today = DateTime.now()
    .setZone(resolveZone(zone) ?? "utc")
    .toFormat("yyyy-MM-dd");
  const nsRoot = `/${settings.restPrefix}/${settings.vendor}/events/v1/`;
  const keys = [
    ...routesFor({ category: "", eventId: 0 }, today, true).map((r) => r.key),
    ...WRITE_KEYS,
  ];
  const unknown = (o.routes ?? []).filter((k) => !keys.includes(k));
  if (unknown.length) {
    console.error(`--routes: no row ${unknown.join(", ")}; the keys are ${keys.join(", ")}`);
    return 2;
  }
  const run: report.RunResult = {
    startedAt: new Date().toISOString(),
    command: `npm run bench${argv.length ? ` -- ${argv.join(" ")}` : ""}`,
    options: { ...o, snapshot: !o.liveSrc },
    machine: {
      nproc: output("nproc", []),
      cpu: os.cpus()[0]?.model.trim() ?? "?",
      memGiB: Math.round(os.totalmem() / 2 ** 30),
      os: `${os.type()} ${os.release()}`,
      node: process.version,
      ...{
        wrangler: version("wrangler"),
        workerd: version("workerd"),
        autocannon: version("autocannon"),
      },
      clkTck: servers.CLK_TCK,
      loadStart: os.loadavg(),
    },
    git: {
      head: output("git", ["rev-parse", "--short", "HEAD"]),
      uncommitted: output("git", ["status", "--porcelain"]).split("\n").filter(Boolean).length,
    },
    ...{ datasets: [], violations: [], warnings: [] },
  };
  const load = run.machine.loadStart.map((x) => x.toFixed(2)).join(" ");
  console.log(
    `Benchmark: datasets ${o.datasets.join(", ")}; per route ${o.duration} s × 4 phases (1 client and ${o.connections} connections, real and static), ${o.warmup} s warm-up; D1 limits ${report.formatTripLimits(o.tripLimits)}; nproc ${run.machine.nproc}, load ${load}`,
  );
  mkdirSync(STATE, { recursive: true });
  let failure: unknown = null;
  try {
    const t = performance.now();
    const entry =
      o.liveSrc || o.seedOnly ? null : await servers.buildSnapshot(path.join(STATE, "build"));
    if (entry) console.log(`✓ Bundled the worker as it is now (${since(t)}): ${rel(entry)}`);
    for (const dataset of o.datasets) {
      const result = await benchDataset(dataset, run, { entry, today, zone, nsRoot });
      if (!result) continue;
      run.datasets.push(result);
      for (const r of result.routes)
        run.violations.push(
          ...report.tripViolations(r, o.tripLimits).map((v) => `${result.label}: ${v}`),
        );
    }
  } catch (err) {
    failure = err;
  } finally {
    await stopAll();
  }
  if (interrupted) return 130;
  const left = servers.stragglers();
  if (left.length) {
    console.warn(
      `! ${left.length} process(es) of this run were still alive: ${left.map((p) => `${p.pid} ${p.comm}`).join(", ")}; killing them`,
    );
    servers.killStragglers();
  } else
    console.log(
      `✓ Stopped every process this run started (${servers.groupCount()} process groups; none left)`,
    );
  if (failure) {
    console.error(`\n✗ ${failure instanceof Error ? failure.message : String(failure)}`);
    return 1;
  }
  if (o.seedOnly) return 0;
  run.finishedAt = new Date().toISOString();
  run.machine.loadEnd = os.loadavg();
  const markdown = report.renderMarkdown(run);
  writeFileSync(path.join(ROOT, "bench/RESULTS.md"), markdown);
  // Biome formats Markdown too (its tables padded): written as `npm run lint` wants it.
  const formatted = output(path.join(ROOT, "node_modules/.bin/biome"), [
    "format",
    "--write",
    "bench/RESULTS.md",
  ]);
  if (formatted === "?")
    console.log("(could not format bench/RESULTS.md with Biome: run `npm run format`)");
  const json = `bench/results-${run.startedAt.replace(/:/g, "-").replace(/\.\d+Z$/, "Z")}.json`;
  writeFileSync(path.join(ROOT, json), `${JSON.stringify(run, null, 2)}\n`);
  console.log(`\n${markdown}\nWrote bench/RESULTS.md and ${json}`);
  return run.violations.length ? 1 : 0;
}

process.exit(await main());
