/**
 * The payloads, as valibot schemas: the `components.schemas` of `/doc` (tec-reference §11.2,
 * contract §4 row 20). Written from the serializers (src/events/serialize.ts,
 * src/linked-posts/serialize.ts, src/terms/serialize.ts, src/media/serialize.ts) and the password
 * blanking of §4.7 (src/http/password-protection.ts), and checked against real responses by
 * test/root/doc.happy.test.ts and test/root/doc-conformance.test.ts (every route, every object closed):
 * strings where strings are sent (`author`, date details, cost values),
 * objects where objects are sent, `venue` an object or `[]`, venue and organizer keys optional where
 * empty values are dropped (§4.2, §4.3), flags nullable where blanking nulls them. Objects are
 * strict, so a key added to a serializer without a line here fails that test.
 *
 * The schema.org documents (`json_ld`) are in src/root/json-ld-schemas.ts, the `wp/v2` payloads
 * (media, users, application passwords) in src/root/wp-schemas.ts. Descriptions are strings keys under
 * `doc.schemas.` (rendered per language by src/root/openapi.ts).
 */
import * as v from "valibot";
import { Organizer } from "../linked-posts/organizer";
import { Venue } from "../linked-posts/venue";
import {
  EventJsonLd,
  JsonLdOffer,
  JsonLdPerson,
  JsonLdPlace,
  JsonLdPostalAddress,
  OrganizerJsonLd,
  VenueJsonLd,
} from "./json-ld-schemas";
import {
  archive,
  d,
  deleted,
  digits,
  emptyList,
  flag,
  Image,
  image,
  int,
  opt,
  ref,
  str,
} from "./schema-kit";
import { WEBHOOK_COMPONENTS } from "./webhook-schemas";
import { ApplicationPassword, Media, NewApplicationPassword, User } from "./wp-schemas";

/** §4.6: the stored `Y-m-d H:i:s` split into zero-padded strings. */
export const DateDetails = v.strictObject({
  year: digits("date_details.year", 4),
  month: digits("date_details.month", 2),
  day: digits("date_details.day", 2),
  hour: digits("date_details.hour", 2),
  minutes: digits("date_details.minutes", 2),
  seconds: digits("date_details.seconds", 2),
});

/** §4.1 `cost_details`, §4.8 `values` (numbers as strings, words as their key). */
export const CostDetails = v.strictObject({
  currency_symbol: str("cost_details.currency_symbol"),
  currency_code: str("cost_details.currency_code"),
  currency_position: d(v.picklist(["prefix", "postfix", ""]), "cost_details.currency_position"),
  values: d(v.array(v.string()), "cost_details.values"),
});

const termUrls = d(
  v.strictObject({
    self: str("term.urls_self"),
    collection: str("term.urls_collection"),
    up: opt("term.urls_up"),
  }),
  "term.urls",
);

/** A WordPress `_links` entry of a single term. */
const Link = v.strictObject({
  href: str("link.href"),
  targetHints: v.optional(d(v.strictObject({ allow: v.array(v.string()) }), "link.targetHints")),
  embeddable: v.optional(d(v.boolean(), "link.embeddable")),
  name: v.optional(str("link.name")),
  templated: v.optional(d(v.boolean(), "link.templated")),
});

/** §4.4 (b, c): archive items and single terms; single GET/POST/PUT answers add WordPress `_links`. */
export const Term = v.strictObject({
  id: int("term.id"),
  count: int("term.count"),
  description: str("term.description"),
  name: str("term.name"),
  slug: str("term.slug"),
  taxonomy: d(v.picklist(["tribe_events_cat", "post_tag"]), "term.taxonomy"),
  parent: v.optional(int("term.parent")),
  meta: d(emptyList, "term.meta"),
  url: str("term.url"),
  urls: termUrls,
  _links: v.optional(d(v.record(v.string(), v.array(Link)), "term.links")),
});

/** §4.4 (a): a term embedded in an event. */
export const EventTerm = v.strictObject({
  name: str("term.name"),
  slug: str("term.slug"),
  term_group: int("term.term_group"),
  term_taxonomy_id: int("term.term_taxonomy_id"),
  taxonomy: d(v.picklist(["tribe_events_cat", "post_tag"]), "term.taxonomy"),
  description: str("term.description"),
  parent: int("term.parent"),
  count: int("term.count"),
  filter: str("term.filter"),
  id: int("term.id"),
  urls: termUrls,
});

/** §4.1: every key always present. */
export const Event = v.strictObject({
  id: int("event.id"),
  global_id: str("event.global_id"),
  global_id_lineage: d(v.array(v.string()), "event.global_id_lineage"),
  author: d(v.pipe(v.string(), v.regex(/^\d+$/)), "event.author"),
  status: str("event.status"),
  date: str("event.date"),
  date_utc: str("event.date_utc"),
  modified: str("event.modified"),
  modified_utc: str("event.modified_utc"),
  url: str("event.url"),
  rest_url: str("event.rest_url"),
  title: str("event.title"),
  description: str("event.description"),
  excerpt: str("event.excerpt"),
  slug: str("event.slug"),
  image: image("event.image"),
  all_day: flag("event.all_day"),
  start_date: str("event.start_date"),
  start_date_details: ref(DateDetails, "event.start_date_details"),
  end_date: str("event.end_date"),
  end_date_details: ref(DateDetails, "event.end_date_details"),
  utc_start_date: str("event.utc_start_date"),
  utc_start_date_details: ref(DateDetails, "event.utc_start_date_details"),
  utc_end_date: str("event.utc_end_date"),
  utc_end_date_details: ref(DateDetails, "event.utc_end_date_details"),
  timezone: str("event.timezone"),
  timezone_abbr: str("event.timezone_abbr"),
  cost: str("event.cost"),
  cost_details: ref(CostDetails, "event.cost_details"),
  website: str("event.website"),
  show_map: flag("event.show_map"),
  show_map_link: flag("event.show_map_link"),
  hide_from_listings: flag("event.hide_from_listings"),
  sticky: flag("event.sticky"),
  featured: flag("event.featured"),
  categories: d(v.array(EventTerm), "event.categories"),
  tags: d(v.array(EventTerm), "event.tags"),
  venue: d(v.union([Venue, emptyList]), "event.venue"),
  organizer: d(v.array(Organizer), "event.organizer"),
  custom_fields: d(emptyList, "event.custom_fields"),
  json_ld: v.optional(ref(EventJsonLd, "event.json_ld")),
});

/** One entry of `data.details` of `rest_invalid_param` (§10.2). */
const ErrorDetail = v.strictObject({
  code: str("error.code"),
  message: str("error.message"),
  data: v.strictObject({ status: int("error.status") }),
});

/** `GET /deleted`: one deletion. */
const Deletion = v.strictObject({
  id: int("deletion.id"),
  type: d(v.picklist(["event", "venue", "organizer", "category", "tag"]), "deletion.type"),
  status: d(v.picklist(["deleted", "trash"]), "deletion.status"),
  deleted_utc: str("deletion.deleted_utc"),
});

/** The WordPress error envelope (§10.1); `data` carries `params`, `details` and the like per code. */
const ErrorBody = v.strictObject({
  code: str("error.code"),
  message: str("error.message"),
  data: d(
    v.strictObject({
      status: int("error.status"),
      params: v.optional(
        d(v.union([v.record(v.string(), v.string()), v.array(v.string())]), "error.params"),
      ),
      details: v.optional(
        d(v.union([v.record(v.string(), ErrorDetail), emptyList]), "error.details"),
      ),
      json_error_code: v.optional(int("error.json_error_code")),
      json_error_message: v.optional(str("error.json_error_message")),
      retry_after: v.optional(int("error.retry_after")),
      term_id: v.optional(int("error.term_id")),
    }),
    "error.data",
  ),
});

/** Every component of `/doc`, by name (the names `$ref`s and route declarations use). */
export const COMPONENTS = {
  Event,
  Venue,
  Organizer,
  Term,
  EventTerm,
  Image,
  DateDetails,
  CostDetails,
  EventArchive: archive("events", Event),
  VenueArchive: archive("venues", Venue),
  OrganizerArchive: archive("organizers", Organizer),
  CategoryArchive: archive("categories", Term),
  TagArchive: archive("tags", Term),
  DeletedEvent: deleted(Event, "event"),
  DeletedVenue: deleted(Venue, "venue"),
  DeletedOrganizer: deleted(Organizer, "organizer"),
  ...WEBHOOK_COMPONENTS,
  DeletionArchive: archive("deleted", Deletion),
  EventJsonLd,
  VenueJsonLd,
  OrganizerJsonLd,
  JsonLdPlace,
  JsonLdPerson,
  JsonLdPostalAddress,
  JsonLdOffer,
  Media,
  User,
  DeletedUser: deleted(User, "user"),
  ApplicationPassword,
  NewApplicationPassword,
  DeletedApplicationPassword: deleted(ApplicationPassword, "application_password"),
  Error: ErrorBody,
};

export type ComponentName = keyof typeof COMPONENTS;
