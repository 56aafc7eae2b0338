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
