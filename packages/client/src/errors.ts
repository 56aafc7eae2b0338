/**
 * Errors of the client. The service answers every error with the WordPress envelope
 * `{code, message, data: {status, params?}}`; {@link TecApiError} carries it, typed.
 */
import type { ErrorCode } from "./generated/error-codes.js";
import type { ErrorEnvelope } from "./types.js";

/**
 * An error answer of the service (4xx/5xx with the WordPress envelope).
 * `code` is one of the service's codes (`rest_invalid_param`, `rest-event-not-found`, …).
 * @example
 * try { await client.get("events", 999) } catch (e) {
 *   if (e instanceof TecApiError && e.code === "rest-event-not-found") …
 * }
 */
export class TecApiError extends Error {
  override readonly name = "TecApiError";
  /** The envelope's `code`. */
  readonly code: ErrorCode | (string & {});
  /** The HTTP status (the envelope's `data.status`, else the answer's). */
  readonly status: number;
  /** The envelope's `data`: `status`, and for `rest_invalid_param` the `params` and `details`. */
  readonly data: ErrorEnvelope["data"];
  /** The URL that answered. */
  readonly url: string;

  constructor(envelope: ErrorEnvelope, status: number, url: string) {
    super(`${envelope.code}: ${envelope.message} (${status} ${url})`);
    this.code = envelope.code;
    this.status = envelope.data?.status ?? status;
    this.data = envelope.data ?? { status };
    this.url = url;
  }
}

/**
 * An answer that is not what the client expected: a non-2xx without the WordPress envelope (a
 * proxy's error page), a body that is not JSON, or a URL outside the API.
 */
export class TecHttpError extends Error {
  override readonly name = "TecHttpError";
  constructor(
    message: string,
    /** The HTTP status, 0 when there was no answer. */
    readonly status: number,
    readonly url: string,
  ) {
    super(`${message} (${status} ${url})`);
  }
}

/** True when `body` has the envelope's shape. */
export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as { code?: unknown }).code === "string" &&
    typeof (body as { message?: unknown }).message === "string"
  );
}
