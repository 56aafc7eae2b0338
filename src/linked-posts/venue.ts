/**
 * The venue's contract (tec-reference §4.2, §2.6, §8.6; contract §4 rows 12, 16, 18): every wire
 * field once — what is sent and how it is read, the argument that writes it, its column, what
 * password protection shows instead — and what is derived from it: `VENUE_ARGS` (`POST /venues`,
 * venue objects inside events), the `/doc` component `Venue`, and the venue object itself
 * (`serializeVenue`, typed by that component). `stateprovince` is derived from the address when
 * not sent.
 */
import * as v from "valibot";
import { arg } from "../http/args";
import { argSpecs, readMapping, type WireField, wireSchema } from "../http/contract";
import { VenueJsonLd } from "../http/json-ld-schemas";
import type { Shown } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import { d } from "../http/schema-kit";
import { coordinate } from "./fields";
import { venueJsonLd } from "./json-ld";
import {
  globalIdFields,
  jsonLdField,
  type LinkedPost,
  type LinkedView,
  linkedView,
  MAP_FLAG_ARGS,
  mapFlagFields,
  postArgs,
  postFields,
  textField,
  urlField,
} from "./post-fields";
import type { VenueRow } from "./record";

/** What the venue's fields read. */
type VenueView = LinkedView<VenueRow>;

/** A coordinate, sent when both are set (and not 0). */
const geoField = (field: "geo_lat" | "geo_lng", column: "geoLat" | "geoLng", max: number) =>
  ({
    out: v.optional(d(v.number(), `venue.${field}`)),
    read: (r: VenueView) => (r.row.geoLat && r.row.geoLng ? r.row[column] : undefined),
    arg: arg({ schema: coordinate(max), type: "number", description: `venues.${field}` }),
    column,
    blank: 0,
  }) satisfies WireField<VenueView>;

/** The venue's wire fields, in the order they are sent (§4.2). */
export const VENUE_FIELDS = {
  ...postFields("venue"),
  address: textField("venue", "address", "address"),
  city: textField("venue", "city", "city"),
  country: textField("venue", "country", "country"),
  province: textField("venue", "province", "province"),
  // TEC leaves the state of a protected venue visible (§4.7).
  state: { ...textField("venue", "state", "state"), blank: undefined },
  zip: textField("venue", "zip", "zip"),
  phone: textField("venue", "phone", "phone"),
  website: urlField("venue", "website", "website"),
  stateprovince: textField("venue", "stateprovince", "stateprovince"),
  geo_lat: geoField("geo_lat", "geoLat", 90),
  geo_lng: geoField("geo_lng", "geoLng", 180),
  ...jsonLdField(VenueJsonLd, "venue", (r: VenueView) =>
    r.ctx.single ? venueJsonLd(r.row, r.image) : undefined,
  ),
  ...mapFlagFields("venue", "venues"),
  ...globalIdFields("venue", "venues"),
} satisfies Record<string, WireField<VenueView, LinkedPost>>;

/** `POST /venues` arguments (§2.6, TEC's order), `venue` required. */
export const VENUE_ARGS = argSpecs(VENUE_FIELDS, [
  ...postArgs("venue"),
  ...MAP_FLAG_ARGS,
  "address",
  "city",
  "country",
  "province",
  "state",
  "zip",
  "phone",
  "stateprovince",
  "website",
  "image",
  "geo_lat",
  "geo_lng",
]);

/**
 * The columns `search` looks in (tec-reference §7.1), which are also those of the FTS5 table
 * `venues_fts` (drizzle/0002_linked_posts_search.sql).
 */
export const VENUE_SEARCH_COLUMNS = [
  "title",
  "content",
  "excerpt",
  "address",
  "city",
  "province",
  "state",
  "stateprovince",
  "zip",
  "phone",
] as const;

/** §4.2 (`show_map` is `null` only on blanked password-protected venues; their name stays, contract §4 row 18). */
export const Venue = wireSchema(VENUE_FIELDS);

/** The venue object as sent. */
export type VenueObject = v.InferOutput<typeof Venue>;

/**
 * The venue object (§4.2) as the viewer may see it (src/linked-posts/access.ts): TEC's key order,
 * empty values dropped (quirk 17) but the id, the map flags and the global ids; blanked fields as
 * their contract's `blank`. `json_ld` only when `ctx.single`.
 */
export function serializeVenue(
  ctx: RenderContext,
  venue: LinkedPost<VenueRow> & Shown,
): VenueObject {
  return readVenue(linkedView(ctx, venue)) as VenueObject;
}

const readVenue = readMapping(VENUE_FIELDS, (r: VenueView) => r.row, {
  dropEmpty: true,
  blanked: (r) => r.blanked,
});

/**
 * The coordinates an update removes: those named with a JSON null (which never reach `sent`, which
 * holds non-null values), as columns set to null.
 * @param named whether the request names a field at all.
 */
export function clearedCoordinates(
  named: (field: string) => boolean,
  sent: Set<string>,
): Partial<Record<"geoLat" | "geoLng", null>> {
  const out: Partial<Record<"geoLat" | "geoLng", null>> = {};
  for (const field of ["geo_lat", "geo_lng"] as const)
    if (named(field) && !sent.has(field)) out[VENUE_FIELDS[field].column] = null;
  return out;
}

/** The fields whose change re-derives `stateprovince`. */
const REGION = ["country", "state", "province", "stateprovince"] as const;

/**
 * Venue `stateprovince` when not supplied (§8.6): the state for the US (or no country), else the
 * province.
 */
export function deriveStateProvince(fields: {
  country?: string;
  state?: string;
  province?: string;
}): string {
  const country = (fields.country ?? "").trim();
  if (country === "" || country === "US" || country === "United States") return fields.state ?? "";
  return fields.province || "";
}

type RegionFields = Partial<Record<(typeof REGION)[number], string>>;

/** The `stateprovince` column of a venue insert, when the client did not send a value. */
export function insertedStateProvince(
  f: RegionFields,
  sent: Set<string>,
): { stateprovince?: string } {
  if (sent.has("stateprovince") && f.stateprovince) return {};
  return { stateprovince: deriveStateProvince(f) };
}

/**
 * The `stateprovince` column on update (§8.6): a non-empty value sent is kept; otherwise, when the
 * address region changes (country, state, province or an empty `stateprovince` sent), it is derived
 * again from the address as it will be.
 */
export function updatedStateProvince(
  existing: VenueRow,
  f: RegionFields,
  sent: Set<string>,
): { stateprovince?: string } {
  if (sent.has("stateprovince") && f.stateprovince) return {};
  if (!REGION.some((k) => sent.has(k))) return {};
  const pick = (k: "country" | "state" | "province") => (sent.has(k) ? (f[k] ?? "") : existing[k]);
  return {
    stateprovince: deriveStateProvince({
      country: pick("country"),
      state: pick("state"),
      province: pick("province"),
    }),
  };
}
