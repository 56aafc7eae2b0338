/**
 * Pieces shared by the demo generators: post date columns and unique slugs.
 */
import type { DateTime } from "luxon";
import { sanitizeTitle } from "../../src/text/html";
import { WP_FORMAT } from "../../src/time/format";
import type { Random } from "../lib/prng";

/**
 * `post_date`, `post_date_gmt`, `post_modified`, `post_modified_gmt` (site-local and UTC
 * `Y-m-d H:i:s`) and `changed_gmt`, the change time `modified_after` filters on (= `post_modified_gmt`).
 */
export interface PostStamps {
  post_date: string;
  post_date_gmt: string;
  post_modified: string;
  post_modified_gmt: string;
  changed_gmt: string;
}

/**
 * Post dates of something created between `minDays` and `maxDays` days before `today` (site-local
 * midnight, in the site zone) during office hours, and last modified up to 10 days later but before today.
 */
export function postStamps(
  r: Random,
  today: DateTime,
  minDays: number,
  maxDays: number,
): PostStamps {
  const daysAgo = r.int(minDays, maxDays);
  const created = today
    .minus({ days: daysAgo })
    .set({ hour: r.int(8, 17), minute: r.int(0, 59), second: r.int(0, 59) });
  const modified = created.plus({
    days: r.int(0, Math.min(10, daysAgo - 1)),
    minutes: r.int(0, 90),
  });
  return {
    post_date: created.toFormat(WP_FORMAT),
    post_date_gmt: created.toUTC().toFormat(WP_FORMAT),
    post_modified: modified.toFormat(WP_FORMAT),
    post_modified_gmt: modified.toUTC().toFormat(WP_FORMAT),
    changed_gmt: modified.toUTC().toFormat(WP_FORMAT),
  };
}

/**
 * WordPress-style unique slugs within one table: the sanitized title, then `-2`, `-3`, …
 * @example const slug = slugger(); slug("Jazz Night") // "jazz-night"; slug("Jazz Night") // "jazz-night-2"
 */
export function slugger(): (title: string) => string {
  const taken = new Set<string>();
  return (title) => {
    const base = sanitizeTitle(title) || "post";
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  };
}

/** `Y-m-d H:i:s` of a DateTime in its own zone. */
export const wp = (dt: DateTime) => dt.toFormat(WP_FORMAT);
