/**
 * The one error type handlers throw. `onError` (src/app.ts) renders it as the WordPress envelope of
 * tec-reference §10.1 `{code, message, data: {status, ...}}`, with the message looked up in the
 * request's language (`messages.<code>` in the strings files, `%s`/`%d` filled from `args`).
 */
import type { ApiErrorCode, DetailCode, MessageKey } from "./error-codes";

/** Extra keys of `data` (besides `status`). */
export type ErrorData = Record<string, unknown>;

export class ApiError extends Error {
  /**
   * @param status HTTP status.
   * @param code the stable error code (WordPress / TEC catalogue, §10.2, §10.3; src/http/error-codes.ts).
   * @param args values for the message's `%s`/`%d` placeholders, in order.
   * @param data extra `data` keys, such as `params` and `details` of `rest_invalid_param`.
   * @param messageKey message to use when one code has several (defaults to the code).
   */
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    readonly args: Array<string | number> = [],
    readonly data: ErrorData = {},
    readonly messageKey: MessageKey = code,
  ) {
    super(code);
    this.name = "ApiError";
  }
}

/** 404 `rest_no_route` (§1.3 step 2). */
export const noRoute = () => new ApiError(404, "rest_no_route");

/**
 * 401 when anonymous, 403 when logged in: `rest_forbidden` (§1.3 step 7, §9.2).
 * @param loggedIn whether the request carried valid credentials.
 */
export const forbidden = (loggedIn: boolean) =>
  new ApiError(loggedIn ? 403 : 401, "rest_forbidden");

/**
 * One invalid parameter: its name, and the message key and placeholder values of its message. The
 * name always fills the message's first placeholder (`%s is not of type %s.`); `args` fill the
 * ones after it.
 */
export interface InvalidParam {
  name: string;
  /** Key under `params.` in the strings files; default `invalid` ("Invalid parameter."). */
  key?: string;
  /** Values of the placeholders after the first (the name's), in order. */
  args?: Array<string | number>;
  /** A nested error envelope for `data.details` (§10.2), e.g. `event-tickets-not-active`. */
  detail?: { code: DetailCode; status: number };
}

/**
 * 400 `rest_invalid_param` with `data.params` (name → message) and `data.details` (§10.2).
 * Messages are rendered by `onError`; this only records which.
 * @param code `rest_invalid_json` for a JSON body refused for what its parameters hold (no
 *   `details` then), with `data`'s `json_error_code` and `json_error_message`.
 */
export class InvalidParamsError extends ApiError {
  constructor(
    readonly invalid: InvalidParam[],
    code: "rest_invalid_param" | "rest_invalid_json" = "rest_invalid_param",
    data: ErrorData = {},
  ) {
    super(400, code, [invalid.map((p) => p.name).join(", ")], data);
  }
}

/** 400 `rest_missing_callback_param`, `data.params` = the missing names (§1.3 step 4). */
export const missingParams = (names: string[]) =>
  new ApiError(400, "rest_missing_callback_param", [names.join(", ")], { params: names });

/** 400 `rest_invalid_json` (§1.4). */
export const invalidJson = (detail: string, code = 4) =>
  new ApiError(400, "rest_invalid_json", [], { json_error_code: code, json_error_message: detail });

/**
 * 400 `rest_invalid_param` naming the parameters whose text is not UTF-8: percent-escapes of a
 * form body or a write's query string, or a multipart field's bytes (contract §5).
 */
export const notUtf8 = (names: string[]) =>
  new InvalidParamsError(names.map((name) => ({ name, key: "not_utf8" })));

/**
 * 400 `rest_invalid_json` for a JSON body whose strings hold a lone surrogate escape (`"\ud800"`):
 * PHP's `json_decode` fails with `JSON_ERROR_UTF16` (10), and `data.params` names the parameters
 * that hold one (contract §5).
 */
export const loneSurrogate = (names: string[]) =>
  new InvalidParamsError(
    names.map((name) => ({ name, key: "not_utf8" })),
    "rest_invalid_json",
    {
      json_error_code: 10,
      json_error_message: "Single unpaired UTF-16 surrogate in unicode escape",
    },
  );
