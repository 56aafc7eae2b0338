/**
 * Archive totals remembered per content version (contract §2, issue 7).
 *
 * `X-WP-Total` of an archive is a `count(*)` over every matching row — at 100,000 events the default
 * window alone is 62,717 index entries — and a client walking the archive page by page (a JAMstack
 * build) asks for the same total on every page. Within one content version a WHERE clause always
 * counts the same, so the isolate keeps the answer, keyed by the count statement's SQL and
 * parameters: anything that changes the match (filters, role-dependent status rules, the clock's
 * day window) changes the key. Every write bumps the version, and a new version empties the map.
 *
 * Only anonymous GETs use it: they alone know the content version (`serveAnonymousGet`: from memory
 * for the lookup, read along with the count's batch for remembering).
 */
import { Memo } from "./memo";

/** Entries kept per isolate (least recently used go first). */
const MAX_ENTRIES = 512;

let current: number | undefined;
const totals = new Memo<number>(MAX_ENTRIES);

/** The cache key of a count statement (`drizzle`'s `toSQL()`). */
export const totalKey = (query: { sql: string; params: unknown[] }): string =>
  JSON.stringify([query.sql, query.params]);

/**
 * The remembered total for `key` at content version `version`, or undefined.
 * @param version undefined (authenticated or no version read) → always undefined.
 */
export function rememberedTotal(version: number | undefined, key: string): number | undefined {
  if (version === undefined || version !== current) return undefined;
  return totals.find(key);
}

/** Remembers `total` for `key` at `version` (ignored without a version). */
export function rememberTotal(version: number | undefined, key: string, total: number): void {
  if (version === undefined) return;
  if (version !== current) {
    // A newer version (or, behind a lagging replica, an older one): nothing kept applies to it.
    current = version;
    totals.clear();
  }
  totals.set(key, total);
}

/** Forgets everything (tests: each starts from a fresh database). */
export function clearTotals(): void {
  current = undefined;
  totals.clear();
}
