/**
 * schema.org `Event` JSON-LD for single event GETs (tec-reference §4.9, contract §7), typed with Google's
 * schema.org typings (schema-dts) so that only schema.org properties and value kinds compile:
 * ISO 8601 dates with the event's offset (all-day events as dates), `location` (Place), `organizer`
 * (the first organizer, as TEC), `offers` when there is a cost, and for a recurring series its
 * `eventSchedule` (src/events/series/schedule.ts). Texts are plain.
 *
 * Deliberate differences from TEC's output: `availability` is the schema.org URL (TEC writes the
 * invalid `inStock`), `price` is the lowest number of the cost (`Free` → `0`), and TEC's meaningless
 * `performer: "Organization"` (a text naming no performer) is left out.
 */
import { DateTime } from "luxon";
import type { Event, Offer } from "schema-dts";
import type { RenderContext } from "../http/render";
import { type JsonLdDocument, jsonLdDocument, personOf, placeOf } from "../linked-posts/json-ld";
import { described } from "../linked-posts/post-fields";
import { stripTags } from "../text/html";
import { resolveZone } from "../time/zone";
import { costValues } from "./cost";
import { eventCost, rowUrl, type VisibleEvent } from "./record";
import { eventSchedule } from "./series/schedule";

/** ISO 8601 with offset of a stored event time: the UTC instant shown in the event's zone. */
function isoIn(local: string, utc: string, zoneName: string): string {
  const zone = resolveZone(zoneName);
  const instant = DateTime.fromFormat(utc, "yyyy-MM-dd HH:mm:ss", { zone: "utc" });
  if (!instant.isValid) return local.replace(" ", "T");
  return (zone ? instant.setZone(zone) : instant).toISO({ suppressMilliseconds: true }) ?? local;
}

/**
 * Whether `isoIn` writes the times of this zone in UTC with `Z` (an unknown zone, or one fixed at
 * UTC) rather than as local time with an offset (src/events/rendering/format.ts fills occurrences' dates
 * in the same form).
 */
export function isoInUtc(zoneName: string): boolean {
  const zone = resolveZone(zoneName);
  return !zone || (zone.isUniversal && zone.offset(0) === 0);
}

/** The lowest numeric cost value (`"0"` for Free), or undefined when the cost has no number. */
function lowestPrice(cost: string[]): string | undefined {
  const values = costValues(cost);
  if (values.includes("free")) return "0";
  const numbers = values.filter((v) => /^\d/.test(v)).sort((a, b) => Number(a) - Number(b));
  return numbers[0];
}

/**
 * The `Event` document of an event as the viewer may see it (src/events/visible.ts): its venue and
 * first organizer only when described (not blanked by password protection, §4.7).
 * @example eventJsonLd(ctx, record) // { "@context": "http://schema.org", "@type": "Event", name, startDate: "2026-12-05T19:00:00-05:00", location: {...}, offers: {...} }
 */
export function eventJsonLd(ctx: RenderContext, record: VisibleEvent): JsonLdDocument<Event> {
  const { row } = record;
  const venue = record.venue && described(record.venue) ? record.venue : null;
  const organizer = record.organizers.find(described);
  const url = rowUrl(ctx, row);
  const cost = eventCost(ctx, row);
  const description = stripTags(row.excerpt || row.content);
  const ld: Exclude<Event, string> = {
    "@type": "Event",
    name: row.title,
    ...(description !== "" ? { description } : {}),
    ...(record.image ? { image: record.image.sourceUrl } : {}),
    url,
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    eventStatus: "https://schema.org/EventScheduled",
    startDate: row.allDay
      ? row.startDate.slice(0, 10)
      : isoIn(row.startDate, row.startDateUtc, row.timezone),
    endDate: row.allDay
      ? row.endDate.slice(0, 10)
      : isoIn(row.endDate, row.endDateUtc, row.timezone),
    ...(venue ? { location: placeOf(venue.row, venue.image) } : {}),
    ...(organizer ? { organizer: personOf(organizer.row, organizer.image) } : {}),
  };
  // A recurring series (contract §7.8): its rule, where schema.org can say it.
  const schedule = eventSchedule(row);
  if (cost !== "") {
    const offer: Offer = {
      "@type": "Offer",
      ...(lowestPrice(row.cost) !== undefined ? { price: lowestPrice(row.cost) } : {}),
      priceCurrency: row.currencyCode || ctx.settings.currencyCode,
      url,
      category: "primary",
      availability: "https://schema.org/InStock",
      validFrom:
        DateTime.fromFormat(row.postDateGmt, "yyyy-MM-dd HH:mm:ss", { zone: "utc" }).toISO({
          suppressMilliseconds: true,
        }) ?? undefined,
    };
    ld.offers = offer;
  }
  if (schedule) ld.eventSchedule = { "@type": "Schedule", ...schedule };
  return jsonLdDocument<Event>(ld);
}
