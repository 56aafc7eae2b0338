/**
 * Resource contracts: each wire field of a resource declared once — what is sent (the
 * valibot schema `/doc` shows, with its description key), the argument that writes it (validation,
 * the namespace index, `/doc` parameters), the column it is stored in and how, and what password
 * protection shows instead (tec-reference §4.7). The helpers here derive the argument specs, the
 * `/doc` component, the write mapping, the read mapping and what protection blanks from such a
 * table (records are blanked by src/http/password-protection.ts).
 */
import * as v from "valibot";
import type { HtmlFilters } from "../text/kses";
import type { Arg } from "./args";
import { isFalsy } from "./render";

/** A blank that sends no key at all (`json_ld`: a blanked post has no schema.org document). */
export const LEFT_OUT: unique symbol = Symbol("left out");

/**
 * What password protection shows instead of a field (§4.7): a value, an empty list, an object, or
 * nothing (`LEFT_OUT`).
 */
export type Blank =
  | ""
  | null
  | 0
  | false
  | readonly []
  | Readonly<Record<string, unknown>>
  | typeof LEFT_OUT;

/**
 * One wire field of a resource.
 * @typeParam R what `read` reads from (the resource's record, as its serializer prepares it).
 * @typeParam D the record password protection blanks (`hides` empties a copy of it).
 */
export interface WireField<R = never, D = never> {
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
  /**
   * What password protection shows instead (§4.7); absent: shown. The record's value is emptied too
   * before anything renders it: the column's, else what `hides` empties.
   */
  blank?: Blank;
  /**
   * For a blanked field not read from its column alone: empties, in a copy of the record, the values
   * it shows (`NOTHING_HIDDEN`: none).
   */
  hides?: (draft: D) => void;
  /** Only editors and administrators (`edit_others_posts`) may write it; absent: whoever may write the post. */
  editorsOnly?: true;
}

/** A resource's fields by wire name, in the order they are sent. */
// biome-ignore lint/suspicious/noExplicitAny: a table holds fields reading records of any type.
export type WireFields = Record<string, WireField<any, any>>;

/**
 * `hides` of a blanked field whose record keeps its values: it shows no stored value of its own
 * (`custom_fields`, `json_ld`), or one kept on purpose (an event's `all_day`: its dates stay shown).
 */
export const NOTHING_HIDDEN = (): void => {};

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
export interface ReadOptions<R> {
  /**
   * Fields whose `out` is optional are left out when empty (PHP `array_filter`, quirk 17), as
   * venues and organizers are sent; otherwise only `undefined` is left out.
   */
  dropEmpty?: boolean;
  /** The fields password protection blanked in the record (§4.7): each is sent as its `blank`. */
  blanked?: (record: R) => ReadonlySet<string>;
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

/** A blank as sent: objects and lists are fresh copies (callers may change what they are given). */
const blankSent = (blank: Exclude<Blank, typeof LEFT_OUT>) =>
  blank !== null && typeof blank === "object" ? structuredClone(blank) : blank;

/**
 * The read mapping: builds the object sent from a record, field by field — each sent field's
 * `read`, else the value of its column in `row(record)` — in wire order, leaving out `undefined`
 * (and empty optional fields with `dropEmpty`); a field password protection blanked is its `blank`.
 * @throws Error at start-up for a sent field that is neither read nor stored.
 * @example const serializeWebhook = readMapping(WEBHOOK_FIELDS, (row: WebhookRow) => row);
 */
export function readMapping<R>(
  fields: WireFields,
  row: (record: R) => object,
  options: ReadOptions<R> = {},
): (record: R) => Record<string, unknown> {
  const reads = readers(fields, row);
  const { dropEmpty = false, blanked } = options;
  return (record) => {
    const hidden = blanked?.(record);
    const out: Record<string, unknown> = {};
    for (const { name, f, optional, read } of reads) {
      if (hidden?.has(name) && f.blank !== undefined) {
        if (f.blank !== LEFT_OUT) out[name] = blankSent(f.blank);
        continue;
      }
      const value = read(record);
      if (value === undefined || (dropEmpty && optional && isFalsy(value))) continue;
      out[name] = value;
    }
    return out;
  };
}

/**
 * The fields password protection blanks in a record the viewer may not open (§4.7), by wire name,
 * for resources that send every key (events): every sent field with a `blank`.
 */
export const blankedNames = (fields: WireFields): ReadonlySet<string> =>
  new Set(
    Object.entries(fields).flatMap(([name, f]) => (f.out && f.blank !== undefined ? [name] : [])),
  );

/**
 * The same for resources that leave out empty values (`ReadOptions.dropEmpty`: venues,
 * organizers): of the optional fields only those the record has a value for, as TEC replaces the
 * keys an object has and adds none (a blanked venue without a phone sends no `phone`); fields
 * `LEFT_OUT` always.
 * @example blankedFields(VENUE_FIELDS, (r: LinkedView) => r.row)(view) // Set { "address", "show_map", … }
 */
export function blankedFields<R>(
  fields: WireFields,
  row: (record: R) => object,
): (record: R) => ReadonlySet<string> {
  const blanked = readers(fields, row).filter((r) => r.f.blank !== undefined);
  const always = blanked.filter((r) => !r.optional || r.f.blank === LEFT_OUT);
  const ifSet = blanked.filter((r) => !always.includes(r));
  const names = always.map((r) => r.name);
  return (record) =>
    new Set([...names, ...ifSet.filter((r) => !isFalsy(r.read(record))).map((r) => r.name)]);
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
