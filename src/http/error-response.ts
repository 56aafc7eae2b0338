/**
 * The one error path: any thrown error becomes the WordPress envelope of tec-reference §10.1,
 * `{code, message, data: {status, ...}}`, with `message` in the request's language. Unknown errors
 * are logged and answered with a generic 500 that leaks nothing.
 */
import { HTTPException } from "hono/http-exception";
import { WriteConflict } from "../db/errors";
import { type Strings, text } from "../i18n";
import type { ErrorCode } from "./error-codes";
import { ApiError, InvalidParamsError } from "./errors";

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  data: Record<string, unknown>;
}

/**
 * The error a thrown error answers as: the errors of lower layers, which know no HTTP, become the
 * `ApiError` of their answer (storage's `WriteConflict`: 409 `rest_write_conflict`, the client may
 * simply retry); every other error comes back as it is.
 */
export function answerOf(err: unknown): unknown {
  return err instanceof WriteConflict ? new ApiError(409, "rest_write_conflict") : err;
}

/** The envelope and status for an error. */
export function errorBody(thrown: unknown, strings: Strings): { status: number; body: ErrorBody } {
  const err = answerOf(thrown);
  if (err instanceof InvalidParamsError) {
    const params: Record<string, string> = {};
    const details: Record<string, ErrorBody> = {};
    for (const p of err.invalid) {
      const message = text(strings, `params.${p.key ?? "invalid"}`, [p.name, ...(p.args ?? [])]);
      params[p.name] = message;
      if (p.detail)
        details[p.name] = { code: p.detail.code, message, data: { status: p.detail.status } };
    }
    return {
      status: 400,
      body: {
        code: err.code,
        message: text(strings, `messages.${err.messageKey}`, err.args),
        data: {
          status: 400,
          ...err.data,
          params,
          // WordPress's `rest_invalid_param` carries `details`; `rest_invalid_json` does not.
          ...(err.code === "rest_invalid_param"
            ? { details: Object.keys(details).length ? details : [] }
            : {}),
        },
      },
    };
  }
  if (err instanceof ApiError) {
    return {
      status: err.status,
      body: {
        code: err.code,
        message: text(strings, `messages.${err.messageKey}`, err.args),
        data: { status: err.status, ...err.data },
      },
    };
  }
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx (e.g. a malformed request it refused before our code ran).
    return {
      status: err.status,
      body: { code: "rest_invalid_request", message: err.message, data: { status: err.status } },
    };
  }
  return {
    status: 500,
    body: {
      code: "rest_internal_error",
      message: text(strings, "messages.rest_internal_error"),
      data: { status: 500 },
    },
  };
}
