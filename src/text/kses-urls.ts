/**
 * URL attributes in filtered HTML (WordPress `wp_kses_bad_protocol`): a URL is
 * kept only when the URL a browser takes from the served attribute is relative or uses one of
 * `wp_allowed_protocols()`.
 *
 * WordPress looks for the scheme after decoding the value's character references and removing blanks
 * and control characters, and repeats until nothing changes, because a value can hide a scheme behind
 * entities of entities (`javascript&#38;#58;`). Here the check reads the value exactly as it is served
 * and decodes it once, with the HTML rules a browser applies to an attribute (`entities`'
 * `decodeHTMLAttribute`): what is checked is what the browser resolves, so no spelling is left to
 * hide a scheme, and the value is served with its character references as sent (they are decoded once
 * more only by the browser, into the checked text). A refused value is dropped whole.
 */

import { decodeHTMLAttribute } from "entities";

/** `wp_allowed_protocols()`: the schemes a URL attribute may use; relative URLs are kept too. */
const PROTOCOLS = new Set(
  "http https ftp ftps mailto news irc irc6 ircs gopher nntp feed telnet mms rtsp sms svn tel fax xmpp webcal urn".split(
    " ",
  ),
);

/** `wp_kses_uri_attributes()`: the attributes WordPress checks with `wp_kses_bad_protocol`. */
export const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  "action",
  "archive",
  "background",
  "cite",
  "classid",
  "codebase",
  "data",
  "formaction",
  "href",
  "icon",
  "longdesc",
  "manifest",
  "poster",
  "profile",
  "src",
  "usemap",
  "xmlns",
]);

/**
 * An attribute value as written between double quotes: `"`, `<` and `>` escaped, everything else
 * (character references included) as sent.
 */
const quoted = (value: string): string =>
  value.replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Whether a URL, as the browser has it after decoding the attribute, is relative or uses an allowed
 * protocol. As in `wp_kses_bad_protocol_once2`, blanks and control characters do not hide a scheme
 * (`java\tscript:`, ` javascript:`): the text before the first colon, without them, is the scheme
 * unless it holds `/`, `?` or `#` (then the colon belongs to a path, query or fragment). Also the
 * rule for `url()` in a `style` attribute (src/text/kses-css.ts).
 * @example allowedUrl("java\tscript:alert(1)") // false
 * @example allowedUrl("/images/a.png")         // true
 */
export function allowedUrl(url: string): boolean {
  const compact = url.replace(/[\s\p{Cc}]+/gu, "");
  const scheme = /^([^/?#]*?):/.exec(compact);
  return scheme === null || allowedProtocol(scheme[1]);
}

/** Whether `scheme` (without its colon, any case) is one of `wp_allowed_protocols()`. */
export const allowedProtocol = (scheme: string): boolean => PROTOCOLS.has(scheme.toLowerCase());

/**
 * A URL attribute's value to serve (its raw value as js-xss parsed it, trimmed, quotes escaped), or
 * `""` (the attribute stays without a value) when the browser would find a scheme WordPress refuses.
 * @example urlAttribute("javascript&#38;#58;alert(1)") // "javascript&#38;#58;alert(1)": a relative URL
 * @example urlAttribute("jav&#x09;ascript:alert(1)")     // ""
 */
export function urlAttribute(value: string): string {
  const served = quoted(value.trim());
  return allowedUrl(decodeHTMLAttribute(served)) ? served : "";
}

/**
 * A `srcset` value to serve: every candidate's URL (before its width or density) must pass as in
 * {@link urlAttribute}, or the whole value is dropped.
 */
export function srcsetAttribute(value: string): string {
  const served = quoted(value.trim());
  const ok = decodeHTMLAttribute(served)
    .split(",")
    .every((candidate) => allowedUrl(candidate.trim().split(/\s+/)[0] ?? ""));
  return ok ? served : "";
}

/**
 * WordPress `esc_url_raw` drops every character outside this set (and, but in `mailto:` links, the
 * encoded line breaks `%0d`, `%0a`).
 */
const ESC_URL_RAW_KEEPS = /^[a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\u{10FFFF}]*$/iu;
const ENCODED_LINE_BREAK = /%0[ad]/i;

/**
 * Whether WordPress's `esc_url_raw` would keep an `http(s)` URL as it is: URL
 * fields (`website`, image URLs) refuse what it would change rather than store it or cut it down, so
 * no stored URL carries `"`, `<`, `>`, a backtick, braces, a backslash or a line break into a
 * client's markup or headers.
 * @example keptByEscUrlRaw("https://ok.example/?a=1&b=(2)") // true
 * @example keptByEscUrlRaw('https://ok.example/"><script>') // false
 */
export const keptByEscUrlRaw = (url: string): boolean =>
  ESC_URL_RAW_KEEPS.test(url) && !ENCODED_LINE_BREAK.test(url);
