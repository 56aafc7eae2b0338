/**
 * Load with autocannon (in this process: the client competes for the same cores, equally for both
 * workers), and the phases of a route: the real worker and the static worker in alternating rounds,
 * each with the CPU its server's processes used in the measuring window.
 *
 * Latency percentiles come from every answer's own response time (autocannon's `response` event,
 * fractional ms, any status), not from autocannon's summary: that one records whole milliseconds and
 * leaves out non-2xx answers (a 304 run would have no latency).
 */
import autocannon from "autocannon";
import {
  CLK_TCK,
  CPU_ROLES,
  type CpuRole,
  type CpuTicks,
  type DevServer,
  readTicks,
  serverProcesses,
  settle,
  ticksBetween,
} from "./servers";

/** What to load: a server, a path with its query, headers, and a fresh cache-busting value per request. */
export interface Target {
  server: DevServer;
  path: string;
  headers?: Record<string, string>;
  /** Appends `&<param>=<value(n)>` with a never-used n per request (`freshSerial`). */
  bust?: { param: string; value: (n: number) => string };
}

/**
 * The measuring window, as fractions of a round: inside it the client keeps the same number of
 * requests outstanding, so the work in progress when it opens and closes is about the same, and
 * "CPU in the window ÷ answers in the window" is the cost of one answer; neither the ramp-up nor the
 * answers abandoned when the round ends by the clock skew it.
 */
const WINDOW = { open: 0.15, close: 0.95 };

/** Answers under load by what they said of themselves, per value ("none" without the header). */
export interface AnswerTally {
  answers: number;
  /** Per D1 round-trip count of `Server-Timing`. */
  trips: Record<string, number>;
  xCache: Record<string, number>;
}

/** What a load counted: the answers in the measuring window(s) and in all, statuses, headers. */
interface Counts {
  window: { requests: number; seconds: number } | null;
  requests: number;
  seconds: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  tally: AnswerTally;
}

/** The figures of one load, or of a phase's rounds together. */
export interface LoadResult extends Counts {
  connections: number;
  /** Answers per second in the measuring window (over the whole load when there was none). */
  rps: number;
  /** Response times in ms (nearest rank over every answer, any status). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** A load's counts and every answer's response time (ms). */
type Raw = Counts & { times: number[] };
type Settled = { before: number; after: number };
/** One server in one phase (its rounds together, and each): the CPU ticks per role in the windows, the ms waited for it to idle. */
export interface Measured {
  load: LoadResult;
  cpu?: CpuTicks;
  settleMs: Settled;
  rounds: Array<{ load: LoadResult; cpu?: CpuTicks; settleMs: Settled }>;
}

/** One phase: the real worker (or a floor path) and the static worker with the same body size. */
export interface PhasePair {
  real: Measured;
  static: Measured;
}

let serial = 0;
/** A number never used before in this run: no load or sample repeats a cache-busting value. */
export const freshSerial = (): number => ++serial;

export const TRIPS = /d1;desc="(\d+) round trips?"/;

const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
};

/** Loads taken together: percentiles over all their answers, rates over the summed windows. */
function summarize(raws: Raw[], connections: number): LoadResult {
  const sorted = Float64Array.from(raws.flatMap((r) => r.times)).sort();
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
  const sum = (f: (r: Counts) => number) => raws.reduce((n, r) => n + f(r), 0);
  const tally: AnswerTally = { answers: sum((r) => r.tally.answers), trips: {}, xCache: {} };
  const statuses = {};
  for (const r of raws) {
    add(statuses, r.statuses);
    add(tally.trips, r.tally.trips);
    add(tally.xCache, r.tally.xCache);
  }
  const window = raws.every((r) => r.window)
    ? { requests: sum((r) => r.window!.requests), seconds: sum((r) => r.window!.seconds) }
    : null;
  const [requests, seconds] = [sum((r) => r.requests), sum((r) => r.seconds)];
  const rps = window?.seconds ? window.requests / window.seconds : requests / (seconds || 1);
  const [errors, timeouts] = [sum((r) => r.errors), sum((r) => r.timeouts)];
  return {
    connections,
    rps,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: at(1),
    window,
    requests,
    seconds,
    errors,
    timeouts,
    statuses,
    tally,
  };
}

/** One autocannon run of `seconds`; `window` is called when the measuring window opens and closes. */
async function load(
  t: Target,
  connections: number,
  seconds: number,
  window?: { open(): void; close(): void },
): Promise<Raw> {
  const tally: AnswerTally = { answers: 0, trips: {}, xCache: {} };
  const count = (bag: Record<string, number>, key: string) => add(bag, { [key]: 1 });
  const sep = t.path.includes("?") ? "&" : "?";
  const bust = t.bust;
  // The same header reading for the real and the static worker, so the client does the same work.
  const request: autocannon.Request = {
    method: "GET",
    path: t.path,
    headers: t.headers,
    onResponse: (_status, _body, _context, headers) => {
      const h = (headers ?? {}) as Record<string, string | string[] | undefined>;
      const cache = h["x-cache"] ?? h["X-Cache"];
      tally.answers++;
      count(
        tally.trips,
        TRIPS.exec(String(h["server-timing"] ?? h["Server-Timing"]))?.[1] ?? "none",
      );
      count(tally.xCache, cache === undefined ? "none" : String(cache));
    },
    ...(bust && {
      setupRequest: (req) => ({
        ...req,
        path: `${t.path}${sep}${bust.param}=${bust.value(freshSerial())}`,
      }),
    }),
  };
  const times: number[] = [];
  const marks: Array<{ at: number; answers: number }> = [];
  const mark = (open: boolean) => () => {
    if (!open && !marks.length) return;
    if (open) window?.open();
    marks.push({ at: performance.now(), answers: times.length });
    if (!open) window?.close();
  };
  const timers = [
    setTimeout(mark(true), seconds * 1000 * WINDOW.open),
    setTimeout(mark(false), seconds * 1000 * WINDOW.close),
  ];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: t.server.origin, connections, duration: seconds, timeout: 30, requests: [request] },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_c: unknown, _s: number, _b: number, ms: number) => times.push(ms));
  });
  for (const timer of timers) clearTimeout(timer);
  const stats = (result as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats;
  const statuses = Object.fromEntries(
    Object.entries(stats ?? {}).map(([code, s]) => [code, s.count]),
  );
  return {
    times,
    window:
      marks.length === 2
        ? {
            requests: marks[1].answers - marks[0].answers,
            seconds: (marks[1].at - marks[0].at) / 1000,
          }
        : null,
    requests: result.requests.total,
    seconds: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    tally,
  };
}

type Round = { raw: Raw; cpu?: CpuTicks; settleMs: Settled };

/**
 * A warm-up of `warmup` s (if any), then `seconds` of load with the server's CPU read when the
 * measuring window opens and closes; before and after the measured load, waits until the server
 * has worked off what the previous load left outstanding.
 */
async function round(
  t: Target,
  connections: number,
  seconds: number,
  warmup: number,
): Promise<Round> {
  const procs = serverProcesses(t.server);
  if (warmup > 0) await load(t, connections, warmup);
  const before = await settle(procs);
  let opened: Map<number, number | undefined> | undefined;
  let cpu: CpuTicks | undefined;
  const raw = await load(t, connections, seconds, {
    open: () => (opened = readTicks(procs)),
    close: () => (cpu = opened && ticksBetween(procs, opened, readTicks(procs))),
  });
  return { raw, cpu, settleMs: { before, after: await settle(procs) } };
}

function measured(rounds: Round[], connections: number): Measured {
  const cpus = rounds.map((r) => r.cpu);
  const ticks = (role: CpuRole) => cpus.reduce((n, c) => n + (c?.[role] ?? 0), 0);
  const most = (k: keyof Settled) => Math.max(...rounds.map((r) => r.settleMs[k]));
  return {
    load: summarize(
      rounds.map((r) => r.raw),
      connections,
    ),
    cpu: cpus.every(Boolean)
      ? (Object.fromEntries(CPU_ROLES.map((r) => [r, ticks(r)])) as CpuTicks)
      : undefined,
    settleMs: { before: most("before"), after: most("after") },
    rounds: rounds.map((r) => ({
      load: summarize([r.raw], connections),
      cpu: r.cpu,
      settleMs: r.settleMs,
    })),
  };
}

/**
 * One phase: `duration` s on `real` and as many on `stat`, in `rounds` rounds alternating real,
 * static, static, real, … (a change of the machine's load during the phase falls on both about
 * equally); the warm-up before each one's first round (at most 1 s on the static worker).
 */
export async function phasePair(
  real: Target,
  stat: Target,
  o: { connections: number; duration: number; rounds: number; warmup: number },
): Promise<PhasePair> {
  const done = { real: [] as Round[], static: [] as Round[] };
  for (let i = 0; i < o.rounds; i++)
    for (const which of i % 2 === 0
      ? (["real", "static"] as const)
      : (["static", "real"] as const)) {
      const warmup = done[which].length ? 0 : which === "real" ? o.warmup : Math.min(1, o.warmup);
      const t = which === "real" ? real : stat;
      done[which].push(await round(t, o.connections, o.duration / o.rounds, warmup));
    }
  return { real: measured(done.real, o.connections), static: measured(done.static, o.connections) };
}

/** CPU µs per answer of `roles` (default: the runtime workerd) in a phase's windows, or null. */
export function cpuPerAnswer(
  m: Measured | undefined,
  roles: CpuRole[] = ["runtime"],
): number | null {
  const w = m?.load.window;
  if (!m?.cpu || !w || w.requests <= 0) return null;
  return (roles.reduce((n, r) => n + m.cpu![r], 0) / CLK_TCK / w.requests) * 1e6;
}
