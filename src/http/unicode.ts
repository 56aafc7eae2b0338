/**
 * Text a write carries must be valid Unicode (contract §5, tec-reference §1.4): what a client sends
 * is stored as sent or refused, never stored with replacement characters or undecoded escapes.
 * PHP refuses the same inputs: `json_decode` fails on a lone surrogate escape (`JSON_ERROR_UTF16`),
 * and WordPress's text fields hold no bytes that are not UTF-8.
 */
/**
 * A lone UTF-16 surrogate: what JSON's `"\ud800"` parses to, and what no UTF-8 text holds (in a
 * `u` regular expression a surrogate pair is one character, outside `\p{Cs}`).
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether a parsed value holds a lone surrogate in any string, key or value (iteratively: JSON nests without limit). */
function holdsLoneSurrogate(value: unknown): boolean {
  const stack = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (LONE_SURROGATE.test(item)) return true;
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (LONE_SURROGATE.test(key)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/**
 * The parameters of a parsed JSON body that hold a lone surrogate: each top-level key whose value
 * holds one anywhere, and each top-level key that is one (named as JSON writes it, `\ud800`);
 * `["body"]` for a body that is not an object. Empty when the body is valid Unicode throughout.
 * @example illFormedParams({ title: "\ud800", venue: { venue: "Hall" } }) // ["title"]
 */
export function illFormedParams(body: unknown): string[] {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return holdsLoneSurrogate(body) ? ["body"] : [];
  }
  const names: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (LONE_SURROGATE.test(key)) names.push(JSON.stringify(key).slice(1, -1));
    else if (holdsLoneSurrogate(value)) names.push(key);
  }
  return names;
}

/** A run of percent-escapes (`%C3%A9`): the bytes of one or more characters. */
const ESCAPES = /(?:%[0-9a-f]{2})+/gi;

/**
 * PHP's `urldecode`, as WordPress reads a query string or a urlencoded body: `+` is a space, each
 * `%XX` a byte, a `%` not followed by two hex digits stays as it is (`100%`); the decoded bytes must
 * be UTF-8.
 * @returns `text` decoded, and `ok: false` when some escapes are not UTF-8 (`%FF`, `%C3%28`, the
 *   surrogate `%ED%A0%80`, overlong forms): those are then left as sent in `text`.
 * @example urlDecode("Caf%C3%A9+100%") // { text: "Café 100%", ok: true }
 * @example urlDecode("Caf%E9")         // { text: "Caf%E9", ok: false }
 */
export function urlDecode(text: string): { text: string; ok: boolean } {
  const spaced = text.includes("+") ? text.replace(/\+/g, " ") : text;
  if (!spaced.includes("%")) return { text: spaced, ok: true };
  let ok = true;
  const decoded = spaced.replace(ESCAPES, (run) => {
    try {
      // Only escapes: decodeURIComponent fails exactly when their bytes are not UTF-8.
      return decodeURIComponent(run);
    } catch {
      ok = false;
      return run;
    }
  });
  return { text: decoded, ok };
}

/** Strict UTF-8 (a BOM is text, as PHP keeps it). */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Bytes as UTF-8 text, or `undefined` when they are not UTF-8 (never replacement characters).
 * @example utf8Text(new Uint8Array([0x43, 0x61, 0x66, 0xe9])) // undefined
 */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The parameter a bracketed key belongs to, as `qs` nests it: `venue[venue]` → `venue`,
 * `tags[]` → `tags`; a key that starts with a bracket is its own name.
 */
export const parameterOf = (key: string): string => {
  const bracket = key.indexOf("[");
  return bracket > 0 ? key.slice(0, bracket) : key;
};
