/**
 * The arguments lists share, each declared once (tec-reference §5.2, §6.3; contract §4 row 1, contract §7):
 * `page` and `per_page`, `search`, `modified_after` and `sync_cursor` (incremental sync), and what a list handler
 * makes of them — the page it serves, the instant it compares with, the filters its links echo
 * (§5.4). Every list route of both namespaces takes its specs from here; a list only says under
 * which strings prefix their descriptions are (`events`, `venues`, `categories`, `users`, …).
 */
import type { DateTime } from "luxon";
import * as v from "valibot";
import { WP_FORMAT } from "../time/format";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { type ArgContext, arg, issue } from "./args";
import { clampPerPage } from "./pagination";
import { positiveInt, searchText, timeInput } from "./validators";

/** A fixed page size and its maximum (WordPress `wp/v2` collections: 10 and 100). */
export interface FixedPageSize {
  perPage: number;
  max: number;
}

/**
 * `page` (1 by default) and `per_page`: by default the site's `PER_PAGE_DEFAULT`, larger values
 * clamped by the handler (`pageOf`); with `fixed`, that default and larger values refused (400).
 * @example const LIST_ARGS = { ...pageArgs("venues"), ...searchArg("venues") };
 */
export function pageArgs(prefix: string, fixed?: FixedPageSize) {
  return {
    page: arg({ schema: positiveInt, default: 1, type: "integer", description: `${prefix}.page` }),
    per_page: arg({
      schema: fixed
        ? v.pipe(
            positiveInt,
            v.check((n) => n <= fixed.max, issue("invalid")),
          )
        : positiveInt,
      default: fixed ? fixed.perPage : (c: ArgContext) => c.perPageDefault,
      type: "integer",
      description: `${prefix}.per_page`,
    }),
  };
}

/** `search` (§6.3): a phrase, by default TEC's (control characters removed, capped). */
export const searchArg = (
  prefix: string,
  schema: v.GenericSchema<unknown, string> = searchText,
) => ({
  search: arg({ schema, type: "string", description: `${prefix}.search` }),
});

/** `modified_after` (contract §7): only what was created or changed after that instant. */
export const modifiedAfterArg = (prefix: string) => ({
  modified_after: arg({
    schema: timeInput,
    swaggerType: "string",
    description: `${prefix}.modified_after`,
  }),
});

/**
 * A sync cursor as clients send it back (contract §7.3): the digits of `X-TEC-Sync-Cursor`, or a
 * JSON number; a whole number from 0 up.
 */
const cursorValue = v.pipe(
  v.unknown(),
  v.check(
    (x) =>
      (typeof x === "number" && Number.isSafeInteger(x) && x >= 0) ||
      (typeof x === "string" && /^\d{1,16}$/.test(x) && Number.isSafeInteger(Number(x))),
    issue("invalid"),
  ),
  v.transform((x) => Number(x)),
);

/**
 * `sync_cursor` (contract §7.3): only what changed after the position an earlier answer's
 * `X-TEC-Sync-Cursor` named — by the order in which writes commit, not by a clock.
 */
export const syncCursorArg = (prefix: string) => ({
  sync_cursor: arg({ schema: cursorValue, type: "integer", description: `${prefix}.sync_cursor` }),
});

/** The paging arguments as parsed. */
export type PageValues = { page: number; per_page: number };

/** What a list serves: the page (1-based), its size and its first row. */
export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

/**
 * The page served (§5.2): `per_page` clamped to `max` (`PER_PAGE_MAX`) when given.
 * @example pageOf({ page: 3, per_page: 80 }, 50) // { page: 3, perPage: 50, offset: 100 }
 */
export function pageOf(a: PageValues, max?: number): Page {
  const perPage = max === undefined ? a.per_page : clampPerPage(a.per_page, max);
  return { page: a.page, perPage, offset: (a.page - 1) * perPage };
}

/**
 * The `modified_after` instant as UTC `Y-m-d H:i:s` (inputs without an offset read in the site's
 * zone), or undefined when not sent (contract §7).
 * @example modifiedAfterUtc({ modified_after: "2026-11-22T11:02:00Z" }, "UTC", now) // "2026-11-22 11:02:00"
 */
export function modifiedAfterUtc(
  a: { modified_after?: string },
  siteTimezone: string,
  now: DateTime,
): string | undefined {
  if (a.modified_after === undefined) return undefined;
  const zone = resolveZone(siteTimezone) ?? resolveZone("UTC")!;
  return parseTime(a.modified_after, zone, now)?.toUTC().toFormat(WP_FORMAT);
}

/**
 * The filters a list's links echo (§5.4, contract §4 row 6): the page size first, then `filters`
 * in the list's order, then `modified_after` as sent and `sync_cursor`.
 * @example echoed(12, [["type", ["event"]]], { modified_after: "2026-11-01" })
 *   // [["per_page", 12], ["type", ["event"]], ["modified_after", "2026-11-01"]]
 */
export function echoed(
  perPage: number,
  filters: Array<[string, unknown]>,
  a: { modified_after?: string; sync_cursor?: number } = {},
): Array<[string, unknown]> {
  return [["per_page", perPage], ...filters, ...syncEcho(a)];
}

/** The `sync_cursor` a list was asked for, if any. */
export const syncCursorValue = (a: { sync_cursor?: number }): number | undefined => a.sync_cursor;

/** The sync filters as a list's links echo them: `modified_after` as sent, then `sync_cursor`. */
export const syncEcho = (a: {
  modified_after?: string;
  sync_cursor?: number;
}): Array<[string, unknown]> => [
  ["modified_after", a.modified_after],
  ["sync_cursor", a.sync_cursor],
];

/**
 * The query of one page as another client asks for it (the importers): `per_page`, then `page`
 * when given.
 * @example pageQuery(50, 2) // { per_page: "50", page: "2" }
 */
export function pageQuery(perPage: number | string, page?: number): Record<string, string> {
  return { per_page: String(perPage), ...(page === undefined ? {} : { page: String(page) }) };
}
