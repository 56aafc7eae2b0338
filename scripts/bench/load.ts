/**
 * Load generation with autocannon (in this process; the orchestrator is idle while it runs, and the
 * static worker is measured by the same client, so the client's own cost is in both figures).
 *
 * Latency percentiles are computed here from every answer's own response time (autocannon's
 * `response` event, fractional milliseconds), not taken from autocannon's summary: that one records
 * whole milliseconds (too coarse for ratios to a static worker answering in 2–3 ms) and leaves out
 * non-2xx answers (so a 304 run would have no latency at all).
 */
import autocannon from "autocannon";

export interface LoadOptions {
  origin: string;
  /** Path and query. */
  path: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds. */
  duration: number;
  /**
   * Append `&<name>=<value>` (a fresh value per request, see `freshSerial`) so that every request
   * misses the worker's edge cache and runs the route for real; unknown query parameters are ignored
   * by the API.
   */
  bustParam?: string;
  /** The value of `bustParam` for serial number n (default: n). */
  bustValue?: (n: number) => string;
  /**
   * Called when the measuring window opens and closes (see `WINDOW`), e.g. to read the server's
   * CPU time: the answers completed in between are counted in `LoadResult.window`.
   */
  window?: { open(): void; close(): void };
}

/**
 * The measuring window, as fractions of the duration: from 15% to 95%. Inside it the client keeps
 * the same number of requests outstanding all the time, so the work in progress when it opens and
 * when it closes is about the same, and "CPU in the window ÷ answers in the window" is the cost of one
 * answer. Over the whole run it is not: the run starts with nothing outstanding and ends (by the
 * clock) with up to `connections` answers abandoned half done, which at a few answers per second would
 * bill the completed ones for much of their work, and lower the rate.
 */
export const WINDOW = { open: 0.15, close: 0.95 };

/** What the answers under load said about themselves (`Server-Timing`, `X-Cache`). */
export interface AnswerTally {
  /** Answers counted. */
  answers: number;
  /** Answers per D1 round-trip count (`Server-Timing: d1;desc="N round trips"`; "none" without it). */
  trips: Record<string, number>;
  /** Answers per `X-Cache` value ("none" without it). */
  xCache: Record<string, number>;
}

export interface LoadResult {
  /** Concurrent connections (1 = one client waiting for each answer). */
  connections: number;
  /** Answers per second in the measuring window (over the whole run when there was none). */
  rps: number;
  /** Answers per second over the whole run, as autocannon counts them. */
  rpsRun: number;
  /** Answers completed in the measuring window and its length. */
  window: { requests: number; seconds: number } | null;
  /** Latency percentiles in ms (nearest rank over every answer, any status). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  seconds: number;
  errors: number;
  timeouts: number;
  /** Responses per status code. */
  statuses: Record<string, number>;
  /** Response bytes per second (headers included), as autocannon counts them. */
  bytesPerSecond: number;
  tally: AnswerTally;
}

let serial = 0;

/**
 * A number never used before by this process: the cache-busting values of every load phase and every
 * sample come from it, so that no phase repeats a URL of an earlier one (a warm-up's URLs, repeated,
 * would be edge-cache hits).
 */
export const freshSerial = (): number => ++serial;

const TRIPS = /d1;desc="(\d+) round trips?"/;

/** Mean D1 round trips per answer that reported them, or null when none did. */
export function meanTrips(t: AnswerTally): number | null {
  let answers = 0;
  let trips = 0;
  for (const [n, count] of Object.entries(t.trips)) {
    if (n === "none") continue;
    answers += count;
    trips += Number(n) * count;
  }
  return answers ? trips / answers : null;
}

/** The nearest-rank percentile `p` (0–1) of sorted values, 0 when there are none. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** Median, tail and worst response time (ms) of sorted times. */
const latencies = (sorted: Float64Array) => ({
  p50: percentile(sorted, 0.5),
  p90: percentile(sorted, 0.9),
  p99: percentile(sorted, 0.99),
  max: percentile(sorted, 1),
});

/** Requests per second: over the measured window when there is one, else over the whole run. */
const rates = (window: LoadResult["window"], rpsRun: number) => ({
  rps: window && window.seconds > 0 ? window.requests / window.seconds : rpsRun,
  rpsRun,
  window,
});

/** One autocannon run: its figures and every answer's response time (ms), for `mergeLoads`. */
export interface LoadRun {
  result: LoadResult;
  times: number[];
}

/** Runs autocannon once and returns the figures the report uses. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  return (await measureLoad(o)).result;
}

/** Runs autocannon once; the figures and the response times. */
export async function measureLoad(o: LoadOptions): Promise<LoadRun> {
  const sep = o.path.includes("?") ? "&" : "?";
  const tally: AnswerTally = { answers: 0, trips: {}, xCache: {} };
  const count = (bag: Record<string, number>, key: string) => {
    bag[key] = (bag[key] ?? 0) + 1;
  };
  // The same header reading for the real and the static worker, so the client does the same work.
  const request: autocannon.Request = {
    method: "GET",
    path: o.path,
    headers: o.headers,
    onResponse: (_status, _body, _context, headers) => {
      const h = (headers ?? {}) as Record<string, string | string[] | undefined>;
      const timing = String(h["server-timing"] ?? h["Server-Timing"] ?? "");
      const cache = h["x-cache"] ?? h["X-Cache"];
      tally.answers++;
      count(tally.trips, TRIPS.exec(timing)?.[1] ?? "none");
      count(tally.xCache, cache === undefined ? "none" : String(cache));
    },
  };
  if (o.bustParam) {
    const param = o.bustParam;
    const value = o.bustValue ?? String;
    request.setupRequest = (req) => ({
      ...req,
      path: `${o.path}${sep}${param}=${value(freshSerial())}`,
    });
  }
  const times: number[] = [];
  let windowStart: { at: number; answers: number } | null = null;
  let windowEnd: { at: number; answers: number } | null = null;
  const timers: NodeJS.Timeout[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: o.origin,
        connections: o.connections,
        duration: o.duration,
        timeout: 30,
        requests: [request],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => {
      times.push(ms);
    });
    timers.push(
      setTimeout(
        () => {
          o.window?.open();
          windowStart = { at: performance.now(), answers: times.length };
        },
        o.duration * 1000 * WINDOW.open,
      ),
      setTimeout(
        () => {
          if (!windowStart) return;
          windowEnd = { at: performance.now(), answers: times.length };
          o.window?.close();
        },
        o.duration * 1000 * WINDOW.close,
      ),
    );
  });
  for (const t of timers) clearTimeout(t);
  const start = windowStart as { at: number; answers: number } | null;
  const end = windowEnd as { at: number; answers: number } | null;
  const window =
    start && end
      ? { requests: end.answers - start.answers, seconds: (end.at - start.at) / 1000 }
      : null;
  const rpsRun = result.duration > 0 ? result.requests.total / result.duration : 0;
  const sorted = Float64Array.from(times).sort();
  const statuses: Record<string, number> = {};
  const stats =
    (result as unknown as { statusCodeStats?: Record<string, { count: number }> })
      .statusCodeStats ?? {};
  for (const [code, s] of Object.entries(stats)) statuses[code] = s.count;
  const result_: LoadResult = {
    connections: o.connections,
    ...rates(window, rpsRun),
    ...latencies(sorted),
    requests: result.requests.total,
    seconds: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    bytesPerSecond: result.throughput.average,
    tally,
  };
  return { result: result_, times };
}

const addCounts = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
};

/**
 * The figures of several runs of the same load (rounds), as if they were one: percentiles over all
 * answers, rates over the summed windows and durations, counts summed.
 */
export function mergeLoads(runs: LoadRun[]): LoadResult {
  if (runs.length === 1) return runs[0].result;
  const sorted = Float64Array.from(runs.flatMap((r) => r.times)).sort();
  const tally: AnswerTally = { answers: 0, trips: {}, xCache: {} };
  const statuses: Record<string, number> = {};
  let requests = 0;
  let seconds = 0;
  let errors = 0;
  let timeouts = 0;
  let bytes = 0;
  let window: LoadResult["window"] = { requests: 0, seconds: 0 };
  for (const { result: r } of runs) {
    requests += r.requests;
    seconds += r.seconds;
    errors += r.errors;
    timeouts += r.timeouts;
    bytes += r.bytesPerSecond * r.seconds;
    addCounts(statuses, r.statuses);
    tally.answers += r.tally.answers;
    addCounts(tally.trips, r.tally.trips);
    addCounts(tally.xCache, r.tally.xCache);
    window =
      window && r.window
        ? {
            requests: window.requests + r.window.requests,
            seconds: window.seconds + r.window.seconds,
          }
        : null;
  }
  const rpsRun = seconds > 0 ? requests / seconds : 0;
  return {
    connections: runs[0].result.connections,
    ...rates(window, rpsRun),
    ...latencies(sorted),
    requests,
    seconds,
    errors,
    timeouts,
    statuses,
    bytesPerSecond: seconds > 0 ? bytes / seconds : 0,
    tally,
  };
}
