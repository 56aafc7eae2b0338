/**
 * Load generation with autocannon (in this process; the orchestrator is idle while it runs, and the
 * static worker is measured by the same client, so the client's own cost is in both figures).
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
   * Append `&<name>=<n>` (a fresh n per request) so that every request misses the worker's edge
   * cache and runs the route for real; unknown query parameters are ignored by the API.
   */
  bustParam?: string;
  /** The n-th value of `bustParam` (default: n). */
  bustValue?: (n: number) => string;
}

export interface LoadResult {
  /** Completed requests per second over the run. */
  rps: number;
  /** Latency percentiles in ms. */
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
}

/** Runs autocannon once and returns the figures the report uses. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  let n = 0;
  const sep = o.path.includes("?") ? "&" : "?";
  const request: autocannon.Request = { method: "GET", path: o.path, headers: o.headers };
  if (o.bustParam) {
    const param = o.bustParam;
    const value = o.bustValue ?? String;
    request.setupRequest = (req) => ({ ...req, path: `${o.path}${sep}${param}=${value(++n)}` });
  }
  const result = await autocannon({
    url: o.origin,
    connections: o.connections,
    duration: o.duration,
    timeout: 30,
    requests: [request],
  });
  const statuses: Record<string, number> = {};
  const stats =
    (result as unknown as { statusCodeStats?: Record<string, { count: number }> })
      .statusCodeStats ?? {};
  for (const [code, s] of Object.entries(stats)) statuses[code] = s.count;
  return {
    rps: result.duration > 0 ? result.requests.total / result.duration : 0,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    seconds: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    bytesPerSecond: result.throughput.average,
  };
}
