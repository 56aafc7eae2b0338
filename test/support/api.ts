/**
 * Calls into the real worker (src/index.ts) as a client would.
 */
import { SELF } from "cloudflare:test";

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

/** Sends a request (`apiRequest`) to the worker, as a client would. */
export async function api<T = any>(path: string, init: ApiInit = {}): Promise<ApiResponse<T>> {
  return apiResponse<T>(await SELF.fetch(apiRequest(path, init)));
}

/** Round trips the worker reported for the request (`Server-Timing: d1;desc="N round trips"`). */
export function roundTrips(res: ApiResponse): number {
  const m = /d1;desc="(\d+) round trips"/.exec(res.headers.get("server-timing") ?? "");
  if (!m) throw new Error("no Server-Timing d1 entry");
  return Number(m[1]);
}

/** `Authorization` header for the administrator of the test configuration. */
export const ADMIN = { authorization: `Basic ${btoa("admin:test admin password")}` };
