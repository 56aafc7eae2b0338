/**
 * `venue` and `organizer` as given with an event (tec-reference §8.4, §8.5; contract §4 rows 10,
 * 13, 14): an id, `"3,4"`, an object with an `id`, an object describing a new one, a list of any of
 * these, or an empty value. Parsed and validated here; ids are checked against D1 by `resolve.ts`.
 */
import type { ArgContext } from "../http/args";
import { parseArgs } from "../http/args";
import { ApiError, InvalidParamsError } from "../http/errors";
import { isEmpty, isNumeric, MAX_LIST } from "../http/validators";
import { LINKED, type LinkedFields } from "./kinds";
import type { LinkedKind } from "./record";

/** One linked post reference. */
export type LinkedRef =
  | { id: number; fromObject: boolean }
  | { fields: LinkedFields; sent: Set<string> };

/** `clear`: the value was empty (unlink); otherwise the references in order. */
export type LinkedInput = { clear: true } | { clear: false; refs: LinkedRef[] };

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  x !== null && typeof x === "object" && !Array.isArray(x);

function isIdLike(x: unknown): boolean {
  return isNumeric(x) && Number.isInteger(Number(x)) && Number(x) > 0;
}

/** An object whose keys are 0, 1, 2… (qs gives these for `organizer[0][organizer]=A`). */
function listLike(x: Record<string, unknown>): unknown[] | null {
  const keys = Object.keys(x);
  return keys.length > 0 && keys.every((k, i) => k === String(i)) ? Object.values(x) : null;
}

function objectRef(kind: LinkedKind, obj: Record<string, unknown>, ctx: ArgContext): LinkedRef {
  if (obj.id !== undefined && obj.id !== null && obj.id !== "") {
    if (!isIdLike(obj.id)) throw new ApiError(400, "invalid-linked-post-id");
    return { id: Number(obj.id), fromObject: true };
  }
  try {
    const { values, sent } = parseArgs(LINKED[kind].args, { query: {}, body: obj, path: {} }, ctx);
    return { fields: values as LinkedFields, sent: sent as Set<string> };
  } catch (err) {
    if (err instanceof ApiError) throw new InvalidParamsError([{ name: kind }]);
    throw err;
  }
}

function itemRef(kind: LinkedKind, item: unknown, ctx: ArgContext): LinkedRef[] {
  if (isIdLike(item)) return [{ id: Number(item), fromObject: false }];
  if (typeof item === "string" && item.includes(","))
    return item.split(",").flatMap((p) => itemRef(kind, p.trim(), ctx));
  if (isPlainObject(item)) return [objectRef(kind, item, ctx)];
  throw new InvalidParamsError([{ name: kind }]);
}

/**
 * Parses a `venue` or `organizer` value.
 * @throws InvalidParamsError naming the parameter for values that are neither ids nor objects;
 *   ApiError 400 `invalid-linked-post-id` for an object whose `id` is not a number.
 */
export function parseLinkedInput(kind: LinkedKind, raw: unknown, ctx: ArgContext): LinkedInput {
  if (isEmpty(raw)) return { clear: true };
  let items: unknown[];
  if (Array.isArray(raw)) items = raw;
  else if (isPlainObject(raw)) items = listLike(raw) ?? [raw];
  else items = [raw];
  const present = items.filter(
    (x) => !isEmpty(x) && !(isPlainObject(x) && Object.keys(x).length === 0),
  );
  if (present.length === 0) return { clear: true };
  if (present.length > MAX_LIST) throw new InvalidParamsError([{ name: kind }]);
  const refs = present.flatMap((item) => itemRef(kind, item, ctx));
  // `"1,2,3"` strings count by what they name (every list has a documented maximum).
  if (refs.length > MAX_LIST) throw new InvalidParamsError([{ name: kind }]);
  return { clear: false, refs };
}
