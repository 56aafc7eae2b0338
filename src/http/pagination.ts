/**
 * Paging of archives (tec-reference §5; contract §4 rows 1, 6, 8): page size clamping, `rest_url`,
 * `next_rest_url`, `previous_rest_url`, and the `X-TEC-*`, `X-WP-*` and `Link` headers.
 */
import type { AppContext } from "./context";
import { formQuery } from "./urls";

/** `per_page` as served: larger values are clamped to `PER_PAGE_MAX` (§5.2, contract §4 row 1). */
export const clampPerPage = (perPage: number, max: number) => Math.min(perPage, max);

/** `ceil(total / per_page)`, 0 when there is nothing (§5.2). */
export const totalPages = (total: number, perPage: number) =>
  total === 0 ? 0 : Math.ceil(total / perPage);

export interface PageLinks {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
}

/**
 * The archive URLs. `rest_url` carries `page` first, then every applied filter; next/previous drop
 * `page` and append it at the end (page 2's previous has none), present iff that page is within
 * `total_pages` (contract §4 row 6).
 * @param base the archive base with trailing slash, e.g. `…/events/`.
 * @param filters applied filters after `page`, in TEC's order.
 */
export function pageLinks(
  base: string,
  page: number,
  pages: number,
  filters: Array<[string, unknown]>,
): PageLinks {
  const links: PageLinks = { rest_url: base + formQuery([["page", page], ...filters]) };
  if (page < pages) links.next_rest_url = base + formQuery([...filters, ["page", page + 1]]);
  if (page > 1 && page - 1 <= pages) {
    links.previous_rest_url =
      base + formQuery(page === 2 ? filters : [...filters, ["page", page - 1]]);
  }
  return links;
}

/** Sets `X-TEC-Total`, `X-TEC-TotalPages`, `X-WP-Total`, `X-WP-TotalPages` and `Link` (rel next/prev). */
export function setPagingHeaders(
  c: AppContext,
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
