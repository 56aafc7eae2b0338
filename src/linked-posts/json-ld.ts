/**
 * schema.org JSON-LD for venues (`Place`) and organizers (`Person`), tec-reference §4.9. Texts are plain
 * (tags stripped), empty properties omitted. The objects are typed with Google's schema.org typings
 * (schema-dts), so a property schema.org does not define, or a value of the wrong kind, fails the
 * type check. Standalone objects (a venue's or organizer's own `json_ld`) carry `@context`; the
 * same object nested in an event's `location`/`organizer` does not need it.
 */
import type { Person, Place, PostalAddress } from "schema-dts";
import type { MediaRow } from "../media/serialize";
import { stripTags } from "../text/html";
import { type OrganizerRow, type VenueRow, venueRegion } from "./record";

/** The `@context` TEC writes (schema.org accepts the http and https forms alike). */
export const SCHEMA_CONTEXT = "http://schema.org" as const;

/** A JSON-LD document: a schema.org object with its `@context`. */
export type JsonLdDocument<T, C extends string = typeof SCHEMA_CONTEXT> = Exclude<T, string> & {
  "@context": C;
};

/**
 * A schema.org object as a standalone document: its `@context` first (TEC's, unless another is
 * given: the iCalendar feed writes the https form), then the object.
 * @example jsonLdDocument<Place>(placeOf(row)) // { "@context": "http://schema.org", "@type": "Place", … }
 */
export function jsonLdDocument<T, C extends string = typeof SCHEMA_CONTEXT>(
  object: Exclude<T, string>,
  context: C = SCHEMA_CONTEXT as C,
): JsonLdDocument<T, C> {
  return { "@context": context, ...object } as JsonLdDocument<T, C>;
}

/** The schema.org type a JSON-LD object names (`Place`), if it is an object that names one. */
export const schemaTypeOf = (data: unknown): unknown =>
  data && typeof data === "object" && !Array.isArray(data)
    ? (data as Record<string, unknown>)["@type"]
    : undefined;

function compact<T extends object>(obj: T): T {
  return Object.fromEntries(
    Object.entries(obj).filter(([, v]) => v !== "" && v !== undefined && v !== null),
  ) as T;
}

/**
 * The venue as a schema.org `Place` (no `@context`): name, description, image, url (the venue's
 * website), `PostalAddress` (when it has any part), `GeoCoordinates` (when both are set), telephone,
 * sameAs (the website).
 */
export function placeOf(row: VenueRow, image?: MediaRow | null): Exclude<Place, string> {
  const address: PostalAddress = compact({
    "@type": "PostalAddress",
    streetAddress: row.address,
    addressLocality: row.city,
    addressRegion: venueRegion(row),
    postalCode: row.zip,
    addressCountry: row.country,
  } satisfies PostalAddress);
  return compact({
    "@type": "Place",
    name: row.title,
    description: stripTags(row.content),
    image: image?.sourceUrl,
    url: row.website,
    address: Object.keys(address).length > 1 ? address : undefined,
    geo:
      row.geoLat !== null && row.geoLng !== null
        ? { "@type": "GeoCoordinates", latitude: row.geoLat, longitude: row.geoLng }
        : undefined,
    telephone: row.phone,
    sameAs: row.website,
  } satisfies Place);
}

/** The organizer as a schema.org `Person` (no `@context`), as TEC describes organizers. */
export function personOf(row: OrganizerRow, image?: MediaRow | null): Exclude<Person, string> {
  return compact({
    "@type": "Person",
    name: row.title,
    description: stripTags(row.content),
    image: image?.sourceUrl,
    url: row.website,
    telephone: row.phone,
    email: row.email,
    sameAs: row.website,
  } satisfies Person);
}

/**
 * A venue's `json_ld` (§4.9): a standalone `Place` document.
 * @example venueJsonLd(row) // { "@context": "http://schema.org", "@type": "Place", name: "Blue Room", address: {...} }
 */
export function venueJsonLd(row: VenueRow, image?: MediaRow | null): JsonLdDocument<Place> {
  return jsonLdDocument<Place>(placeOf(row, image));
}

/**
 * An organizer's `json_ld` (§4.9): a standalone `Person` document.
 * @example organizerJsonLd(row) // { "@context": "http://schema.org", "@type": "Person", name: "Springfield Arts", email: "…" }
 */
export function organizerJsonLd(
  row: OrganizerRow,
  image?: MediaRow | null,
): JsonLdDocument<Person> {
  return jsonLdDocument<Person>(personOf(row, image));
}
