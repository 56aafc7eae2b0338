/**
 * Password-protected posts (tec-reference §4.7, contract §4 row 18): when access is not granted, the
 * protected fields of the object are blanked, recursively, keeping the keys; titles and names stay.
 */
import { EVENT_FIELDS } from "../events/contract";
import { ORGANIZER_FIELDS } from "../linked-posts/organizer";
import { VENUE_FIELDS } from "../linked-posts/venue";
import { type Blank, blanksOf } from "./contract";
import { sha256Hex, timingSafeEqual } from "./crypto";

let blanks: Map<string, Blank> | null = null;

/**
 * Every blanked key with what it shows instead, from the contracts (by name, as objects nest: an
 * event's venue is blanked by the same table).
 * @throws Error when two contracts blank one name differently.
 */
function blankTable(): Map<string, Blank> {
  if (blanks) return blanks;
  const table = new Map<string, Blank>();
  for (const [name, blank] of [
    ...blanksOf(EVENT_FIELDS),
    ...blanksOf(VENUE_FIELDS),
    ...blanksOf(ORGANIZER_FIELDS),
  ]) {
    if (table.has(name) && JSON.stringify(table.get(name)) !== JSON.stringify(blank))
      throw new Error(`password protection blanks ${name} two ways`);
    table.set(name, blank);
  }
  blanks = table;
  return table;
}

/**
 * Blanks the protected fields of a serialized post in place and returns it.
 * @param keep keys left alone at the top level (a venue's own `venue` name, an organizer's `organizer`).
 */
export function blankProtected<T extends Record<string, unknown>>(obj: T, keep: string[] = []): T {
  const o = obj as Record<string, unknown>;
  const table = blankTable();
  for (const key of Object.keys(o)) {
    if (keep.includes(key)) continue;
    const blank = table.get(key);
    if (blank !== undefined)
      o[key] = blank !== null && typeof blank === "object" ? structuredClone(blank) : blank;
    else if (
      key !== "json_ld" &&
      o[key] !== null &&
      typeof o[key] === "object" &&
      !Array.isArray(o[key])
    ) {
      blankProtected(o[key] as Record<string, unknown>);
    }
  }
  delete o.json_ld;
  return obj;
}

/**
 * Blanks a serialized password-protected event (§4.7) as lists show it when access is not granted:
 * its own protected fields as `blankProtected` does, but its venue and organizers stay, each blanked
 * keeping its name (contract §4 row 18), as in a single read of the venue or organizer. TEC replaces
 * them with `[]`, losing the names.
 * @example blankProtectedEvent({ title: "T", venue: { venue: "Hall", city: "X" }, organizer: [] })
 *   // { title: "T", venue: { venue: "Hall", city: "" }, organizer: [] }
 */
export function blankProtectedEvent<T extends Record<string, unknown>>(event: T): T {
  const o = event as Record<string, unknown>;
  blankProtected(o, ["venue", "organizer"]);
  const venue = o.venue;
  if (venue !== null && typeof venue === "object" && !Array.isArray(venue))
    blankProtected(venue as Record<string, unknown>, ["venue"]);
  if (Array.isArray(o.organizer))
    for (const organizer of o.organizer) blankProtected(organizer, ["organizer"]);
  return event;
}

/** Whether `password` (as sent) opens a post whose password digest is `digest`. */
export async function passwordMatches(digest: string, password: unknown): Promise<boolean> {
  if (!digest || typeof password !== "string" || password === "") return false;
  return timingSafeEqual(digest, await sha256Hex(password));
}
