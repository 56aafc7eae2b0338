/**
 * An event as storage gives it, as loaded with what it links to, and as the viewer may see it
 * (§4.7); and what every renderer — its JSON (src/events/serialize.ts), JSON-LD (json-ld.ts) and
 * VEVENT (src/ical/vevent.ts) — works out from it the same way: its public link and its cost. Below
 * the contract and the renderers, so that they share these without a circle.
 */
import type { events } from "../db/schema";
import type { Shown } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import type { LinkedPost } from "../linked-posts/post-fields";
import type { OrganizerRow, VenueRow } from "../linked-posts/record";
import type { MediaRow } from "../media/serialize";
import type { TermRow } from "../terms/serialize";
import { formatCost } from "./cost";

/**
 * One override of a series as its series' row carries it (src/events/load.ts `EVENT_COLUMNS`), for
 * JSON-LD's `exceptDate` (contract §7.8): its original start (RFC 5545 `RECURRENCE-ID`,
 * series-local wall clock), its own start (local, in its own zone), that start's UTC instant, and
 * whether it is all-day.
 */
export type OverrideStart = [original: string, start: string, startUtc: string, allDay: boolean];

/**
 * An event row as readers load it: the table's columns, and on a series the overrides whose start
 * may differ from their original one (`overrideStarts`: those whose local start, zone or all-day
 * flag differs from their series'; undefined where a row was not read that way, null or empty when
 * there is none).
 */
export type EventRow = typeof events.$inferSelect & { overrideStarts?: OverrideStart[] | null };

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

/** The public link of an event: `{site}/event/{slug}/` (a recurring series' page). */
export const eventUrl = (ctx: RenderContext, slug: string) => `${ctx.urls.site}/event/${slug}/`;

/** UID of an event: the stored one (kept from imports), else `{id}@{host of the site}`. */
export function eventUid(ctx: RenderContext, row: Pick<EventRow, "uid" | "id">): string {
  return row.uid ?? `${row.id}@${ctx.urls.siteHost}`;
}

/**
 * The public link of the event a row shows: `{site}/event/{slug}/`, or for an occurrence of a
 * recurring series (contract §7.8) `{site}/event/{slug}/{Y-m-d}/`, the day of its original start.
 */
export const rowUrl = (
  ctx: RenderContext,
  row: Pick<EventRow, "slug" | "occurrenceStart">,
): string =>
  row.occurrenceStart === null
    ? eventUrl(ctx, row.slug)
    : `${eventUrl(ctx, row.slug)}${row.occurrenceStart.split(" ")[0]}/`;

/** The formatted cost of an event (§4.8), using the site's currency where the event has none. */
export function eventCost(ctx: RenderContext, row: EventRow): string {
  return formatCost(row.cost, {
    symbol: row.currencySymbol || ctx.settings.currencySymbol,
    position:
      (row.currencyPosition || ctx.settings.currencyPosition) === "postfix" ? "postfix" : "prefix",
  });
}
