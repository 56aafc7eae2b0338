/**
 * The keys of an event as the API answers it, in TEC's order (tec-reference §4.1): one list for
 * every test that checks the shape of an event.
 */

/** Every key of an event in lists and write answers (§4.1). */
export const EVENT_KEYS = [
  "id",
  "global_id",
  "global_id_lineage",
  "author",
  "status",
  "date",
  "date_utc",
  "modified",
  "modified_utc",
  "url",
  "rest_url",
  "title",
  "description",
  "excerpt",
  "slug",
  "image",
  "all_day",
  "start_date",
  "start_date_details",
  "end_date",
  "end_date_details",
  "utc_start_date",
  "utc_start_date_details",
  "utc_end_date",
  "utc_end_date_details",
  "timezone",
  "timezone_abbr",
  "cost",
  "cost_details",
  "website",
  "show_map",
  "show_map_link",
  "hide_from_listings",
  "sticky",
  "featured",
  "categories",
  "tags",
  "venue",
  "organizer",
  "custom_fields",
];

/** The keys of a single GET of an event: the same, then `json_ld` (single GETs only, §4.9). */
export const SINGLE_EVENT_KEYS = [...EVENT_KEYS, "json_ld"];
