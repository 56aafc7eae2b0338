/**
 * The importer's HTTP side: JSON requests to a running instance's namespace root with an
 * application password (contract §3), retries of transient failures, and the D1 bookmark carried
 * from response to request (contract §2: read-your-writes across replicas).
 */
import { type FetchLike, fetchWithRetry, Unreachable } from "../lib/fetch-retry";
import { ImportError } from "./errors";

export type { FetchLike };

/** Where and as whom to import. */
export interface ImportClient {
  /** The namespace root, e.g. `http://127.0.0.1:8787/wp-json/tribe/events/v1` (a trailing `/` is ignored). */
  base: string;
  /** The `Authorization` header value, e.g. `Basic YWRtaW46…` (an editor or administrator). */
  authorization: string;
  fetch: FetchLike;
}

/** Retry policy for network errors, 5xx and 429 answers. */
export interface RetryOptions {
  /** Further attempts after the first (default 3). */
  retries?: number;
  /** First back-off in milliseconds, doubled per attempt (default 250); a 429's `Retry-After` wins (capped at 10 s). */
  retryDelayMs?: number;
}

/** A parsed answer: the status, the JSON body (undefined when not JSON), and how many attempts it took. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  /** The body as sent (for answers that are not JSON, such as the iCalendar feed). */
  text: string;
  headers: Headers;
  attempts: number;
}

/** Sends requests for one import; keeps the latest `x-d1-bookmark`. */
export class Requester {
  private bookmark: string | null = null;
  /** Requests sent so far (attempts included). */
  sent = 0;

  constructor(
    private readonly client: ImportClient,
    private readonly retry: Required<RetryOptions>,
  ) {}

  /**
   * Sends one request, retrying network errors, 5xx and 429 up to `retries` times.
   * @param path relative to the namespace root, e.g. `/events?uid=a,b`.
   * @returns the last answer, whatever its status (callers check it).
   * @throws ImportError (status 0) when the server cannot be reached after the retries.
   */
  // biome-ignore lint/suspicious/noExplicitAny: answers are untyped JSON unless the caller names a type.
  async send<T = any>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const url = `${this.client.base.replace(/\/+$/, "")}${path}`;
    let sent: { response: Response; attempts: number };
    try {
      sent = await fetchWithRetry(
        this.client.fetch,
        url,
        () => {
          const headers: Record<string, string> = {
            accept: "application/json",
            authorization: this.client.authorization,
          };
          if (body !== undefined) headers["content-type"] = "application/json";
          if (this.bookmark) headers["x-d1-bookmark"] = this.bookmark;
          return { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
        },
        {
          retries: this.retry.retries,
          delayMs: this.retry.retryDelayMs,
          onAttempt: () => {
            this.sent++;
          },
        },
      );
    } catch (err) {
      if (!(err instanceof Unreachable)) throw err;
      throw new ImportError(`cannot reach ${url}: ${err.message}`, 0);
    }
    const res = sent.response;
    const text = await res.text();
    const bookmark = res.headers.get("x-d1-bookmark");
    if (bookmark) this.bookmark = bookmark;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return {
      status: res.status,
      body: parsed as T,
      text,
      headers: res.headers,
      attempts: sent.attempts,
    };
  }
}

/**
 * Throws unless the answer is a success.
 * @param what what was being done, e.g. `creating "Keynote" (UID abc, line 12)`.
 * @throws ImportError with the status, the WordPress error code and message of the answer.
 */
export function expectOk(answer: Answer, what: string): void {
  if (answer.status >= 200 && answer.status < 300) return;
  const body = answer.body as
    | { code?: string; message?: string; data?: { params?: Record<string, string> } }
    | undefined;
  const params = body?.data?.params ? ` ${JSON.stringify(body.data.params)}` : "";
  const detail = body?.code ? `${body.code}: ${body.message ?? ""}${params}` : "no JSON error body";
  const hint =
    answer.status === 401
      ? " (check the user name and application password)"
      : answer.status === 403
        ? " (the user may not edit events)"
        : "";
  throw new ImportError(
    `${what} failed: HTTP ${answer.status} ${detail}${hint}`,
    answer.status,
    body?.code,
  );
}

/**
 * Sends a write; when the instance refuses nothing but its `image` (400 `rest_invalid_param` for
 * `image` alone: a URL that does not answer as an image, such as a deleted upload of the
 * source), sends it once more without the image, so that one dead image does not stop an import.
 * @returns the answer (null when the image was all the write held: nothing is sent again), and
 *   the image left out, if any.
 * @example const { answer, droppedImage } = await sendWithoutBadImage(req, "POST", "/events", body);
 */
export async function sendWithoutBadImage<T = unknown>(
  req: Requester,
  method: string,
  path: string,
  body: Record<string, unknown>,
): Promise<{ answer: Answer<T> | null; droppedImage?: unknown }> {
  const answer = await req.send<T>(method, path, body);
  const params = (answer.body as { data?: { params?: Record<string, unknown> } } | undefined)?.data
    ?.params;
  const onlyImage =
    answer.status === 400 &&
    body.image !== undefined &&
    params !== undefined &&
    Object.keys(params).length === 1 &&
    "image" in params;
  if (!onlyImage) return { answer };
  const { image, ...rest } = body;
  if (Object.keys(rest).length === 0) return { answer: null, droppedImage: image };
  return { answer: await req.send<T>(method, path, rest), droppedImage: image };
}
