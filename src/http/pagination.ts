/**
 * Paging of archives (tec-reference §5; contract §4 rows 1, 6, 8): page size clamping, the paging
 * part of every archive body — `rest_url`, `next_rest_url`, `previous_rest_url`, `total`,
 * `total_pages`: its `/doc` schema, the bodies handlers send, what clients read of it — and the
 * `X-TEC-*`, `X-WP-*` and `Link` headers. The arguments lists share are src/http/list-args.ts.
 */
import * as v from "valibot";
import { d, int, opt, str } from "./schema-kit";
import { formQuery } from "./urls";

/** `per_page` as served: larger values are clamped to `PER_PAGE_MAX` (§5.2, contract §4 row 1). */
export const clampPerPage = (perPage: number, max: number) => Math.min(perPage, max);

/** `ceil(total / per_page)`, 0 when there is nothing (§5.2). */
export const totalPages = (total: number, perPage: number) =>
  total === 0 ? 0 : Math.ceil(total / perPage);

/** §5.1: the paging part of an archive body, in the order `/doc` shows it. */
const PAGING = {
  rest_url: str("archive.rest_url"),
  next_rest_url: opt("archive.next_rest_url"),
  previous_rest_url: opt("archive.previous_rest_url"),
  total: int("archive.total"),
  total_pages: int("archive.total_pages"),
};

/**
 * The `/doc` component of an archive body (§5.1): the list under its key, then the paging.
 * @example const VenueArchive = archive("venues", Venue);
 */
export const archive = <S extends v.GenericSchema>(key: string, item: S) =>
  v.strictObject({ [key]: d(v.array(item), `archive.${key}`), ...PAGING });

/** An archive's links (§5.4). */
export interface PageLinks {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
}

/**
 * The archive URLs. `rest_url` carries `page` first, then every applied filter; next/previous drop
 * `page` and append it at the end (page 2's previous has none), present iff that page is within
 * `total_pages` (contract §4 row 6), or past the end with `linkBack` (term archives answer an
 * empty page there that still links back, §5.3, §5.4).
 * @param base the archive base with trailing slash, e.g. `…/events/`.
 * @param filters applied filters after `page`, in TEC's order.
 */
export function pageLinks(
  base: string,
  page: number,
  pages: number,
  filters: Array<[string, unknown]>,
  linkBack = false,
): PageLinks {
  const links: PageLinks = { rest_url: base + formQuery([["page", page], ...filters]) };
  if (page < pages) links.next_rest_url = base + formQuery([...filters, ["page", page + 1]]);
  if (page > 1 && (page - 1 <= pages || linkBack)) {
    links.previous_rest_url =
      base + formQuery(page === 2 ? filters : [...filters, ["page", page - 1]]);
  }
  return links;
}

/**
 * An archive body (§5.1): the list under its key, the links, `total`, `total_pages`.
 * @example archiveBody("venues", list, links, 31, 3) // { venues: [...], rest_url, next_rest_url, total: 31, total_pages: 3 }
 */
export const archiveBody = <T>(
  key: string,
  list: T[],
  links: PageLinks,
  total: number,
  pages: number,
) => ({ [key]: list, ...links, total, total_pages: pages });

/**
 * A term archive body in TEC's order (§4.4, §5.1): `rest_url`, `total`, `total_pages`, the list,
 * then the next and previous links when there are.
 */
export function termArchiveBody<T>(
  key: string,
  list: T[],
  links: PageLinks,
  total: number,
  pages: number,
) {
  const { rest_url, next_rest_url, previous_rest_url } = links;
  return {
    rest_url,
    total,
    total_pages: pages,
    [key]: list,
    ...(next_rest_url ? { next_rest_url } : {}),
    ...(previous_rest_url ? { previous_rest_url } : {}),
  };
}

/** What a client of an archive reads of its paging (the importers): the next link, the page count. */
export interface ArchivePaging {
  next?: string;
  pages?: number;
}

/** The paging of an archive body another server sent, as far as it is of the documented types. */
export function pagingOf(body: Record<string, unknown>): ArchivePaging {
  const { next_rest_url: next, total_pages: pages } = body;
  return {
    ...(typeof next === "string" ? { next } : {}),
    ...(typeof pages === "number" ? { pages } : {}),
  };
}

/** Where headers go: the request's context (`c.header`). */
export interface HeaderSink {
  header(name: string, value: string): void;
}

/** Sets `X-TEC-Total`, `X-TEC-TotalPages`, `X-WP-Total`, `X-WP-TotalPages` and `Link` (rel next/prev). */
export function setPagingHeaders(
  c: HeaderSink,
  total: number,
  pages: number,
  links: PageLinks,
): void {
  c.header("X-TEC-Total", String(total));
  c.header("X-TEC-TotalPages", String(pages));
  c.header("X-WP-Total", String(total));
  c.header("X-WP-TotalPages", String(pages));
  const rels: string[] = [];
  if (links.previous_rest_url) rels.push(`<${links.previous_rest_url}>; rel="prev"`);
  if (links.next_rest_url) rels.push(`<${links.next_rest_url}>; rel="next"`);
  if (rels.length) c.header("Link", rels.join(", "));
}
