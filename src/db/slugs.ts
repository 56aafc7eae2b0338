/**
 * Unique slugs, the WordPress way (`wp_unique_post_slug`): the sanitized title, then `-2`, `-3`, …
 */
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

/** SQL GLOB pattern matching `base` and its numbered variants, for the read that fills `taken`. */
export const slugVariants = (base: string) => `${base.replace(/[*?[\]]/g, "")}-[0-9]*`;
