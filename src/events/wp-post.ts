/**
 * An event as WordPress's own `wp/v2/tribe_events` answers it (contract §3; WordPress
 * `WP_REST_Posts_Controller::prepare_item_for_response`, `prepare_links`), and the arguments of
 * that route. The post is the stored event — a single event, a recurring series (its first
 * occurrence), or a changed occurrence (an override) — as WordPress holds posts; occurrences the
 * rule gives are not posts.
 *
 * Password protection (§4.7) as everywhere here: unless the request gives the event's password
 * (`GET /wp/v2/tribe_events/{id}?password=…`), `content` and `excerpt` are `""` (`protected: true`,
 * as WordPress sends them in the `view` context, whoever asks), and its image and terms are not
 * shown (`featured_media: 0`, no term ids, no `wp:featuredmedia` link) — TEC hides those of a
 * protected event, so this route does not show them either.
 */
import { type ArgSpecs, arg } from "../http/args";
import { pageArgs, searchArg } from "../http/list-args";
import type { RenderContext } from "../http/render";
import { idFormat, timeInput, wpString } from "../http/validators";
import {
  CURIES,
  contextArg,
  idList,
  offsetArg,
  oneOf,
  orderArg,
  type ReadContext,
  selfLink,
  stringList,
  WP_PAGE,
  type WpLink,
  withLinks,
} from "../http/wp-collection";
import { CATEGORIES, TAGS } from "../terms/taxonomies";
import { autop, stripTags } from "../text/html";
import { type EventRow, rowUrl } from "./record";

/** The post type, its `wp/v2` collection and its taxonomies (by their `wp/v2` rest base). */
export const POST_TYPE = "tribe_events";
const TAXONOMIES = [CATEGORIES, TAGS];

/** The statuses a `status` filter may name; `any` is every one but `trash`. */
export const STATUSES = [
  "publish",
  "future",
  "draft",
  "pending",
  "private",
  "trash",
  "any",
] as const;

/** WordPress's `orderby` of posts (`relevance` aside: search results keep the date order). */
export const ORDERBY = [
  "author",
  "date",
  "id",
  "include",
  "modified",
  "slug",
  "include_slugs",
  "title",
] as const;

const ids = (description: string) =>
  arg({ schema: idList, type: "array", items: { type: "integer" }, description });

/** The term filters: `tribe_events_cat`, `tribe_events_cat_exclude`, `tags`, `tags_exclude`. */
function termFilterArgs(): ArgSpecs {
  const out: ArgSpecs = {};
  for (const info of TAXONOMIES) {
    out[info.wpBase] = ids(`wp.${info.base}`);
    out[`${info.wpBase}_exclude`] = ids(`wp.${info.base}_exclude`);
  }
  return out;
}

/** `GET /wp/v2/tribe_events`: WordPress's collection arguments, in its order. */
export const LIST_ARGS = {
  ...contextArg("wp"),
  ...pageArgs("wp", WP_PAGE),
  ...searchArg("wp", wpString),
  after: arg({ schema: timeInput, type: "string", description: "wp.after" }),
  author: ids("wp.author"),
  before: arg({ schema: timeInput, type: "string", description: "wp.before" }),
  exclude: ids("wp.exclude"),
  include: ids("wp.include"),
  ...offsetArg("wp"),
  ...orderArg("desc"),
  orderby: arg({
    schema: oneOf(ORDERBY),
    default: "date",
    type: "string",
    description: "wp.post_orderby",
  }),
  slug: arg({
    schema: stringList,
    type: "array",
    items: { type: "string" },
    description: "wp.post_slug",
  }),
  status: arg({
    schema: stringList,
    default: "publish",
    type: "array",
    items: { type: "string" },
    description: "wp.status",
  }),
  ...termFilterArgs(),
};

/** `GET /wp/v2/tribe_events/{id}`. */
export const SINGLE_ARGS = {
  id: arg({ schema: idFormat, type: "integer", in: "path", description: "wp.post_identifier" }),
  ...contextArg("wp"),
  password: arg({ schema: wpString, type: "string", description: "wp.password" }),
};

/** The columns of an event the post shows. */
export type PostRow = Pick<
  EventRow,
  | "id"
  | "author"
  | "status"
  | "trashMetaStatus"
  | "slug"
  | "title"
  | "content"
  | "excerpt"
  | "passwordDigest"
  | "postDate"
  | "postDateGmt"
  | "postModified"
  | "postModifiedGmt"
  | "imageId"
  | "occurrenceStart"
>;

/** Words of an excerpt made from the content (WordPress `excerpt_length`). */
const EXCERPT_WORDS = 55;

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The excerpt as WordPress renders it: the post's own, or its content's first 55 words followed by
 * ` [&hellip;]` (`wp_trim_excerpt`), in paragraphs.
 */
function renderedExcerpt(row: PostRow): string {
  if (row.excerpt.trim() !== "") return autop(row.excerpt);
  const words = stripTags(row.content).split(/\s+/).filter(Boolean);
  if (words.length === 0) return "";
  const text = escapeHtml(words.slice(0, EXCERPT_WORDS).join(" "));
  return autop(words.length > EXCERPT_WORDS ? `${text} [&hellip;]` : text);
}

/** `Y-m-d H:i:s` → WordPress's `Y-m-d\TH:i:s`. */
const rfc3339 = (mysql: string) => mysql.replace(" ", "T");

/**
 * The post of an event in a context, with its `_links` (`self`, `collection`, `about`,
 * `wp:featuredmedia`, `wp:term`, `curies`).
 * @param termIds the event's category and tag ids, by `wp/v2` rest base, ordered by name.
 * @param open whether the request opened it (its password; see the module's comment).
 */
export function wpPost(
  ctx: RenderContext,
  row: PostRow,
  termIds: Record<string, number[]>,
  open: boolean,
  context: ReadContext,
) {
  const wp = ctx.urls.wpRoot;
  const shown = open || row.passwordDigest === "";
  const media = shown && row.imageId ? row.imageId : 0;
  const links: Record<string, WpLink[]> = {
    self: selfLink(`${wp}${POST_TYPE}/${row.id}`),
    collection: [{ href: `${wp}${POST_TYPE}` }],
    about: [{ href: `${wp}types/${POST_TYPE}` }],
    ...(media ? { "wp:featuredmedia": [{ embeddable: true, href: `${wp}media/${media}` }] } : {}),
    "wp:term": TAXONOMIES.map((info) => ({
      taxonomy: info.taxonomy,
      embeddable: true,
      href: `${wp}${info.wpBase}?post=${row.id}`,
    })),
    curies: CURIES,
  };
  const isProtected = row.passwordDigest !== "";
  const excerpt = { rendered: shown ? renderedExcerpt(row) : "", protected: isProtected };
  const link = rowUrl(ctx, row);
  const title = { rendered: row.title };
  const author = row.author ?? 0;
  if (context === "embed") {
    const { id, slug } = row;
    const date = rfc3339(row.postDate);
    return withLinks(
      { id, date, slug, type: POST_TYPE, link, title, excerpt, author, featured_media: media },
      links,
    );
  }
  return withLinks(
    {
      id: row.id,
      date: rfc3339(row.postDate),
      date_gmt: rfc3339(row.postDateGmt),
      guid: { rendered: `${ctx.urls.site}/?post_type=${POST_TYPE}&#038;p=${row.id}` },
      modified: rfc3339(row.postModified),
      modified_gmt: rfc3339(row.postModifiedGmt),
      slug: row.slug,
      status: row.status,
      type: POST_TYPE,
      link,
      title,
      content: { rendered: shown ? autop(row.content) : "", protected: isProtected },
      excerpt,
      author,
      featured_media: media,
      template: "",
      meta: [],
      ...Object.fromEntries(
        TAXONOMIES.map((info) => [info.wpBase, shown ? (termIds[info.wpBase] ?? []) : []]),
      ),
    },
    links,
  );
}
