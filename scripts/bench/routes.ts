/**
 * The rows of the report (by key), and how one is measured: sample requests in each state a request
 * can meet (status, body size, ETag, `X-Cache`, and the D1 round trips the worker reports in
 * `Server-Timing: d1;desc="N round trips"`, src/http/headers.ts), then its two load phases.
 */
import { cpuPerAnswer, freshSerial, type PhasePair, phasePair, type Target, TRIPS } from "./load";
import type { Facts } from "./seeder";
import type { DevServer } from "./servers";

/**
 * How a row is requested under load: `miss`, a fresh `_bench=<n>` per request (ignored by the API,
 * part of the cache key), so each one runs the route; `cold`, the fresh value in a filter that filters
 * nothing (`starts_before` in the year 3000), so the archive's WHERE clause differs every time; `hit`,
 * one URL again and again (edge-cache hits after the first); `304`, that URL with `If-None-Match`.
 */
export type RouteMode = "miss" | "cold" | "hit" | "304";

export interface RouteSpec {
  key: string;
  /** Path under the namespace root, with its query. */
  path: string;
  mode: RouteMode;
  /**
   * A floor row: the static worker's `/floor/<bytes>` (bench/static/worker.js) against its plain
   * `/<bytes>`, with this route's body size: the least a miss or a hit must cost on this runtime.
   */
  floor?: "miss" | "hit";
  /**
   * Compared with the floor instead of the static worker's plain `/<bytes>`: the real worker and the
   * static worker's `/floor/<bytes>` (of a miss or a hit) in alternating rounds of the same phases,
   * so that the ratio is issue 36's criterion itself, not the quotient of two rows measured minutes
   * apart (whose static columns differ by up to 30 % for the same work).
   */
  against?: "miss" | "hit";
  /** Shown in the table: the request, and what is special about the row. */
  label: string;
  note?: string;
}

export const BUST_PARAM = "_bench";
const BUST: Partial<Record<RouteMode, Target["bust"]>> = {
  miss: { param: BUST_PARAM, value: String },
  cold: { param: "starts_before", value: (n) => String(32_503_680_000 + n) },
};

/** The benchmark's rows for one dataset (`bust` false requests every URL as it is). */
export function routesFor(
  facts: Pick<Facts, "category" | "eventId">,
  today: string,
  bust: boolean,
) {
  const [y, m] = today.split("-").map(Number);
  const day = (month: number, d: number) =>
    new Date(Date.UTC(y, month, d)).toISOString().slice(0, 10);
  const month = `start_date=${day(m, 1)}&end_date=${day(m + 1, 0)}`;
  const miss: RouteMode = bust ? "miss" : "hit";
  const row = (key: string, path: string, note?: string, mode: RouteMode = miss): RouteSpec[] => [
    { key, path, mode, label: `GET ${path}`, note },
  ];
  const floor = (kind: "miss" | "hit", path: string, note: string): RouteSpec[] => [
    {
      key: `floor-${kind}`,
      path,
      mode: "hit",
      floor: kind,
      label: `floor of a ${kind}`,
      note: `static worker: ${note}`,
    },
  ];
  return [
    ...row("events-12", "/events?per_page=12"),
    ...row("events-50", "/events?per_page=50"),
    ...(bust
      ? row("events-50-cold", "/events?per_page=50", "total counted every time", "cold")
      : []),
    ...row("events-category", `/events?per_page=50&categories=${facts.category}`),
    ...row("events-search", "/events?per_page=50&search=jazz"),
    ...row("events-month", `/events?per_page=50&${month}`),
    ...row("event-single", `/events/${facts.eventId}`),
    ...row("venues", "/venues?per_page=50"),
    ...row("categories", "/categories?per_page=50"),
    ...row("deleted", "/deleted?per_page=50"),
    ...(bust ? row("events-50-hit", "/events?per_page=50", "edge-cache hit", "hit") : []),
    ...row("events-50-304", "/events?per_page=50", "If-None-Match: its ETag → 304", "304"),
    ...(bust
      ? [
          {
            ...row("events-12-floor", "/events?per_page=12", "against the floor of a miss")[0],
            against: "miss" as const,
          },
          {
            ...row(
              "events-50-hit-floor",
              "/events?per_page=50",
              "edge-cache hit, against the floor of a hit",
              "hit",
            )[0],
            against: "hit" as const,
          },
        ]
      : []),
    ...floor(
      "miss",
      "/events?per_page=12",
      "one Cache API lookup, one D1 round trip, the contract's headers; per_page=12's size",
    ),
    ...floor("hit", "/events?per_page=50", "the contract's headers; per_page=50's size"),
  ];
}

export interface Sample {
  url: string;
  requestHeaders: Record<string, string>;
  status: number;
  bytes: number;
  /** null when the header is missing. */
  trips: number | null;
  etag: string | null;
  xCache: string | null;
  /** Start of the body when the status was not the expected one. */
  excerpt: string;
}

/** Requests `url` once and describes the answer. */
async function sample(
  url: string,
  headers: Record<string, string> = {},
  expected = 200,
): Promise<Sample> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
  const body = new Uint8Array(await res.arrayBuffer());
  const trips = TRIPS.exec(res.headers.get("server-timing") ?? "");
  return {
    url,
    requestHeaders: headers,
    status: res.status,
    bytes: body.byteLength,
    trips: trips ? Number(trips[1]) : null,
    etag: res.headers.get("etag"),
    xCache: res.headers.get("x-cache"),
    excerpt: res.status === expected ? "" : new TextDecoder().decode(body.slice(0, 400)),
  };
}

export type TripState = "miss" | "hit" | "304";
export const TRIP_STATES: TripState[] = ["miss", "hit", "304"];

/** The round trips of one state, sampled a few times: the most frequent (the smaller on a tie). */
export interface StateTrips {
  trips: number | null;
  samples: Array<number | null>;
  statuses: number[];
  /** The first sample in full. */
  first: Sample;
}

function stateTrips(samples: Sample[]): StateTrips {
  const counts = new Map<number, number>();
  for (const { trips: n } of samples) if (n !== null) counts.set(n, (counts.get(n) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  const [samplesTrips, statuses] = [samples.map((s) => s.trips), samples.map((s) => s.status)];
  return { trips: best ? best[0] : null, samples: samplesTrips, statuses, first: samples[0] };
}

/**
 * Samples the D1 round trips of a route in each state: a miss, 3 requests each with a fresh
 * cache-busting value (for a "cold" route, its `starts_before`); a hit, the first miss's URL again,
 * 3 times right after it (steady state: the content version was just read); a 304, that URL with
 * `If-None-Match` of the miss's ETag, 3 times. Hit and 304 are left out when the miss did not answer
 * 200 (the 304 also when it carried no ETag).
 */
async function sampleStates(url: string, mode: RouteMode) {
  const bust = BUST[mode === "cold" ? "cold" : "miss"]!;
  const fresh = () =>
    `${url}${url.includes("?") ? "&" : "?"}${bust.param}=${bust.value(freshSerial())}`;
  const three = async (f: () => Promise<Sample>) => stateTrips([await f(), await f(), await f()]);
  const first = fresh();
  const miss = await sample(first);
  const out: Partial<Record<TripState, StateTrips>> = {};
  if (miss.status === 200) {
    out.hit = await three(() => sample(first));
    const etag = miss.etag;
    if (etag) out["304"] = await three(() => sample(first, { "If-None-Match": etag }, 304));
  }
  let n = 0;
  return { miss: await three(async () => (n++ ? sample(fresh()) : miss)), ...out };
}

/** One row: its spec, the sample of its mode, D1 round trips per state, and its two phases. */
export interface RouteResult extends Omit<RouteSpec, "floor"> {
  sample: Sample;
  states: Partial<Record<TripState, StateTrips>>;
  /** Measured (the sample answered with the expected status); else `reason` says why. */
  measured: boolean;
  reason?: string;
  /** The static worker's path it is compared with (`/<bytes>`, `/0?status=304`, or a floor's). */
  staticPath?: string;
  /** One client, and `--connections` connections. */
  single?: PhasePair;
  concurrent?: PhasePair;
  /** Answers under load with another status than the sample's. */
  unexpected?: Record<string, number>;
  /**
   * With `--repeat n` (n > 1): the ratios of each of the row's n measurements, in order; the row's
   * own phases are then those of the measurement whose one-client p50 ratio is the median.
   */
  repeats?: RepeatRatios[];
}

/** One measurement's ratios to its static path: one-client p50, CPU per request, req/s. */
export interface RepeatRatios {
  p50: number | null;
  cpu: number | null;
  rps: number | null;
}

export const ratio = (a?: number | null, b?: number | null) =>
  a == null || b == null || b <= 0 ? null : a / b;
/** Real ÷ static: one-client p50 (lower is better), req/s at `--connections` (higher is better). */
export const p50Ratio = (r: RouteResult) =>
  ratio(r.single?.real.load.p50, r.single?.static.load.p50);
export const rpsRatio = (r: RouteResult) =>
  ratio(r.concurrent?.real.load.rps, r.concurrent?.static.load.rps);
/** The row's name in the report: the request in backquotes, its note in parentheses. */
export const routeName = (r: { label: string; note?: string }) =>
  `\`${r.label.replace(/\|/g, "\\|")}\`${r.note ? ` (${r.note.replace(/\|/g, "\\|")})` : ""}`;

export interface MeasureContext {
  real: DevServer;
  stat: DevServer;
  /** `/wp-json/tribe/events/v1/` */
  nsRoot: string;
  phase: { duration: number; rounds: number; warmup: number; connections: number };
  /** A progress line; a problem worth a warning in the report. */
  log(line: string): void;
  warn(line: string): void;
}

/**
 * Measures one row: its samples in each state, then, when the sample of its mode answered as
 * expected, a phase with one client and one with `connections`, each against the static worker with
 * the same body size (a floor row: the static worker's floor path instead of the real worker).
 */
export async function measureRoute(route: RouteSpec, c: MeasureContext): Promise<RouteResult> {
  const { real, stat } = c;
  const url = real.origin + c.nsRoot + route.path.replace(/^\//, "");
  const expected = route.mode === "304" ? 304 : 200;
  const states = await sampleStates(url, route.mode);
  const code = (s: Sample) => /"code"\s*:\s*"([^"]+)"/.exec(s.excerpt)?.[1] ?? "";
  let s = states.miss.first;
  let headers: Record<string, string> = {};
  let reason: string | undefined;
  if (route.mode === "hit") s = await sample(url).then(() => sample(url));
  else if (route.mode === "304") {
    s = await sample(url);
    if (s.status !== 200) reason = `HTTP ${s.status} ${code(s)} for the list itself`;
    else if (!s.etag) reason = "no ETag header on the list";
    else {
      headers = { "If-None-Match": s.etag };
      s = await sample(url, headers, 304);
    }
  }
  const { floor: _, ...spec } = route;
  const result: RouteResult = { ...spec, sample: s, states, measured: false, reason };
  if (!result.reason && s.status !== expected) result.reason = `HTTP ${s.status} ${code(s)}`.trim();
  if (result.reason) {
    if (s.status >= 500)
      c.warn(`\`GET ${s.url}\` answered ${s.status}: ${s.excerpt.slice(0, 300)}`);
    c.log(`${routeName(route)}: n/a (${result.reason})`);
    return result;
  }
  if ((route.key === "events-50-hit" || route.against === "hit") && s.xCache !== "HIT")
    result.reason = `the repeated request answered \`X-Cache: ${s.xCache ?? "(none)"}\`, not HIT`;
  const measured: Target = route.floor
    ? { server: stat, path: `/floor/${s.bytes}${route.floor === "hit" ? "?hit=1" : ""}` }
    : { server: real, path: url.slice(real.origin.length), headers, bust: BUST[route.mode] };
  if (route.floor) result.states = {};
  result.staticPath = route.against
    ? `/floor/${s.bytes}${route.against === "hit" ? "?hit=1" : ""}`
    : route.mode === "304"
      ? "/0?status=304"
      : `/${s.bytes}`;
  const against: Target = { server: stat, path: result.staticPath };
  const p = c.phase;
  const one = await phasePair(measured, against, { ...p, connections: 1 });
  const many = await phasePair(measured, against, { ...p, warmup: Math.min(1, p.warmup) });
  Object.assign(result, { single: one, concurrent: many, measured: true });
  const unexpected: Record<string, number> = {};
  for (const l of [one.real.load, many.real.load])
    for (const [status, n] of Object.entries(l.statuses))
      if (Number(status) !== expected) unexpected[status] = (unexpected[status] ?? 0) + n;
  const counts = Object.entries(unexpected).map(([code, n]) => `${n}× ${code}`);
  if (counts.length) {
    result.unexpected = unexpected;
    c.warn(
      `${routeName(route)} answered ${counts.join(", ")} under load (see the real worker's log)`,
    );
  }
  const f = (n: number | null, digits = 1) =>
    n === null ? "n/a" : n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(digits);
  const trips = TRIP_STATES.map((k) => result.states[k]?.trips ?? "–").join("/");
  c.log(
    `${routeName(route)}: ${s.status}, ${s.bytes.toLocaleString("en-US")} B, D1 ${trips} — ` +
      `1 client p50 ${f(one.real.load.p50)} ms (static ${f(one.static.load.p50)}, ${f(p50Ratio(result), 2)}×) | ` +
      `${p.connections} conn. ${f(many.real.load.rps, 0)} req/s (static ${f(many.static.load.rps, 0)}, ${f(rpsRatio(result), 2)}×) | ` +
      `CPU per request ${f(cpuPerAnswer(many.real), 0)} µs (static ${f(cpuPerAnswer(many.static), 0)} µs)`,
  );
  return result;
}
