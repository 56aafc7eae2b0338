/**
 * The `style` attribute in filtered HTML (§8.2, contract §4): WordPress's `safecss_filter_attr`
 * (wp-includes/kses.php, WordPress 6.9), which `wp_kses_attr_check` runs on every `style` of the
 * allowed post HTML — descriptions and excerpts of events, venues and organizers alike.
 *
 * A declaration is kept only when its property is one WordPress allows (or a custom property,
 * `--name`), each `url()` in it (where the property takes one) has an allowed URL, and what is left
 * once those `url()`s, a plain gradient and the functions `var()`, `calc()`, `min()`, `max()`,
 * `minmax()`, `clamp()` and `repeat()` are taken out holds none of `\ ( & } =` and no comment. So
 * `expression(…)`, `u\rl(…)`, `url(javascript:…)`, `url(data:…)` and `behavior:…` go; `color:red`
 * and `background:url(https://…)` stay.
 *
 * Read here as a browser reads it: the filter gets the attribute's value with its character
 * references decoded (as WordPress 7's HTML API gives it), so `&#92;` is a backslash like `\`.
 * URLs are checked as URL attributes are (src/text/kses-urls.ts `allowedUrl`, the schemes of
 * `wp_allowed_protocols()`), where WordPress asks that `wp_kses_bad_protocol` leave the URL as it
 * is (so it also drops `url(HTTPS://…)` and relative URLs with a colon, which are harmless). One
 * rule is stricter than WordPress's: a declaration with a backslash anywhere goes, also inside
 * `url()` or `calc()`, where WordPress lets CSS escapes (`url(javascript\3a …)`) through.
 */
import { allowedUrl } from "./kses-urls";

/** `safe_style_css`: the properties WordPress allows in a `style` attribute. */
const PROPERTIES: ReadonlySet<string> = new Set(
  [
    "background background-color background-image background-position background-repeat",
    "background-size background-attachment background-blend-mode",
    "border border-radius border-width border-color border-style",
    "border-right border-right-color border-right-style border-right-width",
    "border-bottom border-bottom-color border-bottom-left-radius border-bottom-right-radius",
    "border-bottom-style border-bottom-width",
    "border-left border-left-color border-left-style border-left-width",
    "border-top border-top-color border-top-left-radius border-top-right-radius border-top-style",
    "border-top-width",
    "border-spacing border-collapse caption-side",
    "columns column-count column-fill column-gap column-rule column-span column-width",
    "display",
    "color filter font font-family font-size font-style font-variant font-weight",
    "letter-spacing line-height text-align text-decoration text-indent text-transform white-space",
    "height min-height max-height width min-width max-width",
    "margin margin-right margin-bottom margin-left margin-top",
    "margin-block-start margin-block-end margin-inline-start margin-inline-end",
    "padding padding-right padding-bottom padding-left padding-top",
    "padding-block-start padding-block-end padding-inline-start padding-inline-end",
    "flex flex-basis flex-direction flex-flow flex-grow flex-shrink flex-wrap",
    "gap column-gap row-gap",
    "grid-template-columns grid-auto-columns grid-column-start grid-column-end grid-column",
    "grid-column-gap grid-template-rows grid-auto-rows grid-row-start grid-row-end grid-row",
    "grid-row-gap grid-gap",
    "justify-content justify-items justify-self align-content align-items align-self",
    "clear cursor direction float list-style-type object-fit object-position opacity overflow",
    "vertical-align writing-mode",
    "position top right bottom left z-index box-shadow aspect-ratio container-type",
  ]
    .join(" ")
    .split(" "),
);

/** `$css_url_data_types`: the properties whose value may hold `url()`. */
const URL_PROPERTIES: ReadonlySet<string> = new Set([
  "background",
  "background-image",
  "cursor",
  "filter",
  "list-style",
  "list-style-image",
]);

/** `$css_gradient_data_types`: the properties whose value may be a gradient. */
const GRADIENT_PROPERTIES: ReadonlySet<string> = new Set(["background", "background-image"]);

/** A custom property (`--gap`), which WordPress allows a value for (`'--*'`). */
const CUSTOM_PROPERTY = /^--[a-zA-Z0-9-_]+$/;
/** `url(…)` up to the first `)`, as WordPress finds them ("simplified"). */
const URL_CALLS = /url\([^)]+\)/g;
/** The URL of a `url(…)`, without its quotes. */
const URL_PIECES = /^url\(\s*(['"]?)(.*)(\1)\s*\)$/s;
/** A value that is one plain gradient. */
const GRADIENT = /^(repeating-)?(linear|radial|conic)-gradient\(([^()]|rgba?\([^()]*\))*\)$/;
/** The functions whose arguments WordPress does not test (each with balanced parentheses). */
const FUNCTIONS = /\b(?:var|calc|min|max|minmax|clamp|repeat)\(/g;
/** What a declaration may not hold outside those: `\ ( & } =` or a comment. */
const UNSAFE = /[\\(&=}]|\/\*/;

/** PHP's `trim`: spaces, tabs, line breaks, NUL and vertical tabs at either end. */
const phpTrim = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL and vertical tab are what PHP trims.
  text.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, "");

/** PHP's `empty` on a string: `""` and `"0"`. */
const phpEmpty = (text: string | undefined) => text === undefined || text === "" || text === "0";

/**
 * `wp_kses_no_null`: control characters (but tab and line breaks) removed, and backslashes followed
 * by zeros (`\0`, `\\00`).
 */
const noNull = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes.
  text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, "").replace(/\\+0+/g, "");

/**
 * The end (index after the closing parenthesis) of the balanced group that opens at `open`, or -1
 * when it does not close (PCRE's recursive `(\((?:[^()]|(?1))*\))`).
 */
function closingOf(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i + 1;
  }
  return -1;
}

/** `text` without the calls of `FUNCTIONS` whose parentheses balance, left to right. */
function withoutFunctions(text: string): string {
  let out = "";
  let from = 0;
  for (const m of text.matchAll(FUNCTIONS)) {
    if (m.index < from) continue; // inside a call already taken out
    const end = closingOf(text, m.index + m[0].length - 1);
    if (end === -1) continue;
    out += text.slice(from, m.index);
    from = end;
  }
  return out + text.slice(from);
}

/** Whether one trimmed declaration (`color:red`, or text without a colon) is kept. */
function keeps(declaration: string): boolean {
  if (declaration.includes("\\")) return false;
  const colon = declaration.indexOf(":");
  // WordPress keeps text without a colon when it holds nothing unsafe.
  if (colon === -1) return !UNSAFE.test(withoutFunctions(declaration));
  const property = phpTrim(declaration.slice(0, colon));
  const value = declaration.slice(colon + 1);
  const custom = CUSTOM_PROPERTY.test(property);
  if (!custom && !PROPERTIES.has(property)) return false;
  const takesUrl = custom ? phpTrim(value).startsWith("url(") : URL_PROPERTIES.has(property);
  const takesGradient = custom ? value.includes("-gradient(") : GRADIENT_PROPERTIES.has(property);
  let test = declaration;
  if (takesUrl) {
    for (const [call] of value.matchAll(URL_CALLS)) {
      const pieces = URL_PIECES.exec(call);
      if (phpEmpty(pieces?.[2])) return false;
      const url = phpTrim(pieces?.[2] ?? "");
      if (phpEmpty(url) || !allowedUrl(url)) return false;
      test = test.replaceAll(call, "");
    }
  }
  if (takesGradient) {
    const gradient = phpTrim(value);
    if (GRADIENT.test(gradient)) test = test.replaceAll(gradient, "");
  }
  return !UNSAFE.test(withoutFunctions(test));
}

/**
 * WordPress `safecss_filter_attr`: the declarations of a `style` value that are kept, joined as
 * WordPress joins them (`;`, without a last one). `""` or `"0"` (PHP's empty) means the attribute
 * goes.
 * @param css the attribute's value as a browser reads it (character references decoded).
 * @example safecssFilterAttr("color:red;background:u\\rl(javascript:alert(1))") // "color:red"
 * @example safecssFilterAttr("width:expression(alert(1))")                     // ""
 */
export function safecssFilterAttr(css: string): string {
  const declarations = phpTrim(noNull(css).replace(/[\n\r\t]/g, "")).split(";");
  let kept = "";
  for (const item of declarations) {
    if (item === "") continue;
    const declaration = phpTrim(item);
    if (!keeps(declaration)) continue;
    if (kept !== "") kept += ";";
    kept += declaration;
  }
  return kept;
}
