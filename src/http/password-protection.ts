/**
 * Password-protected posts (tec-reference §4.7, contract §4 row 18). A post the viewer may not open
 * reaches every renderer — JSON, JSON-LD, iCalendar — blanked: a copy of its record whose protected
 * values are emptied, that names the fields sent as their `blank` instead. Which fields those are,
 * and what each shows, is declared once in the resources' contracts (src/events/contract.ts,
 * src/linked-posts/venue.ts, src/linked-posts/organizer.ts); src/events/visible.ts and
 * src/linked-posts/access.ts make records visible with the helpers here.
 */
import type { WireFields } from "./contract";
import { sha256Hex, timingSafeEqual } from "./crypto";

/** A record as the viewer may see it. */
export interface Shown {
  /** The fields sent as their `blank`, by wire name; none when the viewer may open the post. */
  readonly blanked: ReadonlySet<string>;
}

/** Nothing blanked: the viewer may open the post. */
export const OPEN: ReadonlySet<string> = new Set();

/** Whether password protection blanked the record (§4.7). */
export const isBlanked = (record: Shown): boolean => record.blanked.size > 0;

/** A stored value emptied: `""` for text, `false` for a flag, `[]` for a list, else `null`. */
function emptied(value: unknown): unknown {
  if (typeof value === "string") return "";
  if (typeof value === "boolean") return false;
  if (Array.isArray(value)) return [];
  return null;
}

/**
 * How a resource's records are blanked (§4.7): a copy whose values of every blanked field are
 * emptied — the field's column in `row`, and what its `hides` empties (which replaces values in the
 * copy, never changing what the record shares).
 * @throws Error at start-up for a blanked field that declares neither a column nor `hides`.
 * @example const hide = hider<VenueRecord>(VENUE_FIELDS); hide({ row, image }).row.phone // ""
 */
export function hider<D extends { row: object }>(fields: WireFields): (record: D) => D {
  const steps = Object.entries(fields).flatMap(([name, f]) => {
    if (f.blank === undefined) return [];
    const { column, hides } = f;
    if (!column && !hides)
      throw new Error(`field ${name} is blanked but neither stored nor hidden`);
    return [
      (draft: D) => {
        const row = draft.row as Record<string, unknown>;
        if (column) row[column] = emptied(row[column]);
        hides?.(draft as never);
      },
    ];
  });
  return (record) => {
    const draft = { ...record, row: { ...record.row } };
    for (const step of steps) step(draft);
    return draft;
  };
}

/** Whether `password` (as sent) opens a post whose password digest is `digest`. */
export async function passwordMatches(digest: string, password: unknown): Promise<boolean> {
  if (!digest || typeof password !== "string" || password === "") return false;
  return timingSafeEqual(digest, await sha256Hex(password));
}
