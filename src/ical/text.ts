/**
 * RFC 5545 content lines (sections 3.1, 3.2, 3.3): TEXT escaping, parameter quoting (with RFC 6868
 * caret encoding), DATE / DATE-TIME / UTC-OFFSET values, and folding at 75 octets without splitting a
 * UTF-8 sequence. Everything the feed writes goes through `contentLine`.
 */

import { CONTROL, paramValue } from "../text/ical-params";

const CRLF = "\r\n";
/** Octets per physical line, CRLF excluded (RFC 5545 §3.1). */
const MAX_OCTETS = 75;

/**
 * A TEXT value (RFC 5545 §3.3.11): `\` `;` `,` escaped, line breaks as `\n`, control characters dropped.
 * @example escapeText("Hall A, 2nd floor\nDoor 3") // "Hall A\\, 2nd floor\\nDoor 3"
 */
export function escapeText(text: string): string {
  return text
    .replace(CONTROL, "")
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n?|\n/g, "\\n");
}

/** Octets of one code point in UTF-8. */
const utf8Length = (codePoint: number) =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/**
 * Folds one unfolded content line (RFC 5545 §3.1): at most 75 octets per physical line, continuation lines
 * start with one space; a multi-octet character is never split. Ends with CRLF.
 * @example fold("A".repeat(80)) // "AAA…(75)\r\n AAAAA\r\n"
 */
export function fold(line: string): string {
  // ASCII fast path: most lines are short and ASCII.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL.
  if (line.length <= MAX_OCTETS && !/[^\x00-\x7f]/.test(line)) return line + CRLF;
  let out = "";
  let width = 0;
  for (const ch of line) {
    const octets = utf8Length(ch.codePointAt(0)!);
    if (width + octets > MAX_OCTETS) {
      out += `${CRLF} `;
      width = 1;
    }
    out += ch;
    width += octets;
  }
  return out + CRLF;
}

/** Parameters of a content line, in order; `undefined` values are left out. */
export type Params = Array<[string, string | undefined]>;

/**
 * One folded content line, `NAME;PARAM=value:value` + CRLF. `value` must already be in its value
 * type's syntax (use `escapeText` for TEXT).
 * @example contentLine("DTSTART", "20261205T190000", [["TZID", "America/New_York"]])
 */
export function contentLine(name: string, value: string, params: Params = []): string {
  let head = name;
  for (const [key, v] of params) if (v !== undefined) head += `;${key}=${paramValue(v)}`;
  return fold(`${head}:${value}`);
}

/** A TEXT property (escaped), or `""` when the text is empty. */
export function textLine(name: string, text: string, params: Params = []): string {
  return text === "" ? "" : contentLine(name, escapeText(text), params);
}

/** `2026-12-05 19:00:00` → `20261205T190000` (DATE-TIME, RFC 5545 §3.3.5, local or floating form). */
export const dateTimeValue = (wp: string) =>
  `${wp.slice(0, 4)}${wp.slice(5, 7)}${wp.slice(8, 10)}T${wp.slice(11, 13)}${wp.slice(14, 16)}${wp.slice(17, 19)}`;

/** `2026-12-06 00:00:00` (UTC) → `20261206T000000Z`. */
export const utcValue = (wp: string) => `${dateTimeValue(wp)}Z`;

/** `2026-12-05` (or a `Y-m-d H:i:s`) → `20261205` (DATE, RFC 5545 §3.3.4). */
export const dateValue = (wp: string) => `${wp.slice(0, 4)}${wp.slice(5, 7)}${wp.slice(8, 10)}`;

/** A UTC offset in minutes → `+0530` / `-0500` (UTC-OFFSET, RFC 5545 §3.3.14). */
export function offsetValue(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(Math.round(minutes));
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

/** Whether a stored `Y-m-d H:i:s` is a real instant (WordPress writes `0000-00-00 00:00:00` for unset dates). */
export const isSetDate = (wp: string) =>
  /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(wp) && !wp.startsWith("0000");
