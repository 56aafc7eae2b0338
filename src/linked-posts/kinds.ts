/**
 * The two linked post types side by side: their table, WordPress post type, contract (wire fields
 * and arguments, src/linked-posts/venue.ts and organizer.ts), and how validated fields become a row
 * (tec-reference §8.6).
 */

import { organizers, venues } from "../db/schema";
import type { ArgSpecs, ArgValues } from "../http/args";
import { writeColumns } from "../http/contract";
import type { HtmlFilters } from "../text/kses";
import { ORGANIZER_ARGS, ORGANIZER_FIELDS, ORGANIZER_SEARCH_COLUMNS } from "./organizer";
import type { LinkedKind } from "./record";
import { VENUE_ARGS, VENUE_FIELDS, VENUE_SEARCH_COLUMNS } from "./venue";

/**
 * Per type: its table, WordPress post type, create arguments, the plural used in paths and list
 * bodies, and the fields `search` looks in (tec-reference §7.1) — which are also the columns of its
 * FTS5 table `{plural}_fts` (drizzle/0002_linked_posts_search.sql).
 */
export const LINKED = {
  venue: {
    table: venues,
    postType: "tribe_venue",
    fields: VENUE_FIELDS,
    args: VENUE_ARGS,
    plural: "venues",
    searchColumns: VENUE_SEARCH_COLUMNS,
  },
  organizer: {
    table: organizers,
    postType: "tribe_organizer",
    fields: ORGANIZER_FIELDS,
    args: ORGANIZER_ARGS,
    plural: "organizers",
    searchColumns: ORGANIZER_SEARCH_COLUMNS,
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
 * Columns set from the fields that were sent (for inserts and partial updates): the write mapping
 * of the kind's contract. The name, the description and the excerpt go through the writer's HTML
 * filters (src/text/kses.ts).
 */
export function linkedColumns(
  kind: LinkedKind,
  f: LinkedFields,
  sent: Set<string>,
  html: HtmlFilters,
): Record<string, unknown> {
  return writeColumns(LINKED[kind].fields, f as Record<string, unknown>, sent, html);
}

/** Type guard helper for spec maps. */
export const specsOf = (kind: LinkedKind): ArgSpecs => LINKED[kind].args;
