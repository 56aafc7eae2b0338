/**
 * `wp/v2/types` and `wp/v2/taxonomies` (contract §3; WordPress `WP_REST_Post_Types_Controller`,
 * `WP_REST_Taxonomies_Controller`): what the `about` links of terms and posts name. This site has
 * one post type in the REST API, `tribe_events`, and its two taxonomies, event categories
 * (`tribe_events_cat`) and tags (`post_tag`). Names are the labels of the request's language
 * (strings `site.labels.*`); the fields are WordPress's of the `view` and `embed` contexts. They
 * read no data (an anonymous answer's one D1 round trip is the content version the read cache
 * keys it by).
 */
import { type ArgSpecs, arg, parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { ApiError } from "../http/errors";
import { anyone, type Endpoint, type Permit, type RouteDef } from "../http/registry";
import { wpString } from "../http/validators";
import { CURIES, contextArg, type ReadContext, withLinks } from "../http/wp-collection";
import { loadStrings, type Strings, text } from "../i18n";
import { CATEGORIES, TAGS, type TaxonomyInfo } from "../terms/taxonomies";

/** A post type of `wp/v2/types`. */
interface PostType {
  slug: string;
  /** Its collection under `wp/v2`. */
  restBase: string;
  hierarchical: boolean;
  taxonomies: TaxonomyInfo[];
}

/** The post types in the REST API, in WordPress's registration order. */
const POST_TYPES: PostType[] = [
  {
    slug: "tribe_events",
    restBase: "tribe_events",
    hierarchical: false,
    taxonomies: [CATEGORIES, TAGS],
  },
];

/** The taxonomies in the REST API, in WordPress's registration order (`post_tag` is core's). */
const TAXONOMIES: TaxonomyInfo[] = [TAGS, CATEGORIES];

const label = (strings: Strings, slug: string) => text(strings, `site.labels.${slug}`);

/**
 * A post type as WordPress sends it: `description, hierarchical, name, slug, taxonomies,
 * rest_base, rest_namespace` (`embed`: `name, slug, rest_base, rest_namespace`), then `_links`
 * (`collection`, `wp:items`, `curies`).
 */
function typeObject(wp: string, strings: Strings, type: PostType, context: ReadContext) {
  const links = {
    collection: [{ href: `${wp}types` }],
    "wp:items": [{ href: `${wp}${type.restBase}` }],
    curies: CURIES,
  };
  const name = label(strings, type.slug);
  const rest = { rest_base: type.restBase, rest_namespace: "wp/v2" };
  if (context === "embed") return withLinks({ name, slug: type.slug, ...rest }, links);
  return withLinks(
    {
      description: "",
      hierarchical: type.hierarchical,
      name,
      slug: type.slug,
      taxonomies: type.taxonomies.map((t) => t.taxonomy),
      ...rest,
    },
    links,
  );
}

/**
 * A taxonomy as WordPress sends it: `name, slug, description, types, hierarchical, rest_base,
 * rest_namespace` (`embed`: `name, slug, rest_base, rest_namespace`), then `_links`
 * (`collection`, `wp:items`, `curies`).
 */
function taxonomyObject(wp: string, strings: Strings, info: TaxonomyInfo, context: ReadContext) {
  const links = {
    collection: [{ href: `${wp}taxonomies` }],
    "wp:items": [{ href: `${wp}${info.wpBase}` }],
    curies: CURIES,
  };
  const named = { name: label(strings, info.taxonomy), slug: info.taxonomy };
  const rest = { rest_base: info.wpBase, rest_namespace: "wp/v2" };
  if (context === "embed") return withLinks({ ...named, ...rest }, links);
  const types = POST_TYPES.filter((t) => t.taxonomies.includes(info)).map((t) => t.slug);
  return withLinks(
    { ...named, description: "", types, hierarchical: info.hierarchical, ...rest },
    links,
  );
}

const CONTEXT = contextArg("wp");

/** `GET /types` (and what `GET /taxonomies` takes besides `type`): `context`. */
export const TYPE_LIST_ARGS = CONTEXT;

/** `GET /types/{type}` (the path's `type`, `context`). */
export const TYPE_ARGS = {
  type: arg({ schema: wpString, type: "string", in: "path", description: "wp.type" }),
  ...CONTEXT,
};

/** `GET /taxonomies`: `context`, and `type` (the taxonomies of that post type). */
export const TAXONOMY_LIST_ARGS = {
  ...CONTEXT,
  type: arg({ schema: wpString, type: "string", description: "wp.taxonomy_type" }),
};

/** `GET /taxonomies/{taxonomy}` (the path's `taxonomy`, `context`). */
export const TAXONOMY_ARGS = {
  taxonomy: arg({ schema: wpString, type: "string", in: "path", description: "wp.taxonomy" }),
  ...CONTEXT,
};

/** What every handler here starts with: its arguments, the strings and the `wp/v2` root. */
async function prepare(c: AppContext, specs: ArgSpecs) {
  const { values } = parseArgs(specs, await requestParams(c), argContext(c));
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  return { values: values as Record<string, string>, strings, wp: c.get("urls").wpRoot };
}

/**
 * `GET /types` (`{slug: type}`), `GET /types/{type}`, `GET /taxonomies` (`{slug: taxonomy}`, with
 * `type`: the taxonomies of that post type, `{}` for none) and `GET /taxonomies/{taxonomy}`.
 * Unknown names: 404 `rest_type_invalid`, `rest_taxonomy_invalid`.
 */
export function wpTypeRoutes(): Array<RouteDef<Permit>> {
  const get = (
    args: ArgSpecs,
    handler: (c: AppContext) => Promise<Response>,
  ): Endpoint<Permit> => ({ methods: ["GET"], args, may: anyone, handler });
  return [
    {
      path: "/types",
      endpoints: [
        get(CONTEXT, async (c) => {
          const { values, strings, wp } = await prepare(c, CONTEXT);
          const context = values.context as ReadContext;
          return c.json(
            Object.fromEntries(
              POST_TYPES.map((t) => [t.slug, typeObject(wp, strings, t, context)]),
            ),
          );
        }),
      ],
    },
    {
      path: "/types/{type}",
      endpoints: [
        get(TYPE_ARGS, async (c) => {
          const { values, strings, wp } = await prepare(c, TYPE_ARGS);
          const type = POST_TYPES.find((t) => t.slug === values.type);
          if (!type) throw new ApiError(404, "rest_type_invalid");
          return c.json(typeObject(wp, strings, type, values.context as ReadContext));
        }),
      ],
    },
    {
      path: "/taxonomies",
      endpoints: [
        get(TAXONOMY_LIST_ARGS, async (c) => {
          const { values, strings, wp } = await prepare(c, TAXONOMY_LIST_ARGS);
          const of = values.type ? POST_TYPES.find((t) => t.slug === values.type) : undefined;
          const listed = values.type
            ? TAXONOMIES.filter((t) => of?.taxonomies.includes(t))
            : TAXONOMIES;
          const context = values.context as ReadContext;
          return c.json(
            Object.fromEntries(
              listed.map((t) => [t.taxonomy, taxonomyObject(wp, strings, t, context)]),
            ),
          );
        }),
      ],
    },
    {
      path: "/taxonomies/{taxonomy}",
      endpoints: [
        get(TAXONOMY_ARGS, async (c) => {
          const { values, strings, wp } = await prepare(c, TAXONOMY_ARGS);
          const info = TAXONOMIES.find((t) => t.taxonomy === values.taxonomy);
          if (!info) throw new ApiError(404, "rest_taxonomy_invalid");
          return c.json(taxonomyObject(wp, strings, info, values.context as ReadContext));
        }),
      ],
    },
  ];
}
