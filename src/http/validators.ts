/**
 * valibot schemas for WordPress argument types (tec-reference §1.4) and TEC's validators (§3).
 * Each takes the raw request value (string, number, boolean, array or object) and yields the typed
 * value; failure messages are `params.*` keys encoded with `issue()`.
 */
import * as v from "valibot";
import { isTime } from "../time/parse";
import { issue } from "./args";

const INVALID = issue("invalid");

/** Most items a list parameter may name (ids, slugs); more is a client error, not a slow query. */
export const MAX_LIST = 100;

/** PHP `is_numeric` for the values a request can carry. */
export function isNumeric(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "string" && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value);
}

/** PHP `empty()`: `""`, `"0"`, `0`, `false`, `null`, `[]`. */
export function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === false ||
    value === "" ||
    value === "0" ||
    value === 0 ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * WordPress `list_to_array` (§2.1): an array as is, or a comma list split and trimmed; empty pieces
 * dropped.
 */
export function listToArray(value: unknown): unknown[] {
  if (Array.isArray(value))
    return value.flatMap((item) => (typeof item === "string" ? listToArray(item) : [item]));
  if (value !== null && typeof value === "object") return listToArray(Object.values(value));
  if (typeof value === "number") return [value];
  if (typeof value !== "string") return [];
  let text = value;
  try {
    text = decodeURIComponent(value);
  } catch {
    // not URL-encoded
  }
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** WP `integer` type: ints and integral numeric strings → number (§1.4). */
export const wpInteger = v.pipe(
  v.unknown(),
  v.check((x) => isNumeric(x) && Number.isInteger(Number(x)), issue("not_of_type", "integer")),
  v.transform((x) => Number(x)),
);

/** WP `boolean` type: true/false, "true"/"false"/"1"/"0" (any case), 0/1 (§1.4). */
export const wpBoolean = v.pipe(
  v.unknown(),
  v.check(
    (x) =>
      typeof x === "boolean" ||
      x === 0 ||
      x === 1 ||
      (typeof x === "string" && /^(true|false|1|0)$/i.test(x)),
    issue("not_of_type", "boolean"),
  ),
  v.transform((x) => x === true || x === 1 || (typeof x === "string" && /^(true|1)$/i.test(x))),
);

/** WP `string` type: must already be a string (§1.4). */
export const wpString = v.pipe(
  v.unknown(),
  v.check((x) => typeof x === "string", issue("not_of_type", "string")),
  v.transform((x) => x as string),
);

/** TEC `is_string`: a non-empty string; `""` and `"0"` fail (§3). */
export const nonEmptyString = v.pipe(
  v.unknown(),
  v.check((x) => typeof x === "string" && x !== "" && x !== "0", INVALID),
  v.transform((x) => x as string),
);

/** Longest `search` phrase looked for, in characters; the rest is ignored. */
export const MAX_SEARCH_CHARS = 500;

/**
 * A `search` phrase: TEC `is_string` (non-empty), then sanitized like WordPress's
 * `sanitize_text_field` does for the parts that matter to a query: control characters (NUL, line
 * breaks, …) become spaces — an FTS5 phrase stops at a NUL, which made the query malformed — and
 * the phrase is cut at `MAX_SEARCH_CHARS` (whole code points).
 * @example v.parse(searchText, "jazz\u0000night") // "jazz night"
 */
export const searchText = v.pipe(
  nonEmptyString,
  v.transform((x) =>
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
    [...x.replace(/[\u0000-\u001f\u007f]/g, " ")].slice(0, MAX_SEARCH_CHARS).join(""),
  ),
);

/** TEC `is_positive_int`: numeric, integral, > 0 (`"3.0"` passes) (§3). */
export const positiveInt = v.pipe(
  v.unknown(),
  v.check(
    (x) =>
      isNumeric(x) &&
      Number.isInteger(Number(x)) &&
      Number(x) > 0 &&
      Number(x) <= Number.MAX_SAFE_INTEGER,
    INVALID,
  ),
  v.transform((x) => Number(x)),
);

/** TEC `is_event_id_format` for path ids: digits (the route's `\d+`), 0 allowed (§2.2). */
export const idFormat = v.pipe(
  v.unknown(),
  v.check(
    (x) =>
      (typeof x === "number" && Number.isInteger(x) && x >= 0) ||
      (typeof x === "string" && /^\d+$/.test(x)),
    INVALID,
  ),
  v.transform((x) => Number(x)),
);

/** TEC `is_time`: a Unix timestamp or a date phrase PHP can parse (§3); kept as sent. */
export const timeInput = v.pipe(
  v.unknown(),
  v.check((x) => (typeof x === "string" || typeof x === "number") && isTime(x), INVALID),
  v.transform((x) => String(x)),
);

/** TEC `is_positive_int_list` then `list_to_array` (§3). */
export const positiveIntList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) => list.length > 0 && list.length <= MAX_LIST && list.every((x) => v.is(positiveInt, x)),
    INVALID,
  ),
  v.transform((list) => [...new Set(list.map(Number))]),
);

/** A list of ids, slugs or names (categories/tags filters): non-empty strings after `list_to_array`. */
export const termRefList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) =>
      list.length > 0 &&
      list.length <= MAX_LIST &&
      list.every(
        (x) => (typeof x === "string" && x !== "" && x.length <= 200) || typeof x === "number",
      ),
    INVALID,
  ),
  v.transform((list) => [...new Set(list.map(String))]),
);

/**
 * `tribe_is_truthy` (§3): booleans as is; strings `1, enable, enabled, on, y, yes, true` (any case);
 * numbers by cast.
 */
export function isTruthy(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return /^(1|enable|enabled|on|y|yes|true)$/i.test(value.trim());
  return false;
}
