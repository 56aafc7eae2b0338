/**
 * Password-protected posts (tec-reference §4.7, contract §4 row 18): when access is not granted, the
 * protected fields of the object are blanked, recursively, keeping the keys; titles and names stay.
 */
import { sha256Hex, timingSafeEqual } from "./crypto";

const TO_EMPTY_STRING = new Set([
  "description",
  "excerpt",
  "cost",
  "website",
  "virtual_url",
  "virtual_video_source",
  "email",
  "phone",
  "stateprovince",
  "zip",
  "province",
  "country",
  "city",
  "address",
]);
const TO_NULL = new Set([
  "all_day",
  "show_map",
  "show_map_link",
  "hide_from_listings",
  "sticky",
  "featured",
  "ticketed",
  "is_virtual",
]);
const TO_EMPTY_LIST = new Set(["categories", "tags", "venue", "organizer", "custom_fields"]);

/**
 * Blanks the protected fields of a serialized post in place and returns it.
 * @param keep keys left alone at the top level (a venue's own `venue` name, an organizer's `organizer`).
 */
export function blankProtected<T extends Record<string, unknown>>(obj: T, keep: string[] = []): T {
  const o = obj as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (keep.includes(key)) continue;
    if (TO_EMPTY_STRING.has(key)) o[key] = "";
    else if (TO_NULL.has(key)) o[key] = null;
    else if (TO_EMPTY_LIST.has(key)) o[key] = [];
    else if (key === "image") o[key] = false;
    else if (key === "geo_lat" || key === "geo_lng") o[key] = 0;
    else if (key === "cost_details")
      o[key] = { currency_symbol: "", currency_position: "", currency_code: "", values: [] };
    else if (key === "attendance")
      o[key] = { total_attendees: null, checked_in: null, not_checked_in: null };
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
