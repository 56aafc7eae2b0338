/**
 * Route arguments the WordPress way (tec-reference §1.3, §2, §3): every route declares its arguments
 * once, as valibot schemas plus the metadata WordPress shows in the namespace index (`type`,
 * `default`, `description`, `items`, `required`). The same declaration validates requests and
 * documents the route (src/root), so the two cannot drift apart.
 *
 * Order of checks (§1.3): required → validators/types (all collected) → (permission, in the handler).
 * Failures become 400 `rest_missing_callback_param` / `rest_invalid_param` with `data.params`.
 */
import type { DateTime } from "luxon";
import * as v from "valibot";
import { type InvalidParam, InvalidParamsError, missingParams } from "./errors";
import { paramValue, type RequestParams } from "./params";

/** WordPress schema types shown in the namespace index. */
export type WpType = "integer" | "boolean" | "string" | "number" | "array" | "object";

/** What the request handler knows when computing defaults. */
export interface ArgContext {
  /** Site time zone (IANA or `UTC±H`). */
  siteTimezone: string;
  perPageDefault: number;
  /** The request's clock (UTC). */
  now: DateTime;
}

export interface Arg<TOut = unknown> {
  /** Validates and converts the raw value. Issue messages are `params.*` keys, see `issue()`. */
  schema: v.GenericSchema<unknown, TOut>;
  required?: boolean;
  /** Used when the client sends nothing; a function is evaluated per request. */
  default?: string | number | boolean | null | ((ctx: ArgContext) => unknown);
  /** Strings key of the description, under `args.` (rendered in the request's language). */
  description: string;
  /** WP `type`, when TEC declares one (so it is type-checked and shown); absent for swagger-only args. */
  type?: WpType;
  /** TEC `swagger_type`, for /doc only. */
  swaggerType?: string;
  items?: { type: WpType };
  /**
   * Most items a list argument takes (/doc `maxItems`: every list has a documented
   * maximum). Lists default to `MAX_LIST` (src/http/validators.ts), which their schemas enforce.
   */
  maxItems?: number;
  /** JSON-schema `format` TEC declares (`double`, or `string` on status lists); shown in the index and /doc. */
  format?: string;
  /** Where /doc says the argument goes. */
  in?: "query" | "path" | "body";
}

// biome-ignore lint/suspicious/noExplicitAny: a spec table holds arguments of every output type.
export type ArgSpecs = Record<string, Arg<any>>;

/** A default an argument may declare (a function is evaluated per request). */
export type ArgDefault = Exclude<Arg["default"], undefined>;

/**
 * Arguments whose value is always there after `parseArgs`: required ones (or the request fails),
 * defaulted ones, and path variables (the route only matches with them). Declared through `arg()`,
 * which keeps these properties in the spec's type.
 */
type Present = { required: true } | { default: ArgDefault } | { in: "path" };

/**
 * Declares an argument. Its type records whether the value is always present (required, defaulted,
 * a path variable), so `ArgValues` types it `T` rather than `T | undefined`.
 * @example arg({ schema: positiveInt, default: 1, type: "integer", description: "events.page" })
 */
export function arg<T>(a: Arg<T> & { required: true }): Arg<T> & { required: true };
export function arg<T>(a: Arg<T> & { default: ArgDefault }): Arg<T> & { default: ArgDefault };
export function arg<T>(a: Arg<T> & { in: "path" }): Arg<T> & { in: "path" };
export function arg<T>(a: Arg<T>): Arg<T>;
export function arg<T>(a: Arg<T>): Arg<T> {
  return a;
}

/** An argument as it is where it may be absent (e.g. a path variable of a route that lacks it). */
export const optionalArg = <T>(a: Arg<T>): Arg<T> => a;

/** The specs with nothing required and no defaults: edits change only what is sent. */
export type Unrequired<S extends ArgSpecs> = {
  [K in keyof S]: S[K] extends Arg<infer T> ? Arg<T> : never;
};

/**
 * A copy of `specs` with nothing required and no defaults (the index shows `required: false`).
 * @example const EDIT = { id: ID, ...unrequired(CREATE) };
 */
export function unrequired<S extends ArgSpecs>(specs: S): Unrequired<S> {
  return Object.fromEntries(
    Object.entries(specs).map(([k, a]) => [k, { ...a, required: false, default: undefined }]),
  ) as Unrequired<S>;
}

/** Parsed values: `undefined` when absent and without default (required, defaulted and path arguments never are). */
export type ArgValues<S extends ArgSpecs> = {
  [K in keyof S]: S[K] extends Arg<infer T> ? (S[K] extends Present ? T : T | undefined) : never;
};

export interface ParsedArgs<S extends ArgSpecs> {
  values: ArgValues<S>;
  /** Names the client actually sent (defaults excluded). */
  sent: Set<keyof S & string>;
}

/**
 * Encodes a `data.params` message for a valibot issue: a key under `params.` plus placeholder values.
 * `issue("not_of_type", "boolean")` renders as "featured is not of type boolean." (the parameter name
 * is always the first placeholder).
 */
export function issue(key: string, ...args: string[]): string {
  return [key, ...args].join("|");
}

function toInvalid(name: string, message: string): InvalidParam {
  const [key, ...args] = message.split("|");
  const known = /^[a-z_-]+$/.test(key ?? "") ? key : "invalid";
  if (known === "event-tickets-not-active") {
    return { name, key: known, args: [], detail: { code: known, status: 400 } };
  }
  return { name, key: known, args };
}

/**
 * Validates the request against the route's arguments.
 * @throws ApiError 400 `rest_missing_callback_param` (required args missing, §1.3 step 4), then
 *   400 `rest_invalid_param` with every failing argument (§1.3 steps 5–6, §10.2).
 * @example const { values } = parseArgs(READ_ARGS, params, ctx); values.page // number
 */
export function parseArgs<S extends ArgSpecs>(
  specs: S,
  params: RequestParams,
  ctx: ArgContext,
): ParsedArgs<S> {
  const raw: Record<string, unknown> = {};
  const sent = new Set<keyof S & string>();
  const missing: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    const value = paramValue(params, name);
    if (value !== undefined && value !== null) {
      raw[name] = value;
      sent.add(name as keyof S & string);
    } else if (spec.default !== undefined) {
      raw[name] =
        typeof spec.default === "function"
          ? (spec.default as (c: ArgContext) => unknown)(ctx)
          : spec.default;
    } else if (spec.required) {
      missing.push(name);
    }
  }
  if (missing.length) throw missingParams(missing);

  const values: Record<string, unknown> = {};
  const invalid: InvalidParam[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    if (!(name in raw)) continue;
    const result = v.safeParse(spec.schema, raw[name]);
    if (result.success) values[name] = result.output;
    else invalid.push(toInvalid(name, result.issues[0].message));
  }
  if (invalid.length) throw new InvalidParamsError(invalid);
  return { values: values as ArgValues<S>, sent };
}
