/**
 * The term contracts (tec-reference §4.4): the term as archives and single answers send it (b, c),
 * and as events embed it (a) — each field once, with its `/doc` schema and its column or how it is
 * read — and the `/doc` components `Term` and `EventTerm` and the serializers derived from them.
 */
import * as v from "valibot";
import { readMapping, type WireField, wireSchema } from "../http/contract";
import type { RenderContext } from "../http/render";
import { d, emptyList, int, str } from "../root/schema-kit";
import { type Ancestry, type TermLinks, type TermRow, termPageUrl, termUrls } from "./serialize";

/** What the fields read: the row, and what the answer adds. */
interface TermView {
  ctx: RenderContext;
  term: TermRow;
  ancestry: Ancestry;
  /** WordPress `_links` (single GET/POST/PUT answers only). */
  links?: TermLinks;
}

const taxonomy = d(v.picklist(["tribe_events_cat", "post_tag"]), "term.taxonomy");

/** `urls`: the term's REST URLs. */
const Urls = d(
  v.strictObject({
    self: str("term.urls_self"),
    collection: str("term.urls_collection"),
    up: v.optional(str("term.urls_up")),
  }),
  "term.urls",
);

/** A WordPress `_links` entry of a single term. */
const Link = v.strictObject({
  href: str("link.href"),
  targetHints: v.optional(d(v.strictObject({ allow: v.array(v.string()) }), "link.targetHints")),
  embeddable: v.optional(d(v.boolean(), "link.embeddable")),
  name: v.optional(str("link.name")),
  templated: v.optional(d(v.boolean(), "link.templated")),
});

/** §4.4 (b, c): archive items and single terms; `parent` for categories only. */
export const TERM_FIELDS = {
  id: { out: int("term.id"), column: "id" },
  // Published events using the term.
  count: { out: int("term.count"), column: "count" },
  description: { out: str("term.description"), column: "description" },
  name: { out: str("term.name"), column: "name" },
  slug: { out: str("term.slug"), column: "slug" },
  taxonomy: { out: taxonomy, column: "taxonomy" },
  parent: {
    out: v.optional(int("term.parent")),
    read: (r: TermView) => (r.term.taxonomy === "tribe_events_cat" ? r.term.parent : undefined),
  },
  meta: { out: d(emptyList, "term.meta"), read: () => [] },
  url: { out: str("term.url"), read: (r: TermView) => termPageUrl(r.ctx, r.term, r.ancestry) },
  urls: { out: Urls, read: (r: TermView) => termUrls(r.ctx, r.term) },
  _links: {
    out: v.optional(d(v.record(v.string(), v.array(Link)), "term.links")),
    read: (r: TermView) => r.links,
  },
} satisfies Record<string, WireField<TermView>>;

/** §4.4 (b, c). */
export const Term = wireSchema(TERM_FIELDS);
export type TermObject = v.InferOutput<typeof Term>;

const readTerm = readMapping(TERM_FIELDS, (r: TermView) => r.term);

/**
 * Archive items and single answers (§4.4 b, c): `id, count, description, name, slug, taxonomy,
 * parent` (categories only), `meta, url, urls`, then `_links` when given (single answers).
 */
export const serializeTerm = (
  ctx: RenderContext,
  term: TermRow,
  ancestry: Ancestry,
  links?: TermLinks,
) => readTerm({ ctx, term, ancestry, links }) as TermObject;

type EmbeddedView = { ctx: RenderContext; term: TermRow };

/** §4.4 (a): a term embedded in an event, WordPress's term object. */
export const EMBEDDED_TERM_FIELDS = {
  name: { out: str("term.name"), column: "name" },
  slug: { out: str("term.slug"), column: "slug" },
  term_group: { out: int("term.term_group"), column: "termGroup" },
  term_taxonomy_id: { out: int("term.term_taxonomy_id"), column: "id" },
  taxonomy: { out: taxonomy, column: "taxonomy" },
  description: { out: str("term.description"), column: "description" },
  parent: { out: int("term.parent"), column: "parent" },
  count: { out: int("term.count"), column: "count" },
  filter: { out: str("term.filter"), read: () => "raw" },
  id: { out: int("term.id"), column: "id" },
  urls: { out: Urls, read: (r: EmbeddedView) => termUrls(r.ctx, r.term) },
} satisfies Record<string, WireField<EmbeddedView>>;

/** §4.4 (a). */
export const EventTerm = wireSchema(EMBEDDED_TERM_FIELDS);

const readEmbedded = readMapping(EMBEDDED_TERM_FIELDS, (r: EmbeddedView) => r.term);

/** The term as embedded in an event (§4.4 a). */
export const embeddedTerm = (ctx: RenderContext, term: TermRow) =>
  readEmbedded({ ctx, term }) as v.InferOutput<typeof EventTerm>;
