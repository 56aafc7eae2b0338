/**
 * The two linked post types as storage holds them (tec-reference §4.2, §4.3): their kinds and rows,
 * which the contracts (src/linked-posts/venue.ts, organizer.ts), what every post shares
 * (post-fields.ts), their JSON-LD (json-ld.ts) and the loaders all read. It imports none of them.
 */
import type { organizers, venues } from "../db/schema";

export type LinkedKind = "venue" | "organizer";

export type VenueRow = typeof venues.$inferSelect;

export type OrganizerRow = typeof organizers.$inferSelect;

/** The region a venue's address names: its state or province (JSON-LD, iCalendar). */
export const venueRegion = (row: Pick<VenueRow, "stateprovince" | "state" | "province">) =>
  row.stateprovince || row.state || row.province;
