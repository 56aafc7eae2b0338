/**
 * The term contracts (tec-reference §4.4, §2.8): the term as archives and single answers send it
 * (b, c), and as events embed it (a) — each field once, with its `/doc` schema, its column or how
 * it is read, and the argument that writes it — and what is derived from them: the `/doc`
 * components `Term` and `EventTerm`, the serializers, and the write arguments of each taxonomy.
 */
import * as v from "valibot";
import { type ArgValues, arg, issue, type Unrequired, unrequired } from "../http/args";
import { argSpecs, readMapping, type WireField, wireSchema } from "../http/contract";
import type { RenderContext } from "../http/render";
import { d, emptyList, int, str } from "../http/schema-kit";
import { idFormat, nonEmptyString } from "../http/validators";
import { type Ancestry, type TermLinks, type TermRow, termPageUrl, termUrls } from "./serialize";
import type { TaxonomyInfo } from "./taxonomies";

/** Longest term name and slug WordPress stores (`wp_terms.name`, `slug`: varchar(200)). */
export const MAX_NAME_LENGTH = 200;

/** `is_string` with a length cap; `name` must hold more than white space. */
const boundedString = (trimmedNonEmpty: boolean) =>
  v.pipe(
    nonEmptyString,
    v.check(
      (x) => x.length <= MAX_NAME_LENGTH && (!trimmedNonEmpty || x.trim() !== ""),
      issue("invalid"),
    ),
  );

/**
 * A term write argument; its description `write_{field}` is under the taxonomy's strings
 * (`args.categories.write_name`, `termWriteArgs`).
 */
const writes = <T>(
  field: string,
  schema: v.GenericSchema<unknown, T>,
  type: "string" | "integer",
) => arg({ schema, type, description: `write_${field}` });

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
  description: {
    out: str("term.description"),
    column: "description",
    arg: writes("description", nonEmptyString, "string"),
  },
  name: {
    out: str("term.name"),
    column: "name",
    arg: arg({
      schema: boundedString(true),
      required: true,
      type: "string",
      description: "write_name",
    }),
  },
  slug: {
    out: str("term.slug"),
    column: "slug",
    arg: writes("slug", boundedString(false), "string"),
  },
  taxonomy: { out: taxonomy, column: "taxonomy" },
  // `0` is the top level.
  parent: {
    out: v.optional(int("term.parent")),
    read: (r: TermView) => (r.term.taxonomy === "tribe_events_cat" ? r.term.parent : undefined),
    arg: writes("parent", idFormat, "integer"),
  },
  meta: { out: d(emptyList, "term.meta"), read: () => [] },
  url: { out: str("term.url"), read: (r: TermView) => termPageUrl(r.ctx, r.term, r.ancestry) },
  urls: { out: Urls, read: (r: TermView) => termUrls(r.ctx, r.term) },
  _links: {
    out: v.optional(d(v.record(v.string(), v.array(Link)), "term.links")),
    read: (r: TermView) => r.links,
  },
} satisfies Record<string, WireField<TermView>>;

/** The term arguments in TEC's order (§2.8). */
const TERM_ARGS = argSpecs(TERM_FIELDS, ["name", "description", "slug", "parent"]);

/** The write arguments of a taxonomy's terms, create's or update's (nothing required). */
export type TermWriteArgs = Unrequired<typeof TERM_ARGS>;

/** Their values as parsed (categories' superset: tags have no `parent`). */
export type TermWriteValues = ArgValues<TermWriteArgs>;

/**
 * `POST /categories`, `/tags` (§2.8): the term's arguments, `name` required; with `create` false,
 * the same unrequired (updates change what they name). `parent` for hierarchical taxonomies only;
 * descriptions under the taxonomy's strings (`categories.write_name`).
 */
export function termWriteArgs(info: TaxonomyInfo, create: boolean): TermWriteArgs {
  const specs: TermWriteArgs = create ? TERM_ARGS : unrequired(TERM_ARGS);
  return Object.fromEntries(
    Object.entries(specs)
      .filter(([name]) => info.hierarchical || name !== "parent")
      .map(([name, a]) => [name, { ...a, description: `${info.base}.${a.description}` }]),
  ) as unknown as TermWriteArgs;
}

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
