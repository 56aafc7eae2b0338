/**
 * Media: the image object of tec-reference §4.5 that posts embed, and the contract of the
 * `wp/v2/media` object (each field once: its `/doc` schema, its column or how it is read, the
 * argument that writes it), with the `/doc` component, serializer and create arguments derived
 * from it.
 */
import * as v from "valibot";
import type { media } from "../db/schema";
import { arg } from "../http/args";
import { argSpecs, readMapping, type WireField, wireSchema } from "../http/contract";
import { dropFalsy } from "../http/render";
import { d, int, str } from "../http/schema-kit";
import { positiveInt } from "../http/validators";
import { extensionOf, imageUrl, plain } from "./fields";

export type MediaRow = typeof media.$inferSelect;

/** Image object shape (§4.5); falsy entries are dropped. */
export interface ImageObject {
  url: string;
  id: number;
  extension?: string;
  width?: number;
  height?: number;
  filesize?: number;
}

/** `image` of an event/venue/organizer: the object, or `false` when there is none. */
export function imageObject(row: MediaRow | undefined | null): ImageObject | false {
  if (!row) return false;
  return dropFalsy({
    url: row.sourceUrl,
    id: row.id,
    extension: extensionOf(row.sourceUrl),
    width: row.width ?? 0,
    height: row.height ?? 0,
    filesize: row.filesize ?? 0,
  }) as ImageObject;
}

const size = (key: string) => v.optional(int(`media.${key}`));

/** The wire fields of media as `wp/v2/media` answers (WordPress attachment fields kept by contract §3). */
export const MEDIA_FIELDS = {
  id: { out: int("media.id"), column: "id" },
  // Site-local, `YYYY-MM-DDTHH:mm:ss` (WordPress `mysql_to_rfc3339`).
  date: { out: str("media.date"), read: (row: MediaRow) => row.postDate.replace(" ", "T") },
  // UTC, same format.
  date_gmt: {
    out: str("media.date_gmt"),
    read: (row: MediaRow) => row.postDateGmt.replace(" ", "T"),
  },
  slug: { out: str("media.slug"), column: "slug" },
  status: { out: str("media.status"), column: "status" },
  type: { out: d(v.literal("attachment"), "media.type"), read: () => "attachment" },
  title: {
    out: d(v.strictObject({ rendered: str("media.title_rendered") }), "media.title"),
    read: (row: MediaRow) => ({ rendered: row.title }),
    arg: arg({ schema: plain(250), type: "string", description: "media.title" }),
  },
  author: { out: int("media.author"), read: (row: MediaRow) => row.author ?? 0 },
  alt_text: {
    out: str("media.alt_text"),
    column: "altText",
    arg: arg({ schema: plain(1000), type: "string", description: "media.alt_text" }),
  },
  media_type: { out: d(v.literal("image"), "media.media_type"), read: () => "image" },
  mime_type: { out: str("media.mime_type"), column: "mimeType" },
  source_url: {
    out: str("media.source_url"),
    column: "sourceUrl",
    arg: arg({ schema: imageUrl, required: true, type: "string", description: "media.source_url" }),
  },
  // Only the dimensions (pixels) and size (bytes) that are known; `{}` when none is.
  media_details: {
    out: d(
      v.strictObject({ width: size("width"), height: size("height"), filesize: size("filesize") }),
      "media.media_details",
    ),
    read: (row: MediaRow) => {
      const details: { width?: number; height?: number; filesize?: number } = {};
      if (row.width !== null) details.width = row.width;
      if (row.height !== null) details.height = row.height;
      if (row.filesize !== null) details.filesize = row.filesize;
      return details;
    },
  },
  // Written only (sent inside `media_details`).
  width: {
    arg: arg({ schema: positiveInt, type: "integer", description: "media.width" }),
    column: "width",
  },
  height: {
    arg: arg({ schema: positiveInt, type: "integer", description: "media.height" }),
    column: "height",
  },
} satisfies Record<string, WireField<MediaRow>>;

/** `POST /media` arguments (JSON or form): a reference to an image hosted elsewhere, not an upload. */
export const MEDIA_CREATE_ARGS = argSpecs(MEDIA_FIELDS, [
  "source_url",
  "alt_text",
  "title",
  "width",
  "height",
]);

/** An attachment as `wp/v2/media` answers. */
export const Media = wireSchema(MEDIA_FIELDS);
export type MediaObject = v.InferOutput<typeof Media>;

const readMedia = readMapping(MEDIA_FIELDS, (row: MediaRow) => row);

/** The `wp/v2/media` object of a media row (contract §3). */
export const serializeMedia = (row: MediaRow) => readMedia(row) as MediaObject;
