/**
 * `multipart/form-data` bodies as parameters (tec-reference §1.4, contract §5): each text field is a
 * parameter (its name with PHP's brackets, read by `qs` like a form body); file parts are not
 * parameters. The parts are read byte for byte (`@remix-run/multipart-parser`) so that a field whose
 * bytes are not UTF-8 is refused, not stored with replacement characters.
 */
import {
  getMultipartBoundary,
  MultipartParseError,
  type MultipartPart,
  parseMultipart,
} from "@remix-run/multipart-parser";
import { InvalidParamsError, notUtf8 } from "./errors";
import { parameterOf, utf8Text } from "./unicode";

/** The body could not be read as multipart: 400 naming `body` (never read as if it were empty). */
const unparseable = () => new InvalidParamsError([{ name: "body" }]);

/** The parts of a multipart message, read to the end. @throws InvalidParamsError naming `body`. */
function partsOf(body: Uint8Array, boundary: string, limit: number): MultipartPart[] {
  try {
    // The request is at most `limit` bytes (413 beyond): no part-count or size limit of its own.
    return [
      ...parseMultipart(body, {
        boundary,
        maxFileSize: limit,
        maxTotalSize: limit,
        maxParts: limit,
      }),
    ];
  } catch (err) {
    if (err instanceof MultipartParseError) throw unparseable();
    throw err;
  }
}

/**
 * The text fields of a multipart body as urlencoded pairs, in order.
 * @param body the raw body, at most `limit` bytes.
 * @param contentType the `Content-Type` header as sent (the boundary is case-sensitive).
 * @param limit the largest body accepted, in bytes.
 * @throws InvalidParamsError 400 `rest_invalid_param` naming `body` when the body is not a
 *   multipart message with that boundary (or a part's headers are not UTF-8); naming each
 *   parameter (`venue` for `venue[venue]`) whose text is not UTF-8.
 * @example multipartFields(bytes, "multipart/form-data; boundary=AbC", 1 << 20).get("title")
 */
export function multipartFields(
  body: Uint8Array,
  contentType: string,
  limit: number,
): URLSearchParams {
  const boundary = getMultipartBoundary(contentType);
  if (!boundary) throw unparseable();
  const fields = new URLSearchParams();
  const malformed = new Set<string>();
  for (const part of partsOf(body, boundary, limit)) {
    let name: string | undefined;
    let file: boolean;
    try {
      name = part.name;
      file = part.filename !== undefined;
    } catch {
      // The part's headers are not UTF-8: its name cannot be known.
      throw unparseable();
    }
    if (name === undefined || file) continue;
    const text = utf8Text(part.bytes);
    if (text === undefined) malformed.add(parameterOf(name));
    else fields.append(name, text);
  }
  if (malformed.size) throw notUtf8([...malformed]);
  return fields;
}
