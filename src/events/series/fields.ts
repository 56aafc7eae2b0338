/**
 * Which of an event's fields an override may set itself, and which columns each covers (contract
 * §7.8). An override keeps what it sets when its series changes it; every other field follows the
 * series. The fields of the whole series — status, author, password, slug, post dates,
 * `hide_from_listings`, the lineage and the `recurrence` itself — are the series' alone.
 */
import type { events } from "../../db/schema";
import { DATE_ARG } from "../date-fields";

type Column = keyof typeof events.$inferSelect;

const COST: Column[] = ["cost", "currencySymbol", "currencyPosition", "currencyCode"];
/** The stored dates (one group: an override that moves keeps its dates whatever the series does). */
export const DATE_COLUMNS: Column[] = [
  "startDate",
  "endDate",
  "startDateUtc",
  "endDateUtc",
  "timezone",
  "timezoneAbbr",
  "allDay",
];

/** The fields an override may set, by wire name, with the columns each covers. */
export const OVERRIDABLE: Record<string, Column[]> = {
  title: ["title"],
  description: ["content"],
  excerpt: ["excerpt"],
  image: ["imageId"],
  [DATE_ARG.start]: DATE_COLUMNS,
  [DATE_ARG.end]: DATE_COLUMNS,
  [DATE_ARG.allDay]: DATE_COLUMNS,
  [DATE_ARG.timezone]: DATE_COLUMNS,
  cost: COST,
  currency_symbol: COST,
  currency_position: COST,
  currency_code: COST,
  website: ["website"],
  show_map: ["showMap"],
  show_map_link: ["showMapLink"],
  sticky: ["sticky"],
  featured: ["featured"],
  ticketed: ["ticketed"],
  venue: ["venueId"],
  organizer: [],
  categories: [],
  tags: [],
};

/** The series' own fields: sent with an occurrence's id (scope `this`), a 400 naming them. */
export const SERIES_ONLY = [
  "status",
  "author",
  "password",
  "slug",
  "date",
  "date_utc",
  "hide_from_listings",
  "recurrence",
  "uid",
  "global_id_lineage",
];

/** Columns a series' change sets on all its overrides. */
export const SERIES_WIDE: Column[] = [
  "status",
  "trashMetaStatus",
  "author",
  "passwordDigest",
  "slug",
  "postDate",
  "postDateGmt",
  "hideFromListings",
  "globalIdLineage",
  "postParent",
];

/** The fields of an override's dates: one who sets any keeps its dates when its series moves. */
export const DATE_FIELDS: ReadonlySet<string> = new Set(Object.values(DATE_ARG));

/** Whether an override with `overrides` follows its series' change of `column`. */
export function follows(overrides: readonly string[], column: Column): boolean {
  if (SERIES_WIDE.includes(column)) return true;
  const owners = Object.entries(OVERRIDABLE).filter(([, columns]) => columns.includes(column));
  if (!owners.length) return false;
  return !owners.some(([field]) => overrides.includes(field));
}
