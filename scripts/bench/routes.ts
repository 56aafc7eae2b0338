/**
 * The routes measured on every dataset, and sample requests per route: status, body size, content
 * type, ETag, edge-cache state and the D1 round trips the worker reports in
 * `Server-Timing: d1;desc="N round trips"` (src/http/headers.ts), for each of the three states a
 * request can meet: a miss, a hit and a 304 (`sampleStates`).
 */
import { freshSerial } from "./load";
import type { Facts } from "./seeder";

/** How a route is requested under load. */
export type RouteMode =
  /** A fresh `_bench=<n>` per request, so that each one misses the edge cache and runs the route. */
  | "miss"
  /**
   * Like "miss", and the fresh value goes into a harmless filter (`starts_before` in the year 3000):
   * the archive's WHERE clause changes with every request (the total is counted with every page).
   */
  | "cold"
  /** The same URL every time: after the first, answered from the edge cache (if the worker has one). */
  | "hit"
  /** The same URL with `If-None-Match` set to the route's ETag: the 304 path. */
  | "304";

export interface RouteSpec {
  key: string;
  /** Path under the namespace root, with its query. */
  path: string;
  mode: RouteMode;
  /**
   * A floor row: instead of the real worker, the static worker's `/floor/<bytes>` (bench/static/
   * worker.js) is measured against its plain `/<bytes>`, with the size of this route's answer: the
   * least a miss (`miss`) or a hit (`hit`) must cost on this runtime, as a ratio to the static worker.
   */
  floor?: "miss" | "hit";
  /** Shown in the table: the request. */
  label: string;
  /** Shown after it: what is special about this row. */
  note?: string;
}

export interface Sample {
  status: number;
  bytes: number;
  contentType: string;
  /** null when the header is missing or unreadable. */
  trips: number | null;
  serverTiming: string;
  etag: string | null;
  xCache: string | null;
  /** Start of the body when the status was not the expected one. */
  excerpt: string;
  url: string;
  requestHeaders: Record<string, string>;
}

/** Parameter appended for cache misses (unknown query parameters are ignored by the API). */
export const BUST_PARAM = "_bench";

/** The "cold" mode's parameter and its n-th value (a Unix timestamp in the year 3000). */
export const COLD_PARAM = "starts_before";
export const coldValue = (n: number): string => String(32_503_680_000 + n);

/** The first and last day (`yyyy-MM-dd`) of the calendar month after `today`. */
export function nextMonth(today: string): { start: string; end: string } {
  const [y, m] = today.split("-").map(Number);
  const first = new Date(Date.UTC(y, m, 1));
  const last = new Date(Date.UTC(y, m + 1, 0));
  return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10) };
}

/** The benchmark's routes for one dataset (`bust` false measures every URL as served). */
export function routesFor(facts: Facts, today: string, bust: boolean): RouteSpec[] {
  const month = nextMonth(today);
  const miss: RouteMode = bust ? "miss" : "hit";
  return [
    { key: "events-12", path: "/events?per_page=12", mode: miss, label: "GET /events?per_page=12" },
    { key: "events-50", path: "/events?per_page=50", mode: miss, label: "GET /events?per_page=50" },
    ...(bust
      ? [
          {
            key: "events-50-cold",
            path: "/events?per_page=50",
            mode: "cold" as const,
            label: "GET /events?per_page=50",
            note: "total counted every time",
          },
        ]
      : []),
    {
      key: "events-category",
      path: `/events?per_page=50&categories=${facts.category}`,
      mode: miss,
      label: `GET /events?per_page=50&categories=${facts.category}`,
    },
    {
      key: "events-search",
      path: "/events?per_page=50&search=jazz",
      mode: miss,
      label: "GET /events?per_page=50&search=jazz",
    },
    {
      key: "events-month",
      path: `/events?per_page=50&start_date=${month.start}&end_date=${month.end}`,
      mode: miss,
      label: `GET /events?per_page=50&start_date=${month.start}&end_date=${month.end}`,
    },
    {
      key: "event-single",
      path: `/events/${facts.eventId}`,
      mode: miss,
      label: `GET /events/${facts.eventId}`,
    },
    { key: "venues", path: "/venues?per_page=50", mode: miss, label: "GET /venues?per_page=50" },
    {
      key: "categories",
      path: "/categories?per_page=50",
      mode: miss,
      label: "GET /categories?per_page=50",
    },
    { key: "deleted", path: "/deleted?per_page=50", mode: miss, label: "GET /deleted?per_page=50" },
    ...(bust
      ? [
          {
            key: "events-50-hit",
            path: "/events?per_page=50",
            mode: "hit" as const,
            label: "GET /events?per_page=50",
            note: "edge-cache hit",
          },
        ]
      : []),
    {
      key: "events-50-304",
      path: "/events?per_page=50",
      mode: "304",
      label: "GET /events?per_page=50",
      note: "If-None-Match: its ETag → 304",
    },
    {
      key: "floor-miss",
      path: "/events?per_page=12",
      mode: "hit",
      floor: "miss",
      label: "floor of a miss",
      note: "static worker: one Cache API lookup, one D1 round trip, the contract's headers; per_page=12's size",
    },
    {
      key: "floor-hit",
      path: "/events?per_page=50",
      mode: "hit",
      floor: "hit",
      label: "floor of a hit",
      note: "static worker: the contract's headers; per_page=50's size",
    },
  ];
}

const TRIPS = /d1;desc="(\d+) round trips?"/;

/** Requests `url` once and describes the answer. */
export async function sample(
  url: string,
  headers: Record<string, string> = {},
  expected = 200,
): Promise<Sample> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
  const body = new Uint8Array(await res.arrayBuffer());
  const serverTiming = res.headers.get("server-timing") ?? "";
  const m = TRIPS.exec(serverTiming);
  return {
    status: res.status,
    bytes: body.byteLength,
    contentType: res.headers.get("content-type") ?? "",
    trips: m ? Number(m[1]) : null,
    serverTiming,
    etag: res.headers.get("etag"),
    xCache: res.headers.get("x-cache"),
    excerpt: res.status === expected ? "" : new TextDecoder().decode(body.slice(0, 400)),
    url,
    requestHeaders: headers,
  };
}

/** `url` with a one-off cache-busting parameter (`param=value`). */
export function busted(url: string, tag: string, param = BUST_PARAM): string {
  return `${url}${url.includes("?") ? "&" : "?"}${param}=${tag}`;
}

/** The three states of an anonymous GET whose D1 round trips are sampled. */
export type TripState = "miss" | "hit" | "304";
export const TRIP_STATES: TripState[] = ["miss", "hit", "304"];

/** Round trips of one state, sampled a few times. */
export interface StateTrips {
  /** The steady-state value: the most frequent of `samples` (the smaller on a tie); null if unknown. */
  trips: number | null;
  samples: Array<number | null>;
  /** Status and `X-Cache` of each sample. */
  statuses: number[];
  xCache: Array<string | null>;
  /** The first sample in full (its URL, headers, body size, excerpt when unexpected). */
  first: Sample;
}

/** The most frequent value (the smaller on a tie); null values only count when nothing else is there. */
export function steady(samples: Array<number | null>): number | null {
  const counts = new Map<number, number>();
  for (const n of samples) if (n !== null) counts.set(n, (counts.get(n) ?? 0) + 1);
  let best: number | null = null;
  for (const [n, c] of counts) {
    const bc = best === null ? 0 : (counts.get(best) ?? 0);
    if (c > bc || (c === bc && best !== null && n < best)) best = n;
  }
  return best;
}

function stateTrips(samples: Sample[]): StateTrips {
  const trips = samples.map((s) => s.trips);
  return {
    trips: steady(trips),
    samples: trips,
    statuses: samples.map((s) => s.status),
    xCache: samples.map((s) => s.xCache),
    first: samples[0],
  };
}

/**
 * Samples the D1 round trips of a route in each state, explicitly:
 * - miss: `repeats` requests, each with a fresh cache-busting value (`_bench`, or for a "cold" route
 *   its `starts_before`), so none can be answered from the edge cache;
 * - hit: the first miss's URL again, `repeats` times right after it (steady state: the content
 *   version was just read with the miss);
 * - 304: that URL with `If-None-Match` of the miss's ETag, `repeats` times.
 * Hit and 304 are left out when the miss did not answer 200 (or, for the 304, carried no ETag).
 */
export async function sampleStates(
  url: string,
  mode: RouteMode,
  repeats = 3,
): Promise<Partial<Record<TripState, StateTrips>>> {
  const fresh = () =>
    mode === "cold"
      ? busted(url, coldValue(freshSerial()), COLD_PARAM)
      : busted(url, `s${freshSerial()}`);
  const first = fresh();
  const misses = [await sample(first)];
  const out: Partial<Record<TripState, StateTrips>> = {};
  if (misses[0].status === 200) {
    const hits: Sample[] = [];
    for (let i = 0; i < repeats; i++) hits.push(await sample(first));
    out.hit = stateTrips(hits);
    const etag = misses[0].etag;
    if (etag) {
      const revalidations: Sample[] = [];
      for (let i = 0; i < repeats; i++)
        revalidations.push(await sample(first, { "If-None-Match": etag }, 304));
      out["304"] = stateTrips(revalidations);
    }
  }
  for (let i = 1; i < repeats; i++) misses.push(await sample(fresh()));
  out.miss = stateTrips(misses);
  return { miss: out.miss, hit: out.hit, "304": out["304"] };
}
