/**
 * Terms (tec-reference §4.4): the shape embedded in events (a), and the `urls` block shared with the
 * archive and single shapes.
 */
import type { Taxonomy, terms } from "../db/schema";
import type { RenderContext } from "../http/render";

export type TermRow = typeof terms.$inferSelect;

/** REST base of a taxonomy: `categories` or `tags`. */
export const restBase = (taxonomy: Taxonomy) => (taxonomy === "tribe_events_cat" ? "categories" : "tags");

/** `urls`: `self`, `collection`, and `up` when the term has a parent. */
export function termUrls(ctx: RenderContext, term: Pick<TermRow, "id" | "taxonomy" | "parent">) {
  const base = `${ctx.urls.namespaceRoot}${restBase(term.taxonomy)}`;
  return {
    self: `${base}/${term.id}`,
    collection: base,
    ...(term.parent ? { up: `${base}/${term.parent}` } : {}),
  };
}

/** The term as embedded in an event (§4.4 a). */
export function embeddedTerm(ctx: RenderContext, term: TermRow) {
  return {
    name: term.name,
    slug: term.slug,
    term_group: term.termGroup,
    term_taxonomy_id: term.id,
    taxonomy: term.taxonomy,
    description: term.description,
    parent: term.parent,
    count: term.count,
    filter: "raw",
    id: term.id,
    urls: termUrls(ctx, term),
  };
}

/** Sorts terms by name, as WordPress lists an event's terms. */
export const byName = (a: TermRow, b: TermRow) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.id - b.id;
