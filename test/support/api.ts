/**
 * Calls into the real worker (src/index.ts) as a client would: its `fetch` handler, in-process (the
 * entry `SELF` reaches through a loopback hop that costs a third of a small request here).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import type { Bindings } from "../../src/settings";

export const ORIGIN = "http://calendar.test";
export const NS = "/wp-json/tribe/events/v1";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** What `api` takes besides the path. */
export interface ApiInit {
  method?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  body?: BodyInit;
}

/** The request `api` sends: JSON bodies are serialized with `Content-Type: application/json`. */
export function apiRequest(path: string, init: ApiInit = {}): Request {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(init.form).toString();
  }
  return new Request(`${ORIGIN}${path}`, {
    method: init.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
}

/** An answer as `api` returns it: status, headers, the text and the JSON body it holds (if any). */
export async function apiResponse<T = any>(res: Response): Promise<ApiResponse<T>> {
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/**
 * Sends a request (`apiRequest`) to the worker and returns its answer once the work the request left
 * for after the answer (`waitUntil`: edge-cache writes, renderings, the webhook outbox drain) is done
 * too, so a test never races it.
 * @param bindings the worker's environment: the test configuration's unless a test changes it.
 */
export async function api<T = any>(
  path: string,
  init: ApiInit = {},
  bindings: Bindings = env,
): Promise<ApiResponse<T>> {
  const ctx = createExecutionContext();
  const res = await apiResponse<T>(await worker.fetch(apiRequest(path, init), bindings, ctx));
  await waitOnExecutionContext(ctx);
  return res;
}

/** Round trips the worker reported for the request (`Server-Timing: d1;desc="N round trips"`). */
export function roundTrips(res: ApiResponse): number {
  const m = /d1;desc="(\d+) round trips"/.exec(res.headers.get("server-timing") ?? "");
  if (!m) throw new Error("no Server-Timing d1 entry");
  return Number(m[1]);
}

/** `Authorization` header for the administrator of the test configuration. */
export const ADMIN = { authorization: `Basic ${btoa("admin:test admin password")}` };
