/**
 * Unique slugs, the WordPress way (`wp_unique_post_slug`): the sanitized title, then `-2`, `-3`, …
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { sanitizeTitle } from "../text/html";

/** The slug base for a requested slug or, failing that, the title; never empty. */
export function slugBase(requested: string | undefined, title: string, fallback: string): string {
  return sanitizeTitle(requested ?? "") || sanitizeTitle(title) || fallback;
}

/**
 * The first free slug among `base`, `base-2`, `base-3`, … given the slugs already taken (from D1 and
 * from earlier items of the same write). The result is added to `taken`.
 */
export function uniqueSlug(base: string, taken: Set<string>): string {
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  taken.add(slug);
  return slug;
}

/**
 * SQL condition matching `base` and every slug that starts with `base-` (a superset of its numbered
 * variants), for the read that fills `taken`. A range, not a LIKE/GLOB pattern: D1 refuses patterns
 * over 50 bytes, and the range uses the slug index.
 */
export const slugTaken = (column: SQLWrapper, base: string): SQL =>
  sql`(${column} = ${base} OR (${column} > ${`${base}-`} AND ${column} < ${`${base}.`}))`;
