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

/**
 * `slugTaken` for several bases at once, with one bound parameter (D1 allows 100 per statement).
 * @example db.select({ slug: terms.slug }).from(terms).where(slugsTaken(terms.slug, ["jazz", "blues"]))
 */
export const slugsTaken = (column: SQLWrapper, bases: string[]): SQL =>
  sql`EXISTS (SELECT 1 FROM json_each(${JSON.stringify(bases)}) b WHERE ${column} = b.value OR (${column} > b.value || '-' AND ${column} < b.value || '.'))`;

/**
 * The slug a new (or renamed) row gets, decided inside its write batch: `guess` — the
 * first free slug among `base`, `base-2`, … as read before the write — when it is still free when
 * the batch runs, else `base-N` with N one above the highest numbered variant taken by then. The
 * batch runs as one transaction, so parallel writes of the same title can never end with the same
 * slug (and never fail on the unique slug index), while a write alone gets WordPress's choice.
 * @param table the table's name (`events`, `terms`, …), whose slug column is `slug`.
 * @param scope extra condition on the other rows (`taxonomy = …` for terms), on alias `s`.
 * @param except an id that does not count as taken (the row itself, when renaming).
 */
export function freeSlug(
  table: string,
  base: string,
  guess: string,
  options: { scope?: SQL; except?: number } = {},
): SQL {
  const t = sql.identifier(table);
  const others = sql.join(
    [
      options.scope ?? sql`1`,
      options.except === undefined ? sql`1` : sql`s.id <> ${options.except}`,
    ],
    sql` AND `,
  );
  return sql`(CASE WHEN NOT EXISTS (SELECT 1 FROM ${t} s WHERE s.slug = ${guess} AND ${others}) THEN ${guess}
    ELSE ${base} || '-' || (SELECT max(2, coalesce(max(CAST(substr(s.slug, length(${base}) + 2) AS INTEGER)), 1) + 1)
      FROM ${t} s WHERE s.slug > ${base} || '-' AND s.slug < ${base} || '.'
        AND substr(s.slug, length(${base}) + 2) NOT GLOB '*[^0-9]*' AND ${others}) END)`;
}
