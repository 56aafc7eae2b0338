/**
 * What every handler finds on `c.var`: settings, language, the request's D1 session, the
 * authenticated user, URL builders, and the parsed request parameters.
 */
import type { Context } from "hono";
import { DateTime } from "luxon";
import type { AuthUser } from "../access/capabilities";
import type { RequestDb } from "../db/client";
import type { Memo } from "../lib/memo";
import type { Bindings, Settings } from "../settings";
import type { ArgContext } from "./args";
import {
  assertNoNul,
  assertUtf8Query,
  type ParamBag,
  type RequestParams,
  readBody,
  readQuery,
} from "./params";
import type { Urls } from "./urls";

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    settings: Settings;
    /** Language of this request (`en`, `de`, …). */
    lang: string;
    urls: Urls;
    rdb: RequestDb;
    /** null = anonymous. */
    user: AuthUser | null;
    /** The request's clock (milliseconds), read once so every default in one request agrees. */
    nowMs: number;
    /** `nowMs` as a luxon DateTime, made on first use (`requestNow`): answers from a cache need none. */
    now?: DateTime;
    /** Memoized by `requestParams`. */
    params?: Promise<RequestParams>;
    /** The request URL, parsed once (by the app's first middleware). */
    url?: URL;
    /** Memoized by `requestQuery`: the one parse of the query string every reader uses. */
    query?: ParamBag;
    /**
     * Whether the request came through the read cache with caches on (src/read-cache/serve.ts): only
     * then may handlers read stored renderings.
     */
    readCache?: boolean;
    /**
     * The content version the read cache expects the data at (the one it remembers), when it
     * remembers one: rendered reads plan from it (src/events/rendering/read.ts `planRead`).
     */
    expectedVersion?: number;
    /**
     * What the read cache keeps of the database for handlers (src/read-cache/kept.ts), when the
     * request is served with caches on; undefined otherwise (nothing is kept).
     */
    kept?: KeptReads;
    /** The answer must not be kept by any cache (`Cache-Control: no-store`). */
    noStore?: boolean;
    /** Methods the matched route allows this user, for the `Allow` header (§12.2). */
    allow?: string[];
    /** The answer's body as bytes, when the handler built it so (the read cache keeps them). */
    body?: Uint8Array<ArrayBuffer>;
  };
}

export type AppContext = Context<AppEnv>;

/**
 * The read cache's memory of rendered reads (src/read-cache/kept.ts, where each is described):
 * stored texts, filled texts, each query's last answer, archive totals by content version, and how
 * common a filter's terms are.
 */
export interface KeptReads {
  texts: Memo<string>;
  filled: Memo<Uint8Array<ArrayBuffer>>;
  answers: Memo<{ pairs: string[]; allTexts: boolean; version?: number }>;
  totals: Memo<{ version: number; total: number }>;
  termWeights: Memo<number>;
}

/**
 * The request's query string, parsed once (PHP bracket semantics, the last of repeated keys wins).
 * For anonymous GETs it is the object the read cache keyed the answer by (src/read-cache/serve.ts,
 * frozen); every handler reads its query parameters here, never from `c.req` (lint rule
 * `biome-plugins/no-raw-query.grit`).
 * @throws ApiError 414 (contract §5).
 */
export function requestQuery(c: AppContext): ParamBag {
  let query = c.get("query");
  if (!query) {
    query = readQuery(c.get("url") ?? new URL(c.req.url));
    c.set("query", query);
  }
  return query;
}

/**
 * The request's parameters (query, body, path), parsed once. A write's parameters must be valid
 * Unicode and may not hold NUL characters.
 * @throws ApiError 413, 414, 400 `rest_invalid_json` (contract §5); 400 `rest_invalid_param`
 *   naming the parameters of a write that hold a NUL or text that is not UTF-8.
 */
export function requestParams(c: AppContext): Promise<RequestParams> {
  let params = c.get("params");
  if (!params) {
    params = (async () => {
      const query = requestQuery(c);
      const body = await readBody(c.req.raw);
      if (!["GET", "HEAD", "OPTIONS"].includes(c.req.method)) {
        assertUtf8Query(c.get("url") ?? new URL(c.req.url));
        assertNoNul(body, query);
      }
      return { query, body, path: c.req.param() as Record<string, string> };
    })();
    c.set("params", params);
  }
  return params;
}

/** The request's clock as a UTC DateTime (built once, on first use). */
export function requestNow(c: AppContext): DateTime {
  let now = c.get("now");
  if (!now) {
    now = DateTime.fromMillis(c.get("nowMs"), { zone: "utc" });
    c.set("now", now);
  }
  return now;
}

/** Context for argument defaults. */
export function argContext(c: AppContext): ArgContext {
  const s = c.get("settings");
  return { siteTimezone: s.siteTimezone, perPageDefault: s.perPageDefault, now: requestNow(c) };
}

/** The request's execution context, if it has one (`app.request` in tests has none). */
export function executionContext(c: AppContext): ExecutionContext | undefined {
  try {
    return c.executionCtx as ExecutionContext;
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` after the answer (`waitUntil`), logging a failure as `what`: the answer is never
 * delayed or changed by it. Outside a worker invocation (no execution context) it does not run.
 * @example afterAnswer(c, "webhook dispatch failed", () => dispatchChanges(c.env, root))
 */
export function afterAnswer(c: AppContext, what: string, work: () => Promise<unknown>): void {
  const ctx = executionContext(c);
  if (ctx) ctx.waitUntil(work().catch((err) => console.error(what, err)));
}
