/**
 * Parts of the event payload as `/doc` components (tec-reference §4.1, §4.4 a, §4.6): date details
 * and the terms embedded in an event (the cost details are the event contract's).
 */
import * as v from "valibot";
import { d, digits, int, opt, str } from "./schema-kit";

/** §4.6: the stored `Y-m-d H:i:s` split into zero-padded strings. */
export const DateDetails = v.strictObject({
  year: digits("date_details.year", 4),
  month: digits("date_details.month", 2),
  day: digits("date_details.day", 2),
  hour: digits("date_details.hour", 2),
  minutes: digits("date_details.minutes", 2),
  seconds: digits("date_details.seconds", 2),
});

export const termUrls = d(
  v.strictObject({
    self: str("term.urls_self"),
    collection: str("term.urls_collection"),
    up: opt("term.urls_up"),
  }),
  "term.urls",
);

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
