/**
 * schema.org `Event` JSON-LD for single event GETs (tec-reference §4.9): ISO 8601 dates with the
 * event's offset, `location` (Place), `organizer`, `offers` when there is a cost. Texts are plain.
 */
import { DateTime } from "luxon";
import type { RenderContext } from "../http/render";
import { organizerJsonLd, venueJsonLd } from "../linked-posts/json-ld";
import { stripTags } from "../text/html";
import { resolveZone } from "../time/zone";
import { costValues } from "./cost";
import { eventCost, eventUrl, type EventRecord } from "./serialize";

function isoIn(local: string, utc: string, zoneName: string): string {
  const zone = resolveZone(zoneName);
  const instant = DateTime.fromFormat(utc, "yyyy-MM-dd HH:mm:ss", { zone: "utc" });
  if (!instant.isValid) return local.replace(" ", "T");
  return (zone ? instant.setZone(zone) : instant).toISO({ suppressMilliseconds: true }) ?? local;
}

/** The `Event` object. */
export function eventJsonLd(ctx: RenderContext, record: EventRecord): Record<string, unknown> {
  const { row } = record;
  const url = eventUrl(ctx, row.slug);
  const cost = eventCost(ctx, row);
  const numeric = costValues(row.cost).filter((v) => /^\d/.test(v));
  const ld: Record<string, unknown> = {
    "@context": "http://schema.org",
    "@type": "Event",
    name: row.title,
    description: stripTags(row.excerpt || row.content),
  };
  if (record.image) ld.image = record.image.sourceUrl;
  ld.url = url;
  ld.eventAttendanceMode = "https://schema.org/OfflineEventAttendanceMode";
  ld.eventStatus = "https://schema.org/EventScheduled";
  ld.startDate = row.allDay ? row.startDate.slice(0, 10) : isoIn(row.startDate, row.startDateUtc, row.timezone);
  ld.endDate = row.allDay ? row.endDate.slice(0, 10) : isoIn(row.endDate, row.endDateUtc, row.timezone);
  if (record.venue) ld.location = venueJsonLd(record.venue.row, record.venue.image);
  if (record.organizers[0]) ld.organizer = organizerJsonLd(record.organizers[0].row, record.organizers[0].image);
  if (cost !== "") {
    ld.offers = {
      "@type": "Offer",
      price: numeric[0] ?? "0",
      priceCurrency: row.currencyCode || ctx.settings.currencyCode,
      url,
      category: "primary",
      availability: "https://schema.org/InStock",
      validFrom: DateTime.fromFormat(row.postDateGmt, "yyyy-MM-dd HH:mm:ss", { zone: "utc" }).toISO({ suppressMilliseconds: true }),
    };
  }
  ld.performer = "Organization";
  return ld;
}
