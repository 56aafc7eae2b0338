/**
 * The event object of tec-reference §4.1: every key always present, in TEC's order.
 */
import type { events } from "../db/schema";
import { readMapping } from "../http/contract";
import { blankProtected } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import { globalIds } from "../linked-posts/post-fields";
import {
  type OrganizerRow,
  serializeOrganizer,
  serializeVenue,
  type VenueRow,
} from "../linked-posts/serialize";
import type { MediaRow } from "../media/serialize";
import { byName, type TermRow } from "../terms/serialize";
import { EVENT_FIELDS, type EventObject, type EventView } from "./contract";
import { formatCost } from "./cost";
import { eventJsonLd } from "./json-ld";

export type EventRow = typeof events.$inferSelect;

/** An event row with everything it links to, as loaded for one page or one GET. */
export interface EventRecord {
  row: EventRow;
  venue: { row: VenueRow; image: MediaRow | null } | null;
  organizers: Array<{ row: OrganizerRow; image: MediaRow | null }>;
  terms: TermRow[];
  image: MediaRow | null;
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

function embedded<T extends Record<string, unknown>>(
  ctx: RenderContext,
  kind: "venue" | "organizer",
  body: T,
  row: VenueRow | OrganizerRow,
): T {
  return linkedOpen(ctx, row) ? body : blankProtected(body, [kind]);
}

/** Whether the request may see an embedded venue's or organizer's protected fields (§4.7). */
const linkedOpen = (ctx: RenderContext, row: VenueRow | OrganizerRow) =>
  row.passwordDigest === "" || (ctx.linkedAccess?.(row) ?? false);

/**
 * The record as this request may see its links: password-protected venues and organizers it may not
 * open are left out (for JSON-LD, which would otherwise print their address, phone and e-mail).
 */
function openLinks(ctx: RenderContext, record: EventRecord): EventRecord {
  return {
    ...record,
    venue: record.venue && linkedOpen(ctx, record.venue.row) ? record.venue : null,
    organizers: record.organizers.filter((o) => linkedOpen(ctx, o.row)),
  };
}

/**
 * Serializes an event (§4.1): every field of its contract (src/events/contract.ts) that is sent,
 * read from the record. `json_ld` is added on single GETs (§4.9). Embedded venues and organizers
 * follow their own password rules (§4.7): protected fields blanked, names kept.
 * @returns a plain object in TEC's key order.
 */
export function serializeEvent(ctx: RenderContext, record: EventRecord): EventObject {
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
    venue: record.venue
      ? embedded(ctx, "venue", serializeVenue(ctx, record.venue), record.venue.row)
      : [],
    organizers: record.organizers.map((o) =>
      embedded(ctx, "organizer", serializeOrganizer(ctx, o), o.row),
    ),
  };
  if (ctx.single) view.jsonLd = eventJsonLd(ctx, openLinks(ctx, record));
  return readEvent(view) as EventObject;
}

/** The read mapping of the event's contract: each sent field's `read`, else its column's value. */
const readEvent = readMapping(EVENT_FIELDS, (view: EventView) => view.row);
