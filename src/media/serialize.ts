/** The image object of tec-reference §4.5, from a media row. */
import type { media } from "../db/schema";
import { dropFalsy } from "../http/render";

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

/** File extension of a URL's path, lower case (`jpg`), or `""`. */
export function extensionOf(url: string): string {
  try {
    const m = /\.([a-z0-9]{1,8})$/i.exec(new URL(url).pathname);
    return m ? m[1].toLowerCase() : "";
  } catch {
    return "";
  }
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

/** Media as `wp/v2/media` answers (WordPress attachment fields kept by contract §3). */
export interface MediaObject {
  id: number;
  /** Site-local, `YYYY-MM-DDTHH:mm:ss` (WordPress `mysql_to_rfc3339`). */
  date: string;
  /** UTC, same format. */
  date_gmt: string;
  slug: string;
  status: string;
  type: "attachment";
  title: { rendered: string };
  author: number;
  alt_text: string;
  media_type: "image";
  mime_type: string;
  source_url: string;
  /** Only the dimensions (pixels) and size (bytes) that are known; `{}` when none is. */
  media_details: { width?: number; height?: number; filesize?: number };
}

/** The `wp/v2/media` object of a media row (contract §3). */
export function serializeMedia(row: MediaRow): MediaObject {
  const details: MediaObject["media_details"] = {};
  if (row.width !== null) details.width = row.width;
  if (row.height !== null) details.height = row.height;
  if (row.filesize !== null) details.filesize = row.filesize;
  return {
    id: row.id,
    date: row.postDate.replace(" ", "T"),
    date_gmt: row.postDateGmt.replace(" ", "T"),
    slug: row.slug,
    status: row.status,
    type: "attachment",
    title: { rendered: row.title },
    author: row.author ?? 0,
    alt_text: row.altText,
    media_type: "image",
    mime_type: row.mimeType,
    source_url: row.sourceUrl,
    media_details: details,
  };
}
