/**
 * HTTP against the running `npm start` (global-setup.ts): requests as anonymous or as a user with an
 * application password (`Authorization: Basic base64(user:password)`, contract §3), answers read
 * once, and the WordPress error envelope check (tec-reference §10.1).
 */
import { expect, inject } from "vitest";

/** `http://127.0.0.1:<port>` of the service under test. */
export const ORIGIN = inject("e2eOrigin");
/** How long an isolate may answer anonymous reads from the content version it read last. */
export const CONTENT_VERSION_TTL_MS = inject("e2eContentVersionTtlMs");
/** The `tribe/events/v1` namespace and the `wp/v2` subset, default language. */
export const NS = "/wp-json/tribe/events/v1";
export const WP = "/wp-json/wp/v2";

/** A user's login and application password; `null` sends no credentials. */
export type Credentials = { username: string; password: string } | null;

/** The administrator, user 1: `admin` with ADMIN_APP_PASSWORD from `.dev.vars`. */
export const ADMIN: Credentials = { username: "admin", password: inject("e2eAdminPassword") };

/** One answer, its body read once (`body` is the parsed JSON, or undefined). */
export interface Answer {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/**
 * Sends one request to the service. `path` starts with `/`; `json` is sent as a JSON body.
 * @example await send("POST", `${NS}/events`, { auth: ADMIN, json: { title: "x", start_date: "…" } })
 */
export async function send(
  method: string,
  path: string,
  options: { auth?: Credentials; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth)
    headers.authorization = `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString("base64")}`;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  const res = await fetch(`${ORIGIN}${path}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { method, path, status: res.status, headers: res.headers, text, body: parsed };
}

/** `GET path` as `auth` (anonymous by default). */
export const get = (path: string, auth: Credentials = null, headers?: Record<string, string>) =>
  send("GET", path, { auth, headers });

/** A short description of an answer for assertion messages: `GET /path → 500 {"code":…}`. */
export function show(answer: Answer): string {
  return `${answer.method} ${answer.path} → ${answer.status} ${answer.text.slice(0, 200)}`;
}

/**
 * The answer must not be a 5xx, and a 4xx must carry the WordPress error envelope
 * `{code, message, data: {status}}` with `data.status` equal to the HTTP status (§10.1).
 * Soft assertions: every problem of a sweep is reported, not only the first.
 */
export function expectSound(answer: Answer, label = show(answer)): void {
  expect.soft(answer.status, `no 5xx: ${label}`).toBeLessThan(500);
  if (answer.status >= 400 && answer.status < 500) expectEnvelope(answer, label);
}

/** The answer is a WordPress error envelope of its own status (§10.1). */
export function expectEnvelope(answer: Answer, label = show(answer)): void {
  expect.soft(answer.body, `error envelope: ${label}`).toMatchObject({
    code: expect.any(String),
    message: expect.any(String),
    data: expect.objectContaining({ status: answer.status }),
  });
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A site-local `Y-m-d H:i:s` date `days` from now (at `hour`:00), inside the default event window
 * (today to two years ahead, §6.2).
 */
export function futureDate(days: number, hour = 10): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.toISOString().slice(0, 10)} ${String(hour).padStart(2, "0")}:00:00`;
}

/** A word no other data holds, for search filters and titles: `e2e` + letters and digits. */
export function uniqueWord(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}
