/**
 * The schema.org JSON-LD documents of single GETs (tec-reference §4.9) as `/doc` describes them:
 * exactly the properties src/events/json-ld.ts and src/linked-posts/json-ld.ts write (empty ones
 * left out), so a property added there without a line here fails test/root/doc-conformance.test.ts.
 */
import * as v from "valibot";
import { d, opt, str } from "./schema-kit";

const type = <T extends string>(name: T) => d(v.literal(name), "json_ld.type");
const context = d(v.literal("http://schema.org"), "json_ld.context");
const number = (key: string) => d(v.number(), `json_ld.${key}`);

/** `PostalAddress` of a place: the parts the venue has. */
export const JsonLdPostalAddress = v.strictObject({
  "@type": type("PostalAddress"),
  streetAddress: opt("json_ld.streetAddress"),
  addressLocality: opt("json_ld.addressLocality"),
  addressRegion: opt("json_ld.addressRegion"),
  postalCode: opt("json_ld.postalCode"),
  addressCountry: opt("json_ld.addressCountry"),
});

const place = {
  "@type": type("Place"),
  name: opt("json_ld.name"),
  description: opt("json_ld.description"),
  image: opt("json_ld.image"),
  url: opt("json_ld.url"),
  address: v.optional(JsonLdPostalAddress),
  geo: v.optional(
    d(
      v.strictObject({
        "@type": type("GeoCoordinates"),
        latitude: number("latitude"),
        longitude: number("longitude"),
      }),
      "json_ld.geo",
    ),
  ),
  telephone: opt("json_ld.telephone"),
  sameAs: opt("json_ld.sameAs"),
};

const person = {
  "@type": type("Person"),
  name: opt("json_ld.name"),
  description: opt("json_ld.description"),
  image: opt("json_ld.image"),
  url: opt("json_ld.url"),
  telephone: opt("json_ld.telephone"),
  email: opt("json_ld.email"),
  sameAs: opt("json_ld.sameAs"),
};

/** A venue as a schema.org `Place`, inside an event's document. */
export const JsonLdPlace = v.strictObject(place);
/** An organizer as a schema.org `Person`, inside an event's document. */
export const JsonLdPerson = v.strictObject(person);

/** A venue's own `json_ld`. */
export const VenueJsonLd = v.strictObject({ "@context": context, ...place });
/** An organizer's own `json_ld`. */
export const OrganizerJsonLd = v.strictObject({ "@context": context, ...person });

/** The `offers` of an event with a cost. */
export const JsonLdOffer = v.strictObject({
  "@type": type("Offer"),
  price: opt("json_ld.price"),
  priceCurrency: str("json_ld.priceCurrency"),
  url: str("json_ld.url"),
  category: str("json_ld.category"),
  availability: str("json_ld.availability"),
  validFrom: opt("json_ld.validFrom"),
});

/** The `eventSchedule` of a recurring series (contract §7.8): a schema.org `Schedule`. */
export const JsonLdSchedule = v.strictObject({
  "@type": type("Schedule"),
  repeatFrequency: str("json_ld.repeatFrequency"),
  byDay: v.optional(d(v.array(v.string()), "json_ld.byDay")),
  byMonthDay: v.optional(d(v.array(v.number()), "json_ld.byMonthDay")),
  byMonth: v.optional(d(v.array(v.number()), "json_ld.byMonth")),
  startDate: str("json_ld.startDate"),
  endDate: opt("json_ld.endDate"),
  repeatCount: v.optional(number("repeatCount")),
  startTime: opt("json_ld.startTime"),
  endTime: opt("json_ld.endTime"),
  duration: opt("json_ld.duration"),
  exceptDate: v.optional(d(v.array(v.string()), "json_ld.exceptDate")),
  scheduleTimezone: str("json_ld.scheduleTimezone"),
});

/** An event's `json_ld`. */
export const EventJsonLd = v.strictObject({
  "@context": context,
  "@type": type("Event"),
  name: str("json_ld.name"),
  description: opt("json_ld.description"),
  image: opt("json_ld.image"),
  url: str("json_ld.url"),
  eventAttendanceMode: str("json_ld.eventAttendanceMode"),
  eventStatus: str("json_ld.eventStatus"),
  startDate: str("json_ld.startDate"),
  endDate: str("json_ld.endDate"),
  location: v.optional(d(v.intersect([JsonLdPlace]), "json_ld.location")),
  organizer: v.optional(d(v.intersect([JsonLdPerson]), "json_ld.organizer")),
  offers: v.optional(d(v.intersect([JsonLdOffer]), "json_ld.offers")),
  eventSchedule: v.optional(d(v.intersect([JsonLdSchedule]), "json_ld.eventSchedule")),
});
