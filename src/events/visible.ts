/**
 * An event as the viewer may see it (tec-reference §4.7; contract §4 row 18): the one step between
 * loading an event and rendering it — its JSON (src/events/serialize.ts), its JSON-LD
 * (src/events/json-ld.ts) and its VEVENT (src/ical/vevent.ts) — so that no renderer sees a value
 * password protection hides. What is blanked, and what it shows instead, comes from the contracts
 * (src/events/contract.ts, src/linked-posts/venue.ts, src/linked-posts/organizer.ts).
 */
import { blankedNames } from "../http/contract";
import { hider, OPEN } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import { visibleLinked } from "../linked-posts/access";
import type { OrganizerRow, VenueRow } from "../linked-posts/record";
import { EVENT_FIELDS } from "./contract";
import type { EventRecord, VisibleEvent } from "./record";

/** What rendering an event needs to know of the request: `RenderContext`, and its linked posts. */
export interface EventRenderContext extends RenderContext {
  /**
   * Whether this request may see the protected fields of a password-protected venue or organizer
   * embedded in an event (§4.7: its password was sent, or an editor of it asks with `context=edit`),
   * as `visibleEvent` asks. Absent: never — embedded protected posts are blanked, names kept
   * (contract row 18).
   */
  linkedAccess?: (row: VenueRow | OrganizerRow) => boolean;
}

let blanking: { fields: ReadonlySet<string>; hide: (event: VisibleEvent) => VisibleEvent } | null =
  null;

/**
 * The event as the viewer may see it. Its venue and organizers are blanked (names kept) when it is,
 * and otherwise by their own password, unless `ctx.linkedAccess` opens them. A blanked event is a
 * copy whose protected values are emptied (the flag `allDay` kept: the dates stay shown); every one
 * of its blanked fields is sent as its `blank` (events send every key).
 * @param open whether the viewer may open the event itself (list rules of §4.7: its password was
 *   sent, or its editor asks with `context=edit`; single GETs answer 403 before rendering instead).
 * @example serializeEvent(ctx, visibleEvent(ctx, record, protectedAccess(q, record.row, user)))
 */
export function visibleEvent(
  ctx: EventRenderContext,
  record: EventRecord,
  open = true,
): VisibleEvent {
  const linkedOpen = (row: VenueRow | OrganizerRow) =>
    open && (row.passwordDigest === "" || ctx.linkedAccess?.(row) === true);
  const shown: VisibleEvent = {
    ...record,
    venue: record.venue && visibleLinked(ctx, "venue", record.venue, linkedOpen(record.venue.row)),
    organizers: record.organizers.map((o) => visibleLinked(ctx, "organizer", o, linkedOpen(o.row))),
    blanked: OPEN,
  };
  if (open) return shown;
  blanking ??= { fields: blankedNames(EVENT_FIELDS), hide: hider<VisibleEvent>(EVENT_FIELDS) };
  return { ...blanking.hide(shown), blanked: blanking.fields };
}
