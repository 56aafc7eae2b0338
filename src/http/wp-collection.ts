/**
 * What the read-only `wp/v2` routes share (contract §3): WordPress's `context` argument, the
 * paging of its collections (`page`, `per_page` 10 by default and at most 100, `X-WP-Total`,
 * `X-WP-TotalPages`, `Link` rel prev/next built from the request's own query, as
 * `WP_REST_Posts_Controller::get_items` and `WP_REST_Terms_Controller::get_items` build them), the
 * list arguments of its JSON schema (`type: array` of integers or strings, `enum`), and the `_links`
 * of its objects (`curies`, `targetHints`).
 */
import * as v from "valibot";
import { arg, issue } from "./args";
import type { HeaderSink } from "./pagination";
import { formQuery } from "./urls";
import { listToArray, MAX_LIST, wpInteger } from "./validators";

/** The contexts these routes answer in: `view` (the default) and `embed` (what `_embed` asks for). */
export const READ_CONTEXTS = ["view", "embed"] as const;

/** A context of the read-only routes. */
export type ReadContext = (typeof READ_CONTEXTS)[number];

/**
 * A string of a fixed list (WordPress `enum`): "order is not one of asc, desc." otherwise.
 * @example const order = oneOf(["asc", "desc"]);
 */
export const oneOf = <T extends string>(values: readonly T[]) =>
  v.pipe(
    v.unknown(),
    v.check(
      (x) => typeof x === "string" && (values as readonly string[]).includes(x),
      issue("not_in_enum", values.join(", ")),
    ),
    v.transform((x) => x as T),
  );

/**
 * `context` (`view` by default). `edit`, which WordPress gives those who may edit to prepare a
 * write, is not one of them: these routes are read-only, and a post's edit context would carry its
 * password, which this service keeps only as a digest.
 */
export const contextArg = (prefix: string) => ({
  context: arg({
    schema: oneOf(READ_CONTEXTS),
    default: "view",
    type: "string",
    description: `${prefix}.context`,
  }),
});

/**
 * WordPress's `type: array` of `integer` (`include=3,4`, `include[]=3`): non-negative whole
 * numbers, at most `MAX_LIST`; an empty value is the empty list (no filter).
 */
export const idList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) =>
      list.length <= MAX_LIST &&
      list.every(
        (x) => (typeof x === "number" || typeof x === "string") && /^\d+$/.test(String(x).trim()),
      ),
    issue("not_of_type", "array"),
  ),
  v.transform((list) => [...new Set(list.map((x) => Number(String(x).trim())))]),
);

/** WordPress's `type: array` of `string` (`slug=a,b`), at most `MAX_LIST`. */
export const stringList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) => list.length <= MAX_LIST && list.every((x) => typeof x === "string"),
    issue("not_of_type", "array"),
  ),
  v.transform((list) => list as string[]),
);

/** `offset` (WordPress `type: integer`): a whole number of items to skip; below 0 counts as 0. */
export const offsetArg = (prefix: string) => ({
  offset: arg({
    schema: v.pipe(
      wpInteger,
      v.check((n) => Number.isSafeInteger(n), issue("not_of_type", "integer")),
      v.transform((n) => Math.max(0, n)),
    ),
    type: "integer",
    description: `${prefix}.offset`,
  }),
});

/** `order` (WordPress's `asc`/`desc`) with the collection's default: posts `desc`, terms `asc`. */
export const orderArg = (fallback: "asc" | "desc") => ({
  order: arg({
    schema: oneOf(["asc", "desc"]),
    default: fallback,
    type: "string",
    description: "wp.order",
  }),
});

/** `page` and `per_page` as WordPress's collections take them (10 by default, at most 100). */
export const WP_PAGE = { perPage: 10, max: 100 };

/**
 * The request's query as the links of its other pages repeat it: what the client sent of `args`
 * (in their order, as parsed; `page` and the context's default left out), then `page`.
 * @example pageUrl(base, ["per_page", "search"], values, sent, 3) // "…?per_page=2&search=jazz&page=3"
 */
function pageUrl(
  base: string,
  names: string[],
  values: Record<string, unknown>,
  sent: ReadonlySet<string>,
  page: number,
): string {
  const pairs: Array<[string, unknown]> = names
    .filter((name) => name !== "page" && sent.has(name))
    .map((name) => [name, values[name]]);
  return base + formQuery([...pairs, ["page", page]]);
}

/**
 * The paging headers of a `wp/v2` collection: `X-WP-Total`, `X-WP-TotalPages`, and `Link` with
 * `rel="prev"` (the last page when past the end) and `rel="next"`, each repeating the request's
 * arguments.
 * @param base the collection's URL, e.g. `…/wp-json/wp/v2/tags`.
 * @param args the route's argument specs (their order), `values` and `sent` as `parseArgs` gives them.
 */
export function setWpPaging<S extends Record<string, unknown>>(
  c: HeaderSink,
  base: string,
  args: S,
  parsed: { values: object; sent: ReadonlySet<string> },
  page: { page: number; total: number; pages: number },
): void {
  c.header("X-WP-Total", String(page.total));
  c.header("X-WP-TotalPages", String(page.pages));
  const names = Object.keys(args);
  const values = parsed.values as Record<string, unknown>;
  const rels: string[] = [];
  if (page.page > 1) {
    const prev = Math.min(page.page - 1, Math.max(page.pages, 1));
    rels.push(`<${pageUrl(base, names, values, parsed.sent, prev)}>; rel="prev"`);
  }
  if (page.page < page.pages)
    rels.push(`<${pageUrl(base, names, values, parsed.sent, page.page + 1)}>; rel="next"`);
  if (rels.length) c.header("Link", rels.join(", "));
}

/** A `_links` entry of a `wp/v2` object. */
export interface WpLink {
  href: string;
  embeddable?: boolean;
  targetHints?: { allow: string[] };
  taxonomy?: string;
  name?: string;
  templated?: boolean;
}

/** WordPress's `curies` relation: `wp:…` stands for `https://api.w.org/…`. */
export const CURIES: WpLink[] = [{ name: "wp", href: "https://api.w.org/{rel}", templated: true }];

/**
 * An object with WordPress's `_links` (relation → links) after its fields, as every `wp/v2` object
 * and index sends them.
 * @example withLinks({ id: 3 }, { self: selfLink(url) }) // { id: 3, _links: { self: [...] } }
 */
export const withLinks = <T extends object>(
  object: T,
  links: Record<string, Array<WpLink | { href: string }>>,
) => ({ ...object, _links: links });

/** The `self` link of an object of a read-only route: its URL, and `GET` as the one method there. */
export const selfLink = (href: string): WpLink[] => [{ href, targetHints: { allow: ["GET"] } }];
