/**
 * The two linked post types, described once: their table, WordPress post type, name field and
 * writable fields, and how validated fields become a row (tec-reference §8.6).
 */

import { organizers, venues } from "../db/schema";
import type { ArgSpecs, ArgValues } from "../http/args";
import type { HtmlFilters } from "../text/kses";
import { deriveStateProvince, ORGANIZER_ARGS, VENUE_ARGS } from "./fields";

export type LinkedKind = "venue" | "organizer";

/**
 * Per type: its table, WordPress post type, create arguments, the plural used in paths and list
 * bodies, and the fields `search` looks in (tec-reference §7.1) — which are also the columns of its
 * FTS5 table `{plural}_fts` (drizzle/0002_linked_posts_search.sql).
 */
export const LINKED = {
  venue: {
    table: venues,
    postType: "tribe_venue",
    args: VENUE_ARGS,
    plural: "venues",
    searchColumns: [
      "title",
      "content",
      "excerpt",
      "address",
      "city",
      "province",
      "state",
      "stateprovince",
      "zip",
      "phone",
    ],
  },
  organizer: {
    table: organizers,
    postType: "tribe_organizer",
    args: ORGANIZER_ARGS,
    plural: "organizers",
    searchColumns: ["title", "content", "excerpt", "phone", "email", "website"],
  },
} as const;

/**
 * The table of a kind, typed as the venue table: only the columns both tables share (every post
 * column, `phone`, `website`, `imageId`) may be used through it.
 */
export const commonTable = (kind: LinkedKind) => LINKED[kind].table as unknown as typeof venues;

export type VenueFields = ArgValues<typeof VENUE_ARGS>;
export type OrganizerFields = ArgValues<typeof ORGANIZER_ARGS>;
export type LinkedFields = VenueFields | OrganizerFields;

/**
 * Columns set from the fields that were sent (for inserts and partial updates). The name, the
 * description and the excerpt go through the writer's HTML filters (src/text/kses.ts).
 */
export function linkedColumns(
  kind: LinkedKind,
  f: LinkedFields,
  sent: Set<string>,
  html: HtmlFilters,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (column: string, field: string, value: unknown) => {
    if (sent.has(field)) out[column] = value;
  };
  const name = (f as Record<string, unknown>)[kind];
  set("title", kind, typeof name === "string" ? html.data(name) : name);
  set("content", "description", f.description === undefined ? undefined : html.post(f.description));
  set("excerpt", "excerpt", f.excerpt === undefined ? undefined : html.post(f.excerpt));
  set("phone", "phone", f.phone);
  set("website", "website", f.website);
  set("globalIdLineage", "global_id_lineage", f.global_id_lineage);
  if (kind === "venue") {
    const v = f as VenueFields;
    for (const key of [
      "address",
      "city",
      "country",
      "province",
      "state",
      "zip",
      "stateprovince",
    ] as const)
      set(key, key, v[key]);
    set("showMap", "show_map", v.show_map);
    set("showMapLink", "show_map_link", v.show_map_link);
    set("geoLat", "geo_lat", v.geo_lat);
    set("geoLng", "geo_lng", v.geo_lng);
  } else {
    set("email", "email", (f as OrganizerFields).email);
  }
  return out;
}

/** `stateprovince` for a venue insert when the client did not send one. */
export function venueStateProvince(f: VenueFields, sent: Set<string>): string | undefined {
  if (sent.has("stateprovince") && f.stateprovince) return undefined;
  return deriveStateProvince({ country: f.country, state: f.state, province: f.province });
}

/** Type guard helper for spec maps. */
export const specsOf = (kind: LinkedKind): ArgSpecs => LINKED[kind].args;
