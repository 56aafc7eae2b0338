/**
 * The event object of tec-reference §4.1: every key always present, in TEC's order, built from the
 * event as the viewer may see it (src/events/visible.ts).
 */
import { readMapping } from "../http/contract";
import type { RenderContext } from "../http/render";
import { globalIds } from "../linked-posts/post-fields";
import { serializeOrganizer, serializeVenue } from "../linked-posts/serialize";
import { byName } from "../terms/serialize";
import { EVENT_FIELDS, type EventObject, type EventView } from "./contract";
import { eventJsonLd } from "./json-ld";
import { eventCost, eventUrl, rowUrl, type VisibleEvent } from "./record";

/**
 * Serializes an event (§4.1) as the viewer may see it (src/events/visible.ts): every field of its
 * contract (src/events/contract.ts) that is sent, read from the record, blanked fields as their
 * `blank`. `json_ld` is added on single GETs (§4.9).
 * @returns a plain object in TEC's key order.
 */
export function serializeEvent(ctx: RenderContext, record: VisibleEvent): EventObject {
  const { row } = record;
  const page = eventUrl(ctx, row.slug);
  const view: EventView = {
    ctx,
    record,
    row,
    ids: globalIds(ctx, row),
    url: row.occurrenceStart === null ? page : rowUrl(ctx, row),
    page,
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
