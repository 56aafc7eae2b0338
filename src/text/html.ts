/**
 * Text rendering (tec-reference §12.4, contract §4): titles and names are plain text as stored;
 * descriptions and excerpts are stored HTML, wrapped in `<p>…</p>` paragraphs (WordPress `wpautop`
 * in its simplest form) when they carry no block-level markup of their own.
 */

const BLOCK =
  /<\/?(?:p|div|h[1-6]|ul|ol|li|dl|dt|dd|blockquote|pre|table|thead|tbody|tr|td|th|figure|figcaption|section|article|aside|header|footer|nav|hr|address|form|fieldset|details|summary|main)\b/i;

/**
 * `"Bring a mat."` → `"<p>Bring a mat.</p>"`; blank lines separate paragraphs, single newlines become
 * `<br />`; text that already has block-level markup is returned trimmed, as stored.
 */
export function autop(html: string): string {
  const text = html.replace(/\r\n?/g, "\n").trim();
  if (text === "") return "";
  if (BLOCK.test(text)) return text;
  return text
    .split(/\n\s*\n/)
    .map((p) => `<p>${p.trim().replace(/\n/g, "<br />\n")}</p>`)
    .join("\n");
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  "#039": "'",
};

/** Decodes the common named and all numeric HTML entities. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z0-9]+);/gi, (m, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X"
          ? parseInt(name.slice(2), 16)
          : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[name.toLowerCase()] ?? m;
  });
}

/** Plain text of HTML: tags removed (block ends become line breaks), entities decoded, whitespace tidied. */
export function stripTags(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, "")
      // The source's line break after a <br> is only whitespace: one break, not two.
      .replace(/<br\s*\/?>[^\S\n]*\n?/gi, "\n")
      .replace(/<\/(p|div|li|h[1-6]|tr|blockquote)>/gi, "\n")
      .replace(/<[^>]*>/g, ""),
  )
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * WordPress `sanitize_title`: lower case, accents removed, anything but letters, digits and hyphens
 * turned into hyphens. Used for slugs and for non-numeric cost keys (§4.8).
 */
export function sanitizeTitle(text: string): string {
  return stripTags(text)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&[a-z0-9#]+;/g, "")
    .replace(/['’]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 200);
}
