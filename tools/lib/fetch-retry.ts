/**
 * One way the Node tools retry HTTP (the importers' client and their TEC-site source): network
 * errors, 5xx and 429 are sent again up to `retries` times with doubling pauses from `delayMs`
 * (`p-retry`, as the worker's D1 and write retries); a 429's `Retry-After` wins, capped at 10 s.
 */
import pRetry from "p-retry";

/** A `fetch` as the tools call it: global `fetch` in Node, the worker's own in tests. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<Response>;

/** A retryable answer (5xx, 429), kept so that the last one is returned when retries run out. */
class RetryableAnswer extends Error {
  constructor(
    readonly response: Response,
    readonly retryAfterMs: number,
  ) {
    super(`HTTP ${response.status}`);
  }
}

/** The server could not be reached after every retry. */
export class Unreachable extends Error {}

/**
 * Sends a request, again after network errors, 5xx and 429 (`init` is reused, so its body must be a
 * string). Returns the last answer, whatever its status.
 * @throws Unreachable when every attempt failed before an answer.
 */
export async function fetchWithRetry(
  fetch: FetchLike,
  url: string,
  init: () => Parameters<FetchLike>[1],
  options: { retries: number; delayMs: number; onAttempt?: () => void },
): Promise<{ response: Response; attempts: number }> {
  let attempts = 0;
  const backoff = (attempt: number) => options.delayMs * 2 ** (attempt - 1);
  try {
    const response = await pRetry(
      async () => {
        attempts++;
        options.onAttempt?.();
        let res: Response;
        try {
          res = await fetch(url, init());
        } catch (err) {
          // Whatever the transport throws (p-retry would give up on a TypeError it does not know).
          throw new Error(err instanceof Error ? err.message : String(err));
        }
        if (res.status >= 500 || res.status === 429) {
          const after = Number(res.headers.get("retry-after"));
          throw new RetryableAnswer(
            res,
            res.status === 429 && after > 0 ? Math.min(after, 10) * 1000 : 0,
          );
        }
        return res;
      },
      {
        retries: options.retries,
        minTimeout: options.delayMs,
        factor: 2,
        randomize: false,
        // A 429 waits what the server asked, beyond the pause p-retry takes anyway.
        onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
          if (error instanceof RetryableAnswer) {
            if (retriesLeft > 0) await error.response.body?.cancel();
            const extra = error.retryAfterMs - backoff(attemptNumber);
            if (retriesLeft > 0 && extra > 0) await new Promise((r) => setTimeout(r, extra));
          }
        },
        shouldRetry: () => true,
      },
    );
    return { response, attempts };
  } catch (err) {
    if (err instanceof RetryableAnswer) return { response: err.response, attempts };
    throw new Unreachable(err instanceof Error ? err.message : String(err));
  }
}
