/**
 * The event object of tec-reference §4.1: every key always present, in TEC's order, built from the
 * event as the viewer may see it (src/events/visible.ts).
 */
import type { events } from "../db/schema";
import { readMapping } from "../http/contract";
import type { Shown } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import { globalIds, type LinkedPost } from "../linked-posts/post-fields";
import type { OrganizerRow, VenueRow } from "../linked-posts/record";
import { serializeOrganizer, serializeVenue } from "../linked-posts/serialize";
import type { MediaRow } from "../media/serialize";
import { byName, type TermRow } from "../terms/serialize";
import { EVENT_FIELDS, type EventObject, type EventView } from "./contract";
import { formatCost } from "./cost";
import { eventJsonLd } from "./json-ld";

export type EventRow = typeof events.$inferSelect;

/** An event row with everything it links to, as loaded for one page or one GET. */
export interface EventRecord {
  row: EventRow;
  venue: LinkedPost<VenueRow> | null;
  organizers: Array<LinkedPost<OrganizerRow>>;
  terms: TermRow[];
  image: MediaRow | null;
}

/**
 * An event as the viewer may see it (§4.7), what every renderer takes (src/events/visible.ts): its
 * venue and organizers each as the viewer may see them.
 */
export interface VisibleEvent extends Omit<EventRecord, "venue" | "organizers">, Shown {
  venue: (LinkedPost<VenueRow> & Shown) | null;
  organizers: Array<LinkedPost<OrganizerRow> & Shown>;
}

/** The public link of an event: `{site}/event/{slug}/`. */
export const eventUrl = (ctx: RenderContext, slug: string) => `${ctx.urls.site}/event/${slug}/`;

/** The formatted cost of an event (§4.8), using the site's currency where the event has none. */
export function eventCost(ctx: RenderContext, row: EventRow): string {
  return formatCost(row.cost, {
    symbol: row.currencySymbol || ctx.settings.currencySymbol,
    position:
      (row.currencyPosition || ctx.settings.currencyPosition) === "postfix" ? "postfix" : "prefix",
  });
}

/**
 * Serializes an event (§4.1) as the viewer may see it (src/events/visible.ts): every field of its
 * contract (src/events/contract.ts) that is sent, read from the record, blanked fields as their
 * `blank`. `json_ld` is added on single GETs (§4.9).
 * @returns a plain object in TEC's key order.
 */
export function serializeEvent(ctx: RenderContext, record: VisibleEvent): EventObject {
  const { row } = record;
  const url = eventUrl(ctx, row.slug);
  const view: EventView = {
    ctx,
    record,
    row,
    ids: globalIds(ctx, row),
    url,
    cost: eventCost(ctx, row),
    terms: [...record.terms].sort(byName),
    venue: record.venue ? serializeVenue(ctx, record.venue) : [],
    organizers: record.organizers.map((o) => serializeOrganizer(ctx, o)),
  };
  if (ctx.single) view.jsonLd = eventJsonLd(ctx, record);
  return readEvent(view) as EventObject;
}

/** The read mapping of the event's contract: each sent field's `read`, else its column's value. */
const readEvent = readMapping(EVENT_FIELDS, (view: EventView) => view.row, {
  blanked: (view) => view.record.blanked,
});
