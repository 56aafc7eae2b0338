/**
 * `image` given with an event, venue or organizer (tec-reference §3 `is_image`, §8.2): a media id,
 * or an image URL. A URL that is not in the media library yet is added to it, which needs
 * `upload_files` (author and up); without it the URL is an invalid parameter, as in TEC.
 */
import { eq, sql } from "drizzle-orm";
import type { NamedBatch } from "../db/batch";
import type { Db } from "../db/client";
import { media, posts } from "../db/schema";
import { unlessChanged } from "../db/write";
import type { WritePlan } from "../db/write-plan";
import { InvalidParamsError } from "../http/errors";
import { sanitizeTitle } from "../text/html";
import { can } from "../users/capabilities";
import { imageMimeType, titleFromUrl } from "./args";

/** Adds the lookup for one image reference (`name` = the parameter) to the read batch. */
export function lookupImage(batch: NamedBatch, db: Db, name: string, ref: number | string): void {
  const where = typeof ref === "number" ? eq(media.id, ref) : eq(media.sourceUrl, ref);
  batch.add(`image:${name}`, db.select({ id: media.id }).from(media).where(where).limit(1));
}

/**
 * The media id for a reference, adding the media row to the plan for new URLs.
 * @throws InvalidParamsError naming the parameter: unknown id, not an image URL, or a URL from a
 *   user without `upload_files`.
 */
export function resolveImage(
  plan: WritePlan,
  name: string,
  ref: number | string,
  // biome-ignore lint/suspicious/noExplicitAny: batch results are untyped until issue 15 names and types them.
  results: Record<string, any>,
): number {
  const found: Array<{ id: number }> = results[`image:${name}`] ?? [];
  if (found[0]) return found[0].id;
  if (typeof ref === "number") throw new InvalidParamsError([{ name }]);
  const mimeType = imageMimeType(ref);
  if (!mimeType || !can(plan.user, "upload_files")) throw new InvalidParamsError([{ name }]);
  const id = plan.postIds.take();
  // A parallel write may add the same URL first: then this one starts again and reuses it.
  plan.guards.push(
    unlessChanged(
      plan.db,
      sql`NOT EXISTS (SELECT 1 FROM ${media} WHERE ${eq(media.sourceUrl, ref)})`,
    ),
  );
  const title = titleFromUrl(ref) || "image";
  plan.statements.push(
    plan.db.insert(posts).values({ id, postType: "attachment" }),
    plan.db.insert(media).values({
      id,
      author: plan.user.id,
      status: "inherit",
      slug: `${sanitizeTitle(title) || "image"}-${id}`,
      title,
      postDate: plan.stamp.local,
      postDateGmt: plan.stamp.gmt,
      postModified: plan.stamp.local,
      postModifiedGmt: plan.stamp.gmt,
      sourceUrl: ref,
      mimeType,
    }),
  );
  return id;
}
