/**
 * Terms (tec-reference §4.4): what their shapes (src/terms/contract.ts) are built from — the public
 * `url`, the `urls` block they share, the WordPress `_links` of single responses — and their order.
 */
import type { Taxonomy, terms } from "../db/schema";
import type { RenderContext } from "../http/render";
import { CURIES, selfLink, type WpLink } from "../http/wp-collection";
import type { TaxonomyInfo } from "./taxonomies";

export type TermRow = typeof terms.$inferSelect;

/** WordPress `_links` of a term: relation → links. */
export type TermLinks = Record<string, WpLink[]>;

/** REST base of a taxonomy: `categories` or `tags`. */
export const restBase = (taxonomy: Taxonomy) =>
  taxonomy === "tribe_events_cat" ? "categories" : "tags";

/** `urls`: `self`, `collection`, and `up` when the term has a parent. */
export function termUrls(ctx: RenderContext, term: Pick<TermRow, "id" | "taxonomy" | "parent">) {
  const base = `${ctx.urls.namespaceRoot}${restBase(term.taxonomy)}`;
  return {
    self: `${base}/${term.id}`,
    collection: base,
    ...(term.parent ? { up: `${base}/${term.parent}` } : {}),
  };
}

/** One collator for every comparison: `localeCompare` with options builds one per call. */
const names = new Intl.Collator("en", { sensitivity: "base" });

/** Sorts terms by name, as WordPress lists an event's terms. */
export const byName = (a: TermRow, b: TermRow) => names.compare(a.name, b.name) || a.id - b.id;

/** Categories above terms, by id (rows of `ancestorsQuery`), for the public links of nested categories. */
export type Ancestry = Map<number, { parent: number; slug: string }>;

export const ancestryOf = (
  rows: Array<{ id: number; parent: number; slug: string }> = [],
): Ancestry => new Map(rows.map((r) => [r.id, { parent: r.parent, slug: r.slug }]));

/**
 * The term's public page (contract §1): `{site}/events/category/{ancestor slugs/}{slug}/` for
 * categories, `{site}/tag/{slug}/` for tags.
 * @example termPageUrl(ctx, bebop, ancestry) // "https://example.com/events/category/music/jazz/bebop/"
 */
export function termPageUrl(
  ctx: RenderContext,
  term: Pick<TermRow, "taxonomy" | "parent" | "slug">,
  ancestry: Ancestry,
): string {
  const slugs = [term.slug];
  const seen = new Set<number>();
  for (let p = term.parent; p && !seen.has(p); ) {
    seen.add(p);
    const up = ancestry.get(p);
    if (!up) break;
    slugs.unshift(up.slug);
    p = up.parent;
  }
  const path = slugs.map(encodeURIComponent).join("/");
  return term.taxonomy === "tribe_events_cat"
    ? `${ctx.urls.site}/events/category/${path}/`
    : `${ctx.urls.site}/tag/${path}/`;
}

/**
 * WordPress `_links` of a term (`WP_REST_Terms_Controller::prepare_links`, §4.4): `self`,
 * `collection`, `about` (its taxonomy), `up` (its parent, embeddable), `wp:post_type` (the events
 * filtered by it) and `curies`. They point at the read-only `wp/v2` routes, which answer here
 * (contract §3), as the original's do; `self` says that `GET` is the method there. The tribe term
 * routes' single answers send them, and every `wp/v2` term.
 */
export function termLinks(
  ctx: RenderContext,
  info: TaxonomyInfo,
  term: Pick<TermRow, "id" | "parent">,
): TermLinks {
  const wp = ctx.urls.wpRoot;
  return {
    self: selfLink(`${wp}${info.wpBase}/${term.id}`),
    collection: [{ href: `${wp}${info.wpBase}` }],
    about: [{ href: `${wp}taxonomies/${info.taxonomy}` }],
    ...(term.parent
      ? { up: [{ href: `${wp}${info.wpBase}/${term.parent}`, embeddable: true }] }
      : {}),
    "wp:post_type": info.postTypes.map((type) => ({
      href: `${wp}${type}?${info.wpBase}=${term.id}`,
    })),
    curies: CURIES,
  };
}
