/**
 * The editor's only way to the server: the public REST API of the page's language
 * (`/de/wp-json/…`, so the API's messages come in that language), with WordPress's cookie
 * authentication: the session cookie goes along (same origin) and every request carries the
 * `X-WP-Nonce` header — without it the server treats the cookie as absent.
 */
import { config } from "./config";

let nonce = "";

/** Sets the REST nonce every request sends from now on. */
export function setNonce(value: string): void {
  nonce = value;
}

/** The nonce in force (for the sign-out link). */
export const currentNonce = () => nonce;

/** WordPress's sign-in page of the language, with the way back to this page and screen. */
export const signInUrl = () =>
  `${config.loginPath}?redirect_to=${encodeURIComponent(config.editorPath + location.hash)}`;

/** A WordPress error envelope as an exception: `params` maps each named argument to its message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly params: Record<string, string>,
  ) {
    super(message);
  }
}

/** A successful answer: the parsed JSON body and the headers (`X-WP-Total`, …). */
export interface Answer<T> {
  body: T;
  headers: Headers;
}

/** Query values: lists become comma strings, empty values are left out. */
export type Query = Record<string, string | number | boolean | string[] | undefined>;

function queryString(query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0))
      continue;
    search.set(key, Array.isArray(value) ? value.join(",") : String(value));
  }
  const s = search.toString();
  return s ? `?${s}` : "";
}

function failureOf(status: number, body: unknown): ApiFailure {
  const envelope = (body ?? {}) as {
    code?: string;
    message?: string;
    data?: { params?: Record<string, string> | string[] };
  };
  const message = envelope.message ?? String(status);
  const raw = envelope.data?.params;
  const params: Record<string, string> = {};
  if (Array.isArray(raw)) for (const name of raw) params[name] = message;
  else if (raw && typeof raw === "object") Object.assign(params, raw);
  return new ApiFailure(status, envelope.code ?? "", message, params);
}

/**
 * One REST request. `path` is relative to the language's API root (`tribe/events/v1/events`,
 * `wp/v2/users/me`); a JSON `body` is sent as JSON.
 * @throws ApiFailure for every answer that is not 2xx (the envelope's code, message and params).
 */
export async function api<T>(
  path: string,
  options: { method?: string; query?: Query; body?: unknown } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (nonce) headers["X-WP-Nonce"] = nonce;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${config.apiRoot}${path}${queryString(options.query)}`, {
    method: options.method ?? "GET",
    headers,
    credentials: "same-origin",
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  // Cookie-authenticated answers carry a current nonce (contract §3.1): a long session keeps going.
  const fresh = res.headers.get("X-WP-Nonce");
  if (fresh) nonce = fresh;
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const failure = failureOf(res.status, body);
    // The session ended (signed out in another tab, expired): its nonce is refused. Sign in again.
    if (failure.code === "rest_cookie_invalid_nonce") location.assign(signInUrl());
    throw failure;
  }
  return { body: body as T, headers: res.headers };
}

/** The events namespace path of a resource (`events` → `tribe/events/v1/events`). */
export const ns = (resource: string) => `${config.namespace}/${resource}`;

/**
 * The REST nonce of the signed-in user, or null when nobody is signed in (WordPress answers `0`
 * with status 400 then).
 */
export async function fetchNonce(): Promise<string | null> {
  const res = await fetch(config.noncePath, { credentials: "same-origin" });
  const text = (await res.text()).trim();
  return res.ok && text && text !== "0" ? text : null;
}
