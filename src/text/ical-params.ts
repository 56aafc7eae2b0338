/**
 * RFC 5545 parameter values (section 3.2, with RFC 6868 caret encoding) and the control characters
 * no value may hold: what the feed's content lines (src/ical/text.ts) and a series' stored lines
 * (src/events/series/lines.ts, `TZID=`) share.
 */

/** Control characters RFC 5545 forbids in values (all but HTAB; CR and LF are handled by escaping). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused.
export const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * A parameter value (RFC 5545 §3.2, RFC 6868): `^`, line breaks and `"` caret-encoded; quoted when it holds
 * `:`, `;` or `,`.
 * @example paramValue('Ann "The Host", PhD') // '"Ann ^\'The Host^\'\\, PhD"' (quoted, no backslash)
 */
export function paramValue(value: string): string {
  const encoded = value
    .replace(CONTROL, "")
    .replace(/\^/g, "^^")
    .replace(/\r\n?|\n/g, "^n")
    .replace(/"/g, "^'");
  return /[:;,]/.test(encoded) ? `"${encoded}"` : encoded;
}
