/**
 * schema.org JSON-LD for venues (`Place`) and organizers (`Person`), tec-reference §4.9. Texts are plain
 * (tags stripped), empty properties omitted, so the output is valid schema.org.
 */
import type { MediaRow } from "../media/serialize";
import { stripTags } from "../text/html";
import type { OrganizerRow, VenueRow } from "./serialize";

function compact<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== "" && v !== undefined && v !== null)) as T;
}

/** `Place` for a venue. */
export function venueJsonLd(row: VenueRow, image?: MediaRow | null): Record<string, unknown> {
  const address = compact({
    "@type": "PostalAddress",
    streetAddress: row.address,
    addressLocality: row.city,
    addressRegion: row.stateprovince || row.state || row.province,
    postalCode: row.zip,
    addressCountry: row.country,
  });
  return compact({
    "@type": "Place",
    name: row.title,
    description: stripTags(row.content),
    image: image?.sourceUrl,
    url: row.website,
    address: Object.keys(address).length > 1 ? address : undefined,
    geo: row.geoLat !== null && row.geoLng !== null ? { "@type": "GeoCoordinates", latitude: row.geoLat, longitude: row.geoLng } : undefined,
    telephone: row.phone,
    sameAs: row.website,
  });
}

/** `Person` for an organizer, as TEC describes organizers. */
export function organizerJsonLd(row: OrganizerRow, image?: MediaRow | null): Record<string, unknown> {
  return compact({
    "@type": "Person",
    name: row.title,
    description: stripTags(row.content),
    image: image?.sourceUrl,
    url: row.website,
    telephone: row.phone,
    email: row.email,
    sameAs: row.website,
  });
}
