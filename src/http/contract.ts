/**
 * Resource contracts (issue 15): each wire field of a resource declared once — what is sent (the
 * valibot schema `/doc` shows, with its description key), the argument that writes it (validation,
 * the namespace index, `/doc` parameters), the column it is stored in and how, and what password
 * protection shows instead (tec-reference §4.7). The helpers here derive the argument specs, the
 * `/doc` component, the write mapping and the protection list from such a table.
 */
import * as v from "valibot";
import type { HtmlFilters } from "../text/kses";
import type { Arg } from "./args";
import { isFalsy } from "./render";

/** What password protection shows instead of a field (§4.7): a value, an empty list, an object. */
export type Blank = "" | null | 0 | false | readonly [] | Readonly<Record<string, unknown>>;

/**
 * One wire field of a resource.
 * @typeParam R what `read` reads from (the resource's record, as its serializer prepares it).
 */
export interface WireField<R = never> {
  /** What is sent: the schema `/doc` shows (optional when empty values are dropped); absent for arguments only written. */
  out?: v.GenericSchema;
  /** The read mapping: the value sent, from the record (absent: the column's value, or computed by the serializer). */
  read?: (record: R) => unknown;
  /** The argument that writes the field; absent when clients cannot write it. */
  arg?: Arg;
  /** The column the validated value is stored in (a key of the drizzle table), when stored as is. */
  column?: string;
  /** The stored form of the validated value (e.g. through the writer's HTML filters). */
  write?: (value: never, html: HtmlFilters) => unknown;
  /** What password protection shows instead; absent: shown. */
  blank?: Blank;
  /** Only editors and administrators (`edit_others_posts`) may write it; absent: whoever may write the post. */
  editorsOnly?: true;
}

/** A resource's fields by wire name, in the order they are sent. */
// biome-ignore lint/suspicious/noExplicitAny: a table holds fields reading records of any type.
export type WireFields = Record<string, WireField<any>>;

/** The names of the fields that are sent (those with an output schema). */
type SentNames<F extends WireFields> = {
  [K in keyof F]: F[K]["out"] extends v.GenericSchema ? K : never;
}[keyof F];

type OutputSchemas<F extends WireFields> = {
  [K in SentNames<F>]: Extract<F[K]["out"], v.GenericSchema>;
};

/**
 * The `/doc` component of a resource: every sent field's schema, in wire order, no other key allowed.
 * @example const Venue = wireSchema(VENUE_FIELDS); type VenueObject = v.InferOutput<typeof Venue>;
 */
export function wireSchema<F extends WireFields>(
  fields: F,
): v.StrictObjectSchema<OutputSchemas<F>, undefined> {
  const entries = Object.fromEntries(
    Object.entries(fields).flatMap(([name, f]) => (f.out ? [[name, f.out]] : [])),
  );
  return v.strictObject(entries as OutputSchemas<F>);
}

/** How `readMapping` sends a resource. */
export interface ReadOptions {
  /**
   * Fields whose `out` is optional are left out when empty (PHP `array_filter`, quirk 17), as
   * venues and organizers are sent; otherwise only `undefined` is left out.
   */
  dropEmpty?: boolean;
}

/** Each sent field's reading of the record: its `read`, else its column's value in `row(record)`. */
function readers<R>(fields: WireFields, row: (record: R) => object) {
  return Object.entries(fields).flatMap(([name, f]) => {
    if (!f.out) return [];
    const { read, column } = f;
    const optional = f.out.type === "optional";
    if (read) return [{ name, f, optional, read: read as (record: R) => unknown }];
    if (!column) throw new Error(`field ${name} is sent but neither read nor stored`);
    const fromRow = (r: R) => (row(r) as Record<string, unknown>)[column];
    return [{ name, f, optional, read: fromRow }];
  });
}

/**
 * The read mapping: builds the object sent from a record, field by field — each sent field's
 * `read`, else the value of its column in `row(record)` — in wire order, leaving out `undefined`
 * (and empty optional fields with `dropEmpty`).
 * @throws Error at start-up for a sent field that is neither read nor stored.
 * @example const serializeWebhook = readMapping(WEBHOOK_FIELDS, (row: WebhookRow) => row);
 */
export function readMapping<R>(
  fields: WireFields,
  row: (record: R) => object,
  options: ReadOptions = {},
): (record: R) => Record<string, unknown> {
  const reads = readers(fields, row);
  const { dropEmpty = false } = options;
  return (record) => {
    const out: Record<string, unknown> = {};
    for (const { name, optional, read } of reads) {
      const value = read(record);
      if (value === undefined || (dropEmpty && optional && isFalsy(value))) continue;
      out[name] = value;
    }
    return out;
  };
}

/** The argument of each field named, in the order given. */
export type ArgsOf<F extends WireFields, K extends keyof F> = {
  [N in K]: NonNullable<F[N]["arg"]>;
};

/**
 * The argument specs of the fields named, in that order (TEC's registration order, which the
 * namespace index and `/doc` show).
 * @throws Error at start-up for a named field without an argument.
 */
export function argSpecs<F extends WireFields, const K extends readonly (keyof F & string)[]>(
  fields: F,
  order: K,
): ArgsOf<F, K[number]> {
  return Object.fromEntries(
    order.map((name) => {
      const arg = fields[name].arg;
      if (!arg) throw new Error(`field ${name} has no argument`);
      return [name, arg];
    }),
  ) as ArgsOf<F, K[number]>;
}

/**
 * The write mapping: the columns set from the fields that were sent (inserts and partial updates),
 * through each field's `write`.
 * @example writeColumns(VENUE_FIELDS, { city: "Berlin" }, new Set(["city"]), html) // { city: "Berlin" }
 */
export function writeColumns(
  fields: WireFields,
  values: Record<string, unknown>,
  sent: Set<string>,
  html: HtmlFilters,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (!f.column || !sent.has(name)) continue;
    const value = values[name];
    out[f.column] = f.write ? f.write(value as never, html) : value;
  }
  return out;
}

/** Whether the fields sent include one only editors and administrators may write. */
export const sendsEditorsOnly = (fields: WireFields, sent: Set<string>): boolean =>
  Object.entries(fields).some(([name, f]) => f.editorsOnly && sent.has(name));

/** The fields a table blanks, by wire name. */
export const blanksOf = (fields: WireFields): Array<[string, Blank]> =>
  Object.entries(fields).flatMap(([name, f]) =>
    f.blank === undefined ? [] : [[name, f.blank] as [string, Blank]],
  );
