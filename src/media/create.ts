import { can } from "../access/capabilities";
import { runBatch } from "../db/batch";
import { IdReservation } from "../db/ids";
import { media, posts } from "../db/schema";
import { freeSlug, slugBase, slugTaken, uniqueSlug } from "../db/slugs";
import { postDates, withWriteRetry } from "../db/write";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { forbidden } from "../http/errors";
import { htmlFiltersFor } from "../text/kses";
import { MEDIA_CREATE_ARGS } from "./args";
import { imageMimeType, titleFromUrl } from "./fields";
import { serializeMedia } from "./serialize";

/**
 * Handles `POST /media` (needs `upload_files`: author and up) with `{source_url, alt_text?, title?,
 * width?, height?}`. The id comes from the shared post-id sequence (a `posts` row of type
 * `attachment` in the same batch); the MIME type from the URL's extension; the title defaults to
 * the file name, the slug to the title (made unique among media with `-2`, `-3`, …); `status` is
 * `inherit` as for WordPress attachments. Answers 201 with the media object and `Location`.
 * @throws ApiError 400 `rest_missing_callback_param` / `rest_invalid_param` (`source_url` not an
 *   http(s) URL of a jpg/jpeg/png/gif/webp/avif/svg file; `width`/`height` not positive integers);
 *   401/403 `rest_forbidden`.
 */
export async function createMedia(c: AppContext): Promise<Response> {
  const { values: a } = parseArgs(MEDIA_CREATE_ARGS, await requestParams(c), argContext(c));
  const user = c.get("user");
  if (!can(user, "upload_files")) throw forbidden(user !== null);

  const sourceUrl = a.source_url;
  const title = a.title || titleFromUrl(sourceUrl);
  const base = slugBase(undefined, title, "image");
  const { local, gmt } = postDates(requestNow(c), c.get("settings").siteTimezone);
  const { db } = c.get("rdb");

  const reservation = new IdReservation(db);
  await reservation.ensure({ post: 1, term: 0 });
  const id = reservation.allocators().postIds.take();
  const row = await withWriteRetry(async () => {
    const slugRows = await db
      .select({ slug: media.slug })
      .from(media)
      .where(slugTaken(media.slug, base));
    const slug = freeSlug("media", base, uniqueSlug(base, new Set(slugRows.map((r) => r.slug))));

    const { inserted } = await runBatch(db, {
      post: db.insert(posts).values({ id, postType: "attachment" }),
      inserted: db
        .insert(media)
        .values({
          id,
          author: user!.id,
          status: "inherit",
          slug,
          title: htmlFiltersFor(user).data(title),
          postDate: local,
          postDateGmt: gmt,
          postModified: local,
          postModifiedGmt: gmt,
          sourceUrl,
          altText: a.alt_text ?? "",
          mimeType: imageMimeType(sourceUrl)!,
          width: a.width ?? null,
          height: a.height ?? null,
        })
        .returning(),
    });
    return inserted[0];
  });

  c.header("Location", `${c.get("urls").wpRoot}media/${row.id}`);
  return c.json(serializeMedia(row), 201);
}
