/**
 * The event object of tec-reference §4.1: every key always present, in TEC's order.
 */
import type { events } from "../db/schema";
import { blankProtected } from "../http/password-protection";
import { globalId, type RenderContext } from "../http/render";
import {
  type OrganizerRow,
  serializeOrganizer,
  serializeVenue,
  type VenueRow,
} from "../linked-posts/serialize";
import { imageObject, type MediaRow } from "../media/serialize";
import { byName, embeddedTerm, type TermRow } from "../terms/serialize";
import { autop } from "../text/html";
import { dateDetails } from "../time/format";
import { costValues, formatCost } from "./cost";
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
 * Serializes an event (§4.1). `json_ld` is added on single GETs (§4.9). Embedded venues and
 * organizers follow their own password rules (§4.7): protected fields blanked, names kept.
 * @returns a plain object in TEC's key order.
 */
export function serializeEvent(ctx: RenderContext, record: EventRecord) {
  const { row } = record;
  const id = globalId(ctx, row.id);
  const url = eventUrl(ctx, row.slug);
  const terms = [...record.terms].sort(byName);
  const venue = record.venue
    ? embedded(
        ctx,
        "venue",
        serializeVenue(ctx, record.venue.row, record.venue.image),
        record.venue.row,
      )
    : [];
  const body: Record<string, unknown> = {
    id: row.id,
    global_id: id,
    global_id_lineage: [id, ...row.globalIdLineage],
    author: row.author === null ? "0" : String(row.author),
    status: row.status,
    date: row.postDate,
    date_utc: row.postDateGmt,
    modified: row.postModified,
    modified_utc: row.postModifiedGmt,
    url,
    rest_url: `${ctx.urls.namespaceRoot}events/${row.id}`,
    title: row.title,
    description: autop(row.content),
    excerpt: autop(row.excerpt),
    slug: row.slug,
    image: imageObject(record.image),
    all_day: row.allDay,
    start_date: row.startDate,
    start_date_details: dateDetails(row.startDate),
    end_date: row.endDate,
    end_date_details: dateDetails(row.endDate),
    utc_start_date: row.startDateUtc,
    utc_start_date_details: dateDetails(row.startDateUtc),
    utc_end_date: row.endDateUtc,
    utc_end_date_details: dateDetails(row.endDateUtc),
    timezone: row.timezone,
    timezone_abbr: row.timezoneAbbr,
    cost: eventCost(ctx, row),
    cost_details: {
      currency_symbol: row.currencySymbol,
      currency_code: row.currencyCode,
      currency_position: row.currencyPosition,
      values: costValues(row.cost),
    },
    website: row.website ?? url,
    show_map: row.showMap,
    show_map_link: row.showMapLink,
    hide_from_listings: row.hideFromListings,
    sticky: row.sticky,
    featured: row.featured,
    categories: terms
      .filter((t) => t.taxonomy === "tribe_events_cat")
      .map((t) => embeddedTerm(ctx, t)),
    tags: terms.filter((t) => t.taxonomy === "post_tag").map((t) => embeddedTerm(ctx, t)),
    venue,
    organizer: record.organizers.map((o) =>
      embedded(ctx, "organizer", serializeOrganizer(ctx, o.row, o.image), o.row),
    ),
    custom_fields: [],
  };
  if (ctx.single) body.json_ld = eventJsonLd(ctx, openLinks(ctx, record));
  return body;
}
