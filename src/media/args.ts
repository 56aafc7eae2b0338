/**
 * Arguments of the `wp/v2/media` routes (contract §3) and the image types they accept.
 */
import * as v from "valibot";
import { arg, issue } from "../http/args";
import { idFormat, positiveInt, wpString } from "../http/validators";
import { plainText } from "../users/fields";
import { extensionOf } from "./serialize";

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

/**
 * The MIME type of an absolute `http:`/`https:` URL whose path ends in an image extension, else
 * null. The query string and fragment do not count.
 * @example imageMimeType("https://cdn.example.com/a/b.JPG?w=300") // "image/jpeg"
 */
export function imageMimeType(url: string): string | null {
  if (url.length > SOURCE_URL_MAX) return null;
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

/** Plain text (WordPress `sanitize_text_field`), at most `max` characters. */
const plain = (max: number) =>
  v.pipe(
    wpString,
    v.transform(plainText),
    v.check((x) => x.length <= max, INVALID),
  );

/** `GET /media/{id}` (the route admits digits only). */
export const MEDIA_SINGLE_ARGS = {
  id: arg({ schema: idFormat, type: "integer", in: "path", description: "media.id" }),
};

/** `POST /media` (JSON or form): a reference to an image hosted elsewhere, not an upload. */
export const MEDIA_CREATE_ARGS = {
  source_url: arg({
    schema: v.pipe(
      wpString,
      v.check((x) => imageMimeType(x) !== null, INVALID),
    ),
    required: true,
    type: "string",
    description: "media.source_url",
  }),
  alt_text: arg({ schema: plain(1000), type: "string", description: "media.alt_text" }),
  title: arg({ schema: plain(250), type: "string", description: "media.title" }),
  width: arg({ schema: positiveInt, type: "integer", description: "media.width" }),
  height: arg({ schema: positiveInt, type: "integer", description: "media.height" }),
};
