/**
 * WordPress's HTML filter for users without `unfiltered_html` (WordPress `kses`): what
 * authors and contributors write is reduced to WordPress's allowed HTML before it is stored —
 * descriptions and excerpts to the allowed *post* HTML (`wp_kses_post`, `$allowedposttags`), titles,
 * names and term descriptions to the smaller allowed *data* HTML (`wp_filter_kses`, `$allowedtags`).
 * Editors and administrators have `unfiltered_html` and keep what they send, as in WordPress.
 *
 * The parsing and filtering is js-xss's (`xss`); the policy — which tags, which attributes, which
 * URL protocols — is WordPress's, written down here and, for URLs, in `kses-urls.ts`.
 */

import { decodeHTMLAttribute } from "entities";
import type * as Xss from "xss";
import xss, { type IWhiteList } from "xss";
import { type AuthUser, can } from "../access/capabilities";
import { safecssFilterAttr } from "./kses-css";
import { srcsetAttribute, URL_ATTRIBUTES, urlAttribute } from "./kses-urls";

// A CommonJS module: its named exports are properties of the default export under every bundler.
const { escapeAttrValue, FilterXSS, safeAttrValue } = xss as unknown as typeof Xss;

/** `_wp_add_global_attributes`: allowed on every tag of the post list (plus `data-*`, `aria-*`). */
const GLOBAL = ["class", "id", "style", "title", "role", "dir", "lang", "xml:lang", "hidden"];

const ALIGN = ["align"];
const CELL = ["align", "char", "charoff", "valign"];

/** `$allowedposttags` (wp-includes/kses.php), without the global attributes. */
const POST_TAGS: Record<string, string[]> = {
  address: [],
  a: ["href", "rel", "rev", "name", "target", "download", "hreflang", "media", "type"],
  abbr: [],
  acronym: [],
  area: ["alt", "coords", "href", "nohref", "shape", "target"],
  article: ALIGN,
  aside: ALIGN,
  audio: ["autoplay", "controls", "loop", "muted", "preload", "src"],
  b: [],
  bdo: [],
  big: [],
  blockquote: ["cite"],
  br: [],
  button: ["disabled", "name", "type", "value"],
  caption: ALIGN,
  cite: [],
  code: [],
  col: [...CELL, "span", "width"],
  colgroup: [...CELL, "span", "width"],
  del: ["datetime"],
  dd: [],
  dfn: [],
  details: ["align", "open"],
  div: ALIGN,
  dl: [],
  dt: [],
  em: [],
  fieldset: [],
  figure: ALIGN,
  figcaption: ALIGN,
  font: ["color", "face", "size"],
  footer: ALIGN,
  h1: ALIGN,
  h2: ALIGN,
  h3: ALIGN,
  h4: ALIGN,
  h5: ALIGN,
  h6: ALIGN,
  header: ALIGN,
  hgroup: ALIGN,
  hr: ["align", "noshade", "size", "width"],
  i: [],
  img: [
    "alt",
    "align",
    "border",
    "height",
    "hspace",
    "loading",
    "longdesc",
    "vspace",
    "src",
    "usemap",
    "width",
    "decoding",
    "srcset",
    "sizes",
  ],
  ins: ["datetime", "cite"],
  kbd: [],
  label: ["for"],
  legend: ALIGN,
  li: ["align", "value"],
  main: ALIGN,
  map: ["name"],
  mark: [],
  menu: ["type"],
  nav: ALIGN,
  p: ALIGN,
  pre: ["width"],
  q: ["cite"],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  span: ALIGN,
  section: ALIGN,
  small: [],
  strike: [],
  strong: [],
  sub: [],
  summary: ALIGN,
  sup: [],
  table: ["align", "bgcolor", "border", "cellpadding", "cellspacing", "rules", "summary", "width"],
  tbody: CELL,
  td: [
    ...CELL,
    "abbr",
    "axis",
    "bgcolor",
    "colspan",
    "headers",
    "height",
    "nowrap",
    "rowspan",
    "scope",
    "width",
  ],
  textarea: ["cols", "rows", "disabled", "name", "readonly"],
  tfoot: CELL,
  th: [
    ...CELL,
    "abbr",
    "axis",
    "bgcolor",
    "colspan",
    "headers",
    "height",
    "nowrap",
    "rowspan",
    "scope",
  ],
  thead: CELL,
  title: [],
  tr: [...CELL, "bgcolor"],
  track: ["default", "kind", "label", "src", "srclang"],
  tt: [],
  u: [],
  ul: ["type"],
  ol: ["start", "type", "reversed"],
  var: [],
  video: [
    "autoplay",
    "controls",
    "height",
    "loop",
    "muted",
    "playsinline",
    "poster",
    "preload",
    "src",
    "width",
  ],
};

/** `$allowedtags`: what comments, titles and term descriptions may hold. */
const DATA_TAGS: Record<string, string[]> = {
  a: ["href", "title"],
  abbr: ["title"],
  acronym: ["title"],
  b: [],
  blockquote: ["cite"],
  cite: [],
  code: [],
  del: ["datetime"],
  em: [],
  i: [],
  q: ["cite"],
  s: [],
  strike: [],
  strong: [],
};

/**
 * A `style` attribute as `wp_kses_attr_check` keeps it: its value as a browser reads it (character
 * references decoded) through `safecss_filter_attr`, served between double quotes; `""` (the
 * attribute goes) when no declaration is left.
 * @example styleAttribute("color:red;width:expression(alert(1))") // 'style="color:red"'
 */
function styleAttribute(value: string): string {
  const css = safecssFilterAttr(decodeHTMLAttribute(value));
  if (css === "" || css === "0") return "";
  return `style="${css.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}"`;
}

function filterFor(tags: Record<string, string[]>, globals: boolean) {
  const whiteList: IWhiteList = Object.fromEntries(
    Object.entries(tags).map(([tag, attrs]) => [tag, globals ? [...attrs, ...GLOBAL] : attrs]),
  );
  return new FilterXSS({
    whiteList,
    // Disallowed tags go, their text stays; script and style bodies go with them.
    stripIgnoreTag: true,
    stripIgnoreTagBody: ["script", "style"],
    allowCommentTag: false,
    // `style` is WordPress's `safecss_filter_attr` (`styleAttribute`), never js-xss's own CSS filter.
    css: false,
    onTagAttr(_tag, name, value, isWhiteAttr) {
      if (name === "style" && isWhiteAttr) return styleAttribute(value);
      return undefined;
    },
    safeAttrValue(tag, name, value, cssFilter) {
      if (URL_ATTRIBUTES.has(name)) return urlAttribute(value);
      if (name === "srcset") return srcsetAttribute(value);
      return safeAttrValue(tag, name, value, cssFilter);
    },
    onIgnoreTagAttr(tag, name, value) {
      // `data-*` and `aria-*` are global attributes in WordPress's post list.
      if (globals && tags[tag] && /^(data-[a-z0-9_.-]+|aria-[a-z]+)$/.test(name)) {
        return `${name}="${escapeAttrValue(value)}"`;
      }
      return undefined;
    },
  });
}

const POST_FILTER = filterFor(POST_TAGS, true);
const DATA_FILTER = filterFor(DATA_TAGS, false);

/**
 * `wp_kses_post`: allowed post HTML (descriptions, excerpts).
 * @example ksesPost('<p onclick="x()">Hi<script>alert(1)</script></p>') // "<p>Hi</p>"
 */
export const ksesPost = (html: string): string => POST_FILTER.process(html);

/**
 * `wp_filter_kses`: allowed data HTML (titles, names, term descriptions).
 * @example ksesData('<b>Jazz</b> <img src=x onerror=alert(1)>') // "<b>Jazz</b> "
 */
export const ksesData = (html: string): string => DATA_FILTER.process(html);

/** The HTML filters a user's writes go through: none with `unfiltered_html`, kses otherwise. */
export interface HtmlFilters {
  /** Descriptions and excerpts. */
  post(html: string): string;
  /** Titles, names and term descriptions. */
  data(html: string): string;
}

const UNFILTERED: HtmlFilters = { post: (html) => html, data: (html) => html };
const FILTERED: HtmlFilters = { post: ksesPost, data: ksesData };

/**
 * The filters for a writer (WordPress `kses_init`): editors and administrators keep their HTML,
 * authors and contributors get WordPress's allowed HTML.
 */
export const htmlFiltersFor = (user: AuthUser | null): HtmlFilters =>
  can(user, "unfiltered_html") ? UNFILTERED : FILTERED;
