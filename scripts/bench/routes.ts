/**
 * The routes measured on every dataset, and one sample request per route: status, body size,
 * content type, ETag, edge-cache state and the D1 round trips the worker reports in
 * `Server-Timing: d1;desc="N round trips"` (src/http/headers.ts).
 */
import type { DatasetFacts } from "./seed";

/** How a route is requested under load. */
export type RouteMode =
  /** A fresh `_bench=<n>` per request, so that each one misses the edge cache and runs the route. */
  | "miss"
  /**
   * Like "miss", and the fresh value goes into a harmless filter (`starts_before` in the year 3000),
   * so that the archive total is counted again too (src/http/totals.ts remembers it per filter).
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

/** The routes of issue 3/7 for one dataset (`bust` false measures every URL as served). */
export function routesFor(facts: DatasetFacts, today: string, bust: boolean): RouteSpec[] {
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
