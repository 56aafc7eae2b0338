/**
 * The image URLs media may point at (contract §3), and the validators of the `wp/v2/media` write
 * fields, whose arguments are declared in the media contract (src/media/serialize.ts).
 */
import * as v from "valibot";
import { issue } from "../http/args";
import { wpString } from "../http/validators";
import { keptByEscUrlRaw } from "../text/kses-urls";
import { plainText } from "../users/fields";

const INVALID = issue("invalid");

/** MIME type by file extension, for the image types media may point at. */
export const IMAGE_MIME_TYPES: Readonly<Record<string, string>> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
};

/** Longest accepted `source_url`, in characters. */
export const SOURCE_URL_MAX = 2048;

/** File extension of a URL's path, lower case (`jpg`), or `""`. */
export function extensionOf(url: string): string {
  try {
    const m = /\.([a-z0-9]{1,8})$/i.exec(new URL(url).pathname);
    return m ? m[1].toLowerCase() : "";
  } catch {
    return "";
  }
}

/**
 * The MIME type of an absolute `http:`/`https:` URL whose path ends in an image extension, else
 * null. The query string and fragment do not count; a URL that WordPress's `esc_url_raw` would
 * change (markup, a line break) is none.
 * @example imageMimeType("https://cdn.example.com/a/b.JPG?w=300") // "image/jpeg"
 */
export function imageMimeType(url: string): string | null {
  if (url.length > SOURCE_URL_MAX || !keptByEscUrlRaw(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.hostname === "")
    return null;
  return IMAGE_MIME_TYPES[extensionOf(url)] ?? null;
}

/**
 * WordPress's default attachment title: the file name without its extension.
 * @example titleFromUrl("https://x.test/img/sunset%20beach.jpg") // "sunset beach"
 */
export function titleFromUrl(url: string): string {
  const file = new URL(url).pathname.split("/").pop() ?? "";
  let name = file;
  try {
    name = decodeURIComponent(file);
  } catch {
    // keep it encoded
  }
  return name.replace(/\.[^.]+$/, "");
}

/** An image URL `imageMimeType` knows. */
export const imageUrl = v.pipe(
  wpString,
  v.check((x) => imageMimeType(x) !== null, INVALID),
);

/** Plain text (WordPress `sanitize_text_field`), at most `max` characters. */
export const plain = (max: number) =>
  v.pipe(
    wpString,
    v.transform(plainText),
    v.check((x) => x.length <= max, INVALID),
  );
