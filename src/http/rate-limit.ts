/**
 * Rate limiting of failed authentication per client IP (contract §3): after `LIMIT` failures in
 * `PERIOD_SECONDS`, the client gets 429 `too_many_requests` with `Retry-After` — also for correct
 * credentials, so guessing cannot continue.
 *
 * The Workers rate limiting binding (`AUTH_FAILURES`) counts failures across the location; each
 * isolate remembers which clients it has seen blocked. Without the binding (local tools, tests of the
 * fallback) an in-isolate window does the counting.
 */
import { ApiError } from "./errors";

export const LIMIT = 10;
export const PERIOD_SECONDS = 60;

/** Client → time (ms) until which it is blocked. */
const blockedUntil = new Map<string, number>();
/** Fallback counting: client → failures in the current window. */
const windows = new Map<string, { start: number; count: number }>();
const MAX_TRACKED = 10_000;

/** The client's IP as Cloudflare reports it (`CF-Connecting-IP`), else `unknown`. */
export function clientKey(headers: Headers): string {
  return (
    (headers.get("cf-connecting-ip") ?? headers.get("x-real-ip") ?? "unknown")
      .trim()
      .slice(0, 64) || "unknown"
  );
}

function tooMany(until: number, now: number): ApiError {
  return new ApiError(429, "too_many_requests", [], {
    retry_after: Math.max(1, Math.ceil((until - now) / 1000)),
  });
}

/** The seconds a 429 of this module tells the client to wait (its `Retry-After`). */
export const retryAfterOf = (err: ApiError): number =>
  typeof err.data.retry_after === "number" ? err.data.retry_after : PERIOD_SECONDS;

/**
 * Throws when the client is blocked.
 * @throws ApiError 429 `too_many_requests` (`data.retry_after` in seconds, also sent as `Retry-After`).
 */
export function assertNotBlocked(client: string, now = Date.now()): void {
  const until = blockedUntil.get(client);
  if (until === undefined) return;
  if (until > now) throw tooMany(until, now);
  blockedUntil.delete(client);
}

/**
 * Records a failed authentication; returns the 429 error to throw when this failure went over the
 * limit, else null.
 */
export async function recordFailure(
  limiter: RateLimit | undefined,
  client: string,
  now = Date.now(),
): Promise<ApiError | null> {
  let over: boolean;
  if (limiter) {
    over = !(await limiter.limit({ key: `auth:${client}` })).success;
  } else {
    const window = windows.get(client);
    if (!window || now - window.start >= PERIOD_SECONDS * 1000) {
      if (windows.size >= MAX_TRACKED) windows.clear();
      windows.set(client, { start: now, count: 1 });
      over = false;
    } else {
      window.count++;
      over = window.count > LIMIT;
    }
  }
  if (!over) return null;
  if (blockedUntil.size >= MAX_TRACKED) blockedUntil.clear();
  const until = now + PERIOD_SECONDS * 1000;
  blockedUntil.set(client, until);
  return tooMany(until, now);
}

/** Forgets every block and window (tests). */
export function resetRateLimits(): void {
  blockedUntil.clear();
  windows.clear();
}
