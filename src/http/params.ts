/**
 * Request parameters the way WordPress reads them (tec-reference §1.4, contract §5): the query string,
 * a JSON body (only with `Content-Type: application/json`), or a urlencoded / multipart form body, all
 * with PHP-style brackets (`organizer[0]=3`, `venue[venue]=Hall`, `categories[]=a`) parsed by `qs`.
 * Path captures win over everything, so `?id=` can never redirect an operation to another post.
 */
import qs from "qs";
import { ApiError, InvalidParamsError, invalidJson, loneSurrogate, notUtf8 } from "./errors";
import { multipartFields } from "./multipart";
import { illFormedParams, parameterOf, urlDecode } from "./unicode";

/** Largest accepted request body, in bytes (contract §5: over 1 MiB → 413). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Longest accepted query string, in characters. */
export const MAX_QUERY_CHARS = 8192;

const QS_OPTIONS: qs.IParseOptions = {
  depth: 5,
  arrayLimit: 200,
  parameterLimit: 1000,
  duplicates: "last", // PHP keeps the last of repeated plain keys
  allowPrototypes: false,
  plainObjects: true,
  charset: "utf-8",
};

export type ParamBag = Record<string, unknown>;

/** Everything a request carries, by source. */
export interface RequestParams {
  query: ParamBag;
  body: ParamBag;
  path: Record<string, string>;
}

/**
 * Parses a query string or urlencoded body with PHP bracket semantics, each key and value
 * percent-decoded as PHP's `urldecode` does (src/http/unicode.ts `urlDecode`).
 * @param malformed receives the parameter (`venue` for `venue[venue]`; a key that does not decode,
 *   as sent) of each key or value whose escapes are not UTF-8; such text is kept with those
 *   escapes as sent (what a read filters by; a write refuses it, see `parseStrictly`).
 */
export function parseQueryString(text: string, malformed?: Set<string>): ParamBag {
  // qs decodes each pair's key, then its value: the last key names a value that does not decode.
  let key = "";
  const decoder: qs.IParseOptions["decoder"] = (str, _default, _charset, type) => {
    const { text, ok } = urlDecode(str);
    if (type === "key") key = text;
    if (!ok) malformed?.add(parameterOf(key));
    return text;
  };
  return qs.parse(text.replace(/^\?/, ""), { ...QS_OPTIONS, decoder }) as ParamBag;
}

/**
 * Parses a query string or urlencoded body of a write: its text must be UTF-8 (contract §5).
 * @throws InvalidParamsError 400 `rest_invalid_param` naming each parameter whose percent-escapes
 *   are not UTF-8 (`title=%FF`).
 */
export function parseStrictly(text: string): ParamBag {
  const malformed = new Set<string>();
  const params = parseQueryString(text, malformed);
  if (malformed.size) throw notUtf8([...malformed]);
  return params;
}

async function readLimited(req: Request): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES)
    throw new ApiError(413, "rest_payload_too_large", [MAX_BODY_BYTES]);
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new ApiError(413, "rest_payload_too_large", [MAX_BODY_BYTES]);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

/** Thrown by `utf8` for bytes that are not UTF-8. */
class MalformedUtf8 extends Error {}

/** Strict UTF-8 decoding: a body is never stored with replacement characters. */
function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new MalformedUtf8();
  }
}

/**
 * Reads the body of a POST/PUT/PATCH/DELETE request. Its text must be valid Unicode (contract §5).
 * @throws ApiError 413 `rest_payload_too_large`; 400 `rest_invalid_json` for JSON that does not
 *   parse, is not UTF-8 or holds a lone surrogate escape (naming the parameters that hold one);
 *   400 `rest_invalid_param` naming `body` for a multipart body that cannot be parsed (a request the
 *   client believes carries parameters must not be answered as if it carried none) or a form body
 *   that is not UTF-8, naming the parameters whose percent-escapes or multipart bytes are not UTF-8.
 */
export async function readBody(req: Request): Promise<ParamBag> {
  if (!["POST", "PUT", "PATCH", "DELETE"].includes(req.method)) return {};
  const header = req.headers.get("content-type") ?? "";
  const type = header.toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const declared = Number(req.headers.get("content-length") ?? "0");
    if (declared > MAX_BODY_BYTES)
      throw new ApiError(413, "rest_payload_too_large", [MAX_BODY_BYTES]);
    const raw = await readLimited(req);
    if (raw.every((b) => b <= 0x20)) return {};
    // The boundary is case-sensitive (browsers send `----WebKitFormBoundaryAbC…`): the header as sent.
    return parseQueryString(multipartFields(raw, header, MAX_BODY_BYTES).toString());
  }
  const json = type.startsWith("application/json") || type.includes("+json");
  const form = type.startsWith("application/x-www-form-urlencoded");
  // Other bodies are not read as parameters (WordPress ignores them too).
  if (!json && !form) return {};
  let raw: string;
  try {
    raw = utf8(await readLimited(req));
  } catch (err) {
    if (!(err instanceof MalformedUtf8)) throw err;
    // PHP's json_decode: JSON_ERROR_UTF8 (5).
    if (json) throw invalidJson("Malformed UTF-8 characters, possibly incorrectly encoded", 5);
    throw notUtf8(["body"]);
  }
  if (json) {
    if (raw.trim() === "") return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (e) {
      throw invalidJson(e instanceof Error ? e.message : "Syntax error");
    }
    // JSON.parse takes `"\ud800"` as a lone surrogate (PHP's json_decode refuses it).
    const illFormed = illFormedParams(parsed);
    if (illFormed.length) throw loneSurrogate(illFormed);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as ParamBag)
      : {};
  }
  return parseStrictly(raw);
}

/** Whether a parsed value holds a NUL character anywhere (iteratively: JSON nests without limit). */
function holdsNul(value: unknown): boolean {
  const stack = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (item.includes("\u0000")) return true;
    } else if (item !== null && typeof item === "object") {
      for (const child of Object.values(item)) stack.push(child);
    }
  }
  return false;
}

/**
 * Refuses NUL characters in the parameters of a write: no text field stores one.
 * @throws InvalidParamsError naming every parameter that holds one.
 */
export function assertNoNul(...bags: ParamBag[]): void {
  const names = [
    ...new Set(bags.flatMap((bag) => Object.keys(bag).filter((k) => holdsNul(bag[k])))),
  ];
  if (names.length) throw new InvalidParamsError(names.map((name) => ({ name })));
}

/**
 * Parses the query string.
 * @throws ApiError 414 `rest_uri_too_long` beyond `MAX_QUERY_CHARS`.
 */
export function readQuery(url: URL): ParamBag {
  if (url.search.length > MAX_QUERY_CHARS)
    throw new ApiError(414, "rest_uri_too_long", [MAX_QUERY_CHARS]);
  return parseQueryString(url.search);
}

/**
 * Refuses a write whose query string holds percent-escapes that are not UTF-8: a write stores its
 * query parameters as it stores its body's (contract §5). Reads filter by such text as sent.
 * @throws InvalidParamsError 400 `rest_invalid_param` naming them.
 */
export function assertUtf8Query(url: URL): void {
  parseStrictly(url.search);
}

/** The value of `name` by precedence: path, body, query. `undefined` when absent everywhere. */
export function paramValue(params: RequestParams, name: string): unknown {
  if (Object.hasOwn(params.path, name)) return params.path[name];
  if (Object.hasOwn(params.body, name)) return params.body[name];
  if (Object.hasOwn(params.query, name)) return params.query[name];
  return undefined;
}

/** Whether the request names `name` at all, even with a JSON `null`. */
export function hasParam(params: RequestParams, name: string): boolean {
  return (
    Object.hasOwn(params.path, name) ||
    Object.hasOwn(params.body, name) ||
    Object.hasOwn(params.query, name)
  );
}
