/**
 * Venues and organizers, the two "linked post" types (tec-reference §4.2, §4.3): each kind's object
 * is built by its contract (src/linked-posts/venue.ts, src/linked-posts/organizer.ts) from the post
 * as the viewer may see it (src/linked-posts/access.ts `visibleLinked`).
 */
import type { Shown } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import { type OrganizerObject, serializeOrganizer } from "./organizer";
import type { LinkedPost } from "./post-fields";
import type { OrganizerRow, VenueRow } from "./record";
import { serializeVenue, type VenueObject } from "./venue";

export { serializeOrganizer, serializeVenue };

/** The object of either kind (§4.2 or §4.3). */
export function serializeLinked(
  kind: "venue" | "organizer",
  ctx: RenderContext,
  post: LinkedPost<VenueRow | OrganizerRow> & Shown,
): VenueObject | OrganizerObject {
  return kind === "venue"
    ? serializeVenue(ctx, post as LinkedPost<VenueRow> & Shown)
    : serializeOrganizer(ctx, post as LinkedPost<OrganizerRow> & Shown);
}
