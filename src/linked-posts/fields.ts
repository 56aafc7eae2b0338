/**
 * The validators of venue and organizer fields (tec-reference §3, §2.6, §2.7, §8.6; contract §4 rows
 * 12, 13, 16 and the writable `excerpt`, `geo_lat`, `geo_lng`), for their contracts
 * (src/linked-posts/venue.ts, src/linked-posts/organizer.ts).
 */
import * as v from "valibot";
import { issue } from "../http/args";
import { isEmpty, isNumeric, listToArray } from "../http/validators";
import { allowedProtocol, keptByEscUrlRaw } from "../text/kses-urls";

/** TEC `is_string_or_empty`: an empty value, or a string (§3). Empty values become `""`. */
export const stringOrEmpty = v.pipe(
  v.unknown(),
  v.check((x) => isEmpty(x) || typeof x === "string", issue("invalid")),
  v.transform((x) => (typeof x === "string" ? x.trim() : "")),
);

/**
 * A website (events, venues, organizers: TEC `is_url_or_empty`, §3): empty, or a URL PHP's
 * `FILTER_VALIDATE_URL` takes — a scheme, and a host unless the scheme is `mailto` or `news` — whose
 * scheme is one of WordPress's allowed protocols (`http`, `https`, `ftp`, `mailto`, …, so never
 * `javascript:` or `data:`) and which `esc_url_raw` keeps as it is (no blanks, quotes or brackets: see
 * {@link isUrl}). Stored as given.
 */
export const websiteOrEmpty = v.pipe(
  v.unknown(),
  v.check((x) => isEmpty(x) || (typeof x === "string" && isWebsite(x.trim())), issue("invalid")),
  v.transform((x) => (typeof x === "string" ? x.trim() : "")),
);

/** Schemes `FILTER_VALIDATE_URL` takes without a host. */
const HOSTLESS = new Set(["mailto:", "news:"]);

function isWebsite(text: string): boolean {
  if (text.length > 2048 || /\s/.test(text) || !keptByEscUrlRaw(text)) return false;
  try {
    const url = new URL(text);
    return (
      allowedProtocol(url.protocol.slice(0, -1)) &&
      (url.hostname !== "" || HOSTLESS.has(url.protocol))
    );
  } catch {
    return false;
  }
}

/**
 * An absolute `http:`/`https:` URL with a host, at most 2,048 characters, without blanks, that
 * `esc_url_raw` keeps as it is.
 */
export function isUrl(text: string): boolean {
  if (text.length > 2048 || /\s/.test(text)) return false;
  if (!keptByEscUrlRaw(text)) return false;
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

/** A latitude (`max` 90) or longitude (`max` 180); `""` or null removes it. */
export const coordinate = (max: number) =>
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
 * The global id lineage as written by imports (§4.1: meta `_tribe_aggregator_global_id_lineage`): the
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
