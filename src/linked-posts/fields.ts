/**
 * Writable fields of venues and organizers (tec-reference §2.6, §2.7, §8.6; contract §4 rows 12, 13,
 * 16 and the writable `excerpt`, `geo_lat`, `geo_lng`). One declaration serves `POST /venues`,
 * `POST /organizers` and venue/organizer objects given inside an event (§8.4, §8.5).
 */
import * as v from "valibot";
import type { ArgSpecs } from "../http/args";
import { arg, issue } from "../http/args";
import {
  isEmpty,
  isNumeric,
  listToArray,
  nonEmptyString,
  timeInput,
  wpBoolean,
} from "../http/validators";

/** TEC `is_string_or_empty`: an empty value, or a string (§3). Empty values become `""`. */
export const stringOrEmpty = v.pipe(
  v.unknown(),
  v.check((x) => isEmpty(x) || typeof x === "string", issue("invalid")),
  v.transform((x) => (typeof x === "string" ? x.trim() : "")),
);

/**
 * TEC `is_url_or_empty` (§3), made safe (issue 20): empty, or an absolute `http`/`https` URL with a
 * host. TEC accepts any scheme (`javascript:…`, `data:text/html,…`), which this API would then serve
 * in JSON, `json_ld` (`url`, `sameAs`) and the iCalendar `URL` to clients that link it.
 */
export const urlOrEmpty = v.pipe(
  v.unknown(),
  v.check((x) => isEmpty(x) || (typeof x === "string" && isUrl(x.trim())), issue("invalid")),
  v.transform((x) => (typeof x === "string" ? x.trim() : "")),
);

/** An absolute `http:`/`https:` URL with a host, at most 2,048 characters, without blanks. */
export function isUrl(text: string): boolean {
  if (text.length > 2048 || /\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** Post status name (§3 `is_post_status`). */
export const postStatus = v.pipe(
  v.unknown(),
  v.check(
    (x) =>
      typeof x === "string" &&
      ["publish", "future", "draft", "pending", "private", "trash"].includes(x),
    issue("invalid"),
  ),
  v.transform((x) => x as string),
);

const isMediaId = (x: unknown) => isNumeric(x) && Number.isInteger(Number(x)) && Number(x) > 0;
const isImageUrl = (x: unknown) => typeof x === "string" && isUrl(x.trim());

/**
 * Venue and organizer `image` (§3 `is_image_or_empty`): a media id (JSON numbers accepted, contract
 * row 23) or an image URL; empty values (`""`, `0`, `"0"`, null) = none. Whether the id is an image
 * and the URL an image is checked against D1 and the network (src/media/image-ref.ts).
 */
export const imageRef = v.pipe(
  v.unknown(),
  v.check((x) => isEmpty(x) || isMediaId(x) || isImageUrl(x), issue("invalid")),
  v.transform((x): number | string | null =>
    isEmpty(x) ? null : isNumeric(x) ? Number(x) : String(x).trim(),
  ),
);

/**
 * Event `image` (§2.3: `is_image`, not `_or_empty`): a media id or an image URL. `0`, `"0"` and
 * `false` name no attachment and are invalid, as in TEC. `""` gives null: it removes the image on an
 * update (contract §4 row 10: an update changes what it names), and is invalid on a create (the
 * handler's check, as TEC's).
 */
export const eventImageRef = v.pipe(
  v.unknown(),
  v.check(
    (x) => (typeof x === "string" && x.trim() === "") || isMediaId(x) || isImageUrl(x),
    issue("invalid"),
  ),
  v.transform((x): number | string | null =>
    isNumeric(x) ? Number(x) : String(x).trim() === "" ? null : String(x).trim(),
  ),
);

/** A user id (JSON numbers accepted, contract row 23); existence is checked against D1. */
export const userId = v.pipe(
  v.unknown(),
  v.check((x) => isNumeric(x) && Number.isInteger(Number(x)) && Number(x) > 0, issue("invalid")),
  v.transform(Number),
);

const coordinate = (max: number) =>
  v.pipe(
    v.unknown(),
    v.check(
      (x) => x === "" || x === null || (isNumeric(x) && Math.abs(Number(x)) <= max),
      issue("invalid"),
    ),
    v.transform((x): number | null => (x === "" || x === null ? null : Number(x))),
  );

/** One global id of another site (§4.1 `global_id`: `host[/path]?id=N`, or another importer's form). */
const GLOBAL_ID = /^[^\s,]{1,255}$/;

/**
 * `global_id_lineage` as written by imports (§4.1: meta `_tribe_aggregator_global_id_lineage`): the
 * global ids this post had at the sites it came from, a list or a comma-separated string of at most
 * 50 ids without whitespace, each up to 255 characters; empty clears. Duplicates are dropped.
 * Only editors and administrators may write it (checked by the save handlers): importers match
 * posts on it, so an author could otherwise make an import overwrite their post.
 */
export const globalIdLineage = v.pipe(
  v.unknown(),
  v.check((x) => {
    if (isEmpty(x)) return true;
    if (typeof x !== "string" && !Array.isArray(x)) return false;
    const ids = listToArray(x);
    return ids.length <= 50 && ids.every((id) => typeof id === "string" && GLOBAL_ID.test(id));
  }, issue("invalid")),
  v.transform((x): string[] => (isEmpty(x) ? [] : [...new Set(listToArray(x).map(String))])),
);

/** Fields every linked post takes (§2.6/§2.7 order), then the contract's `global_id_lineage`. */
const common = (kind: "venue" | "organizer") => ({
  author: arg({ schema: userId, type: "integer", description: `${kind}s.author` }),
  date: arg({ schema: timeInput, type: "string", description: `${kind}s.date` }),
  date_utc: arg({ schema: timeInput, type: "string", description: `${kind}s.date_utc` }),
  global_id_lineage: arg({
    schema: globalIdLineage,
    swaggerType: "array",
    items: { type: "string" },
    description: `${kind}s.global_id_lineage`,
  }),
});

/** `POST /venues` arguments (§2.6), `venue` required. */
export const VENUE_ARGS = {
  ...common("venue"),
  venue: arg({
    schema: nonEmptyString,
    required: true,
    type: "string",
    description: "venues.venue",
  }),
  description: arg({ schema: stringOrEmpty, type: "string", description: "venues.description" }),
  excerpt: arg({ schema: stringOrEmpty, type: "string", description: "venues.excerpt" }),
  status: arg({ schema: postStatus, type: "string", description: "venues.status" }),
  show_map: arg({ schema: wpBoolean, type: "boolean", description: "venues.show_map" }),
  show_map_link: arg({ schema: wpBoolean, type: "boolean", description: "venues.show_map_link" }),
  address: arg({ schema: stringOrEmpty, type: "string", description: "venues.address" }),
  city: arg({ schema: stringOrEmpty, type: "string", description: "venues.city" }),
  country: arg({ schema: stringOrEmpty, type: "string", description: "venues.country" }),
  province: arg({ schema: stringOrEmpty, type: "string", description: "venues.province" }),
  state: arg({ schema: stringOrEmpty, type: "string", description: "venues.state" }),
  zip: arg({ schema: stringOrEmpty, type: "string", description: "venues.zip" }),
  phone: arg({ schema: stringOrEmpty, type: "string", description: "venues.phone" }),
  stateprovince: arg({
    schema: stringOrEmpty,
    type: "string",
    description: "venues.stateprovince",
  }),
  website: arg({ schema: urlOrEmpty, type: "string", description: "venues.website" }),
  image: arg({ schema: imageRef, type: "string", description: "venues.image" }),
  geo_lat: arg({ schema: coordinate(90), type: "number", description: "venues.geo_lat" }),
  geo_lng: arg({ schema: coordinate(180), type: "number", description: "venues.geo_lng" }),
} satisfies ArgSpecs;

/** `POST /organizers` arguments (§2.7), `organizer` required. */
export const ORGANIZER_ARGS = {
  ...common("organizer"),
  organizer: arg({
    schema: nonEmptyString,
    required: true,
    type: "string",
    description: "organizers.organizer",
  }),
  description: arg({
    schema: stringOrEmpty,
    type: "string",
    description: "organizers.description",
  }),
  excerpt: arg({ schema: stringOrEmpty, type: "string", description: "organizers.excerpt" }),
  status: arg({ schema: postStatus, type: "string", description: "organizers.status" }),
  phone: arg({ schema: stringOrEmpty, type: "string", description: "organizers.phone" }),
  website: arg({ schema: urlOrEmpty, type: "string", description: "organizers.website" }),
  email: arg({ schema: stringOrEmpty, type: "string", description: "organizers.email" }),
  image: arg({ schema: imageRef, type: "string", description: "organizers.image" }),
} satisfies ArgSpecs;

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
