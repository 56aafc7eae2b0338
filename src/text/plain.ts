/**
 * Plain-text fields as The Events Calendar stores them (contract §4: "the plain-text fields take
 * any string … markup in them is neutralized as `tec_sanitize_string` does, never refused"): a
 * venue's address, city, country, province, state, zip, phone and state/province, an organizer's
 * phone and e-mail. TEC saves such strings through `tec_sanitize_string` (its PHP 8.1 replacement
 * for `FILTER_SANITIZE_STRING`): tags are removed (PHP's `strip_tags`: the text inside them stays),
 * `&`, `<` and `>` are encoded, runs of spaces become one and the ends are trimmed; quotes are kept.
 */
import { strip_tags } from "locutus/php/strings/strip_tags";

/** An `&` that does not begin a character reference (`&amp;`, `&#38;`, `&#x26;`, `&hellip;`). */
const BARE_AMPERSAND = /&(?!(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});)/gi;

/**
 * TEC's `tec_sanitize_string`: `strip_tags` (locutus' port, verified against PHP 8.3), then `&`,
 * `<`, `>` as `&amp;`, `&lt;`, `&gt;`, runs of spaces as one, trimmed. One difference, so that a
 * value read back and written again is unchanged: a character reference already in the text is kept
 * (`&amp;` stays `&amp;`, as WordPress's `esc_html` does), where PHP's `htmlspecialchars` would
 * encode its `&` a second time.
 * @example sanitizeString("<b>Hall</b> & Co  ") // "Hall &amp; Co"
 * @example sanitizeString("info at example dot org") // "info at example dot org"
 */
export function sanitizeString(text: string): string {
  return strip_tags(text)
    .replace(BARE_AMPERSAND, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/ {2,}/g, " ")
    .trim();
}
