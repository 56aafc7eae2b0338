/**
 * Text rendering (tec-reference §12.4, contract §4): titles and names are plain text as stored;
 * descriptions and excerpts are stored HTML, run through WordPress's own `wpautop`
 * (`@wordpress/autop`), as `the_content` does. Entities, tags and accents are handled by libraries
 * that follow what WordPress does: `entities` (HTML5's named and numeric references), `xss` (the
 * tag parser the HTML filter uses too, src/text/kses.ts) and `remove-accents` with the few letters
 * WordPress's `remove_accents` maps otherwise.
 */
import { autop as wpautop } from "@wordpress/autop";
import { decodeHTML } from "entities";
import removeAccents from "remove-accents";
import type * as Xss from "xss";
import xss from "xss";

const { FilterXSS } = xss as unknown as typeof Xss;

/**
 * WordPress `wpautop`, trimmed as TEC's answers are: `"Bring a mat."` → `"<p>Bring a mat.</p>"`;
 * blank lines separate paragraphs, single newlines become `<br />`, block-level markup is kept and
 * the text between blocks wrapped.
 * @example autop("A\n\nB") // "<p>A</p>\n<p>B</p>"
 */
export function autop(html: string): string {
  const text = html.replace(/\r\n?/g, "\n").trim();
  return text === "" ? "" : wpautop(text).trim();
}

/**
 * Decodes every HTML character reference — named (HTML5's list: `&hellip;`, `&ndash;`, …) and
 * numeric — as `html_entity_decode` does.
 * @example decodeEntities("Rock &amp; Roll &hellip;") // "Rock & Roll …"
 */
export function decodeEntities(text: string): string {
  return decodeHTML(text);
}

/** Closing tags that end a line of plain text (and `<br>`). */
const LINE_ENDS = new Set([
  "p",
  "div",
  "li",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "tr",
  "blockquote",
]);

/** What `<br>` becomes while tags are stripped (a private-use character: never in stored text). */
const BREAK = "\u{F8FF}";

/**
 * Every tag removed, `<script>` and `<style>` with their content; line-ending tags become line
 * breaks (the parser is js-xss's, as for the HTML filter).
 */
const tagStripper = new FilterXSS({
  whiteList: {},
  stripIgnoreTagBody: ["script", "style"],
  // Text is decoded afterwards (`decodeEntities`), not escaped here.
  escapeHtml: (text) => text,
  onIgnoreTag: (tag, _html, options) =>
    tag === "br" ? BREAK : options.isClosing && LINE_ENDS.has(tag) ? "\n" : "",
});

/** Plain text of HTML: tags removed (block ends become line breaks), entities decoded, whitespace tidied. */
export function stripTags(html: string): string {
  return decodeEntities(
    tagStripper
      .process(html.replaceAll(BREAK, ""))
      // The source's line break after a <br> is only whitespace: one break, not two.
      .replace(/\u{F8FF}[^\S\n]*\n?/gu, "\n"),
  )
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Letters WordPress's `remove_accents` maps differently from (or in addition to) `remove-accents`. */
const WORDPRESS_ACCENTS: Record<string, string> = {
  ß: "s",
  ª: "a",
  º: "o",
  ŋ: "n",
  Ŋ: "N",
  ĸ: "k",
  "€": "E",
};
const WORDPRESS_ACCENT = new RegExp(`[${Object.keys(WORDPRESS_ACCENTS).join("")}]`, "g");

/**
 * WordPress `sanitize_title`: tags stripped, accents removed (`remove_accents`), lower case,
 * anything but letters, digits and hyphens turned into hyphens. Used for slugs and for non-numeric
 * cost keys (§4.8).
 * @example sanitizeTitle("Straße & Café") // "strase-cafe"
 */
export function sanitizeTitle(text: string): string {
  return removeAccents(stripTags(text).replace(WORDPRESS_ACCENT, (c) => WORDPRESS_ACCENTS[c]))
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&[a-z0-9#]+;/g, "")
    .replace(/['’]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 200);
}
