/**
 * `image` given with an event, venue or organizer (tec-reference §3 `is_image`,
 * `is_image_or_empty`, §8.2), in three steps around the write:
 *
 * 1. `lookupImage` adds the media lookup to the read batch;
 * 2. `invalidImages` (a validator, before the permission check, §1.3): an id must name a media
 *    item with an image type; a URL needs `upload_files` (author and up), known or not;
 * 3. `checkNewImageUrls` (after the permission check, before the plan, because it is I/O): a URL
 *    not in the media library yet must pass the `HEAD` check of `url-check.ts`;
 *
 * then `resolveImage` (in the plan) reuses the media item of a known URL or adds one for a new URL,
 * as `POST /media` would, so later requests naming the same URL reuse it.
 */
import { and, eq, like, sql } from "drizzle-orm";
import { type AuthUser, can } from "../access/capabilities";
import { batchKey, type NamedBatch } from "../db/batch";
import type { Db } from "../db/client";
import { media, posts } from "../db/schema";
import { unlessChanged } from "../db/write";
import type { WritePlan } from "../db/write-plan";
import { InvalidParamsError } from "../http/errors";
import { sanitizeTitle } from "../text/html";
import { titleFromUrl } from "./fields";
import { checkImageUrl, type ImageUrlCheck } from "./url-check";

/** One image reference of a request. */
export interface ImageRef {
  /** Its name in the read batch (`image`, `venue.0`, `organizer.2`). */
  key: string;
  /** The request parameter a failure names (`image`, `venue`, `organizer`). */
  param: string;
  /** A media id or an image URL. */
  ref: number | string;
}

/**
 * A nested venue/organizer input as src/linked-posts/nested.ts `LinkedInput` holds it: what
 * `nestedImageRefs` reads of it (the objects to create carry their `fields`).
 */
type NestedInput = { clear: true } | { clear: false; refs: ReadonlyArray<object> };

/**
 * The image references a venue/organizer input creates posts with, keyed `${kind}.${i}` (the i-th
 * object without id, the order `lookupLinked` and `resolveLinked` count them in).
 */
export function nestedImageRefs(kind: string, input: NestedInput | undefined): ImageRef[] {
  if (!input || input.clear) return [];
  const out: ImageRef[] = [];
  let index = 0;
  for (const ref of input.refs) {
    if (!("fields" in ref)) continue;
    const image = (ref.fields as { image?: number | string | null }).image;
    if (image !== undefined && image !== null)
      out.push({ key: `${kind}.${index}`, param: kind, ref: image });
    index++;
  }
  return out;
}

/**
 * Adds the lookup for one image reference to the read batch: the media item with that id and an
 * image type, or the one with that source URL.
 */
export function lookupImage(batch: NamedBatch, db: Db, key: string, ref: number | string): void {
  const where =
    typeof ref === "number"
      ? and(eq(media.id, ref), like(media.mimeType, "image/%"))
      : eq(media.sourceUrl, ref);
  batch.add(imageKey(key), db.select({ id: media.id }).from(media).where(where).limit(1));
}

/** The read batch's entry for the image reference `key`. */
const imageKey = (key: string) => batchKey<Array<{ id: number }>>(`image:${key}`);

const found = (results: NamedBatch, key: string): number | undefined =>
  results.maybe(imageKey(key))?.[0]?.id;

type Reads = NamedBatch;

/**
 * The parameters whose image fails `is_image` without fetching anything (§3): an id that is not an
 * image attachment; a URL from a user without `upload_files`.
 */
export function invalidImages(refs: ImageRef[], results: Reads, user: AuthUser | null): string[] {
  const bad = refs.filter((r) =>
    typeof r.ref === "number" ? found(results, r.key) === undefined : !can(user, "upload_files"),
  );
  return [...new Set(bad.map((r) => r.param))];
}

/**
 * Checks every URL the read batch did not find in the media library (one request per URL, in
 * parallel; `checked` remembers answers across the retries of one write).
 * @returns URL → MIME type of every new URL, for the plan (`WritePlan.imageTypes`).
 * @throws InvalidParamsError naming every parameter whose URL does not pass (400
 *   `rest_invalid_param`; nothing is written).
 */
export async function checkNewImageUrls(
  refs: ImageRef[],
  results: Reads,
  mode: ImageUrlCheck,
  checked: Map<string, Promise<string | null>>,
): Promise<Map<string, string>> {
  const fresh = refs.filter(
    (r): r is ImageRef & { ref: string } =>
      typeof r.ref === "string" && found(results, r.key) === undefined,
  );
  for (const { ref } of fresh) if (!checked.has(ref)) checked.set(ref, checkImageUrl(ref, mode));
  const types = new Map<string, string>();
  const bad = new Set<string>();
  for (const r of fresh) {
    const type = await checked.get(r.ref)!;
    if (type) types.set(r.ref, type);
    else bad.add(r.param);
  }
  if (bad.size) throw new InvalidParamsError([...bad].map((name) => ({ name })));
  return types;
}

/** Media ids the plan added for new URLs, so that one URL given twice becomes one media item. */
const added = new WeakMap<WritePlan, Map<string, number>>();

/**
 * The media id for a reference, adding the media item to the plan for a new URL (checked by
 * `checkNewImageUrls`, its type in `plan.imageTypes`).
 * @throws InvalidParamsError naming `param` for a reference the steps above did not let through
 *   (a safety net: the handlers reject those before the plan).
 */
export function resolveImage(plan: WritePlan, image: ImageRef, results: Reads): number {
  const { key, param, ref } = image;
  const id = found(results, key);
  if (id !== undefined && (typeof ref === "number" || can(plan.user, "upload_files"))) return id;
  const mimeType = typeof ref === "string" ? plan.imageTypes.get(ref) : undefined;
  if (typeof ref === "number" || !mimeType || !can(plan.user, "upload_files"))
    throw new InvalidParamsError([{ name: param }]);
  const mine = added.get(plan) ?? new Map<string, number>();
  added.set(plan, mine);
  const known = mine.get(ref);
  if (known !== undefined) return known;
  const newId = plan.postIds.take();
  mine.set(ref, newId);
  // A parallel write may add the same URL first: then this one starts again and reuses it.
  plan.guards.push(
    unlessChanged(
      plan.db,
      sql`NOT EXISTS (SELECT 1 FROM ${media} WHERE ${eq(media.sourceUrl, ref)})`,
    ),
  );
  const title = titleFromUrl(ref) || "image";
  plan.statements.push(
    plan.db.insert(posts).values({ id: newId, postType: "attachment" }),
    plan.db.insert(media).values({
      id: newId,
      author: plan.user.id,
      status: "inherit",
      slug: `${sanitizeTitle(title) || "image"}-${newId}`,
      title,
      postDate: plan.stamp.local,
      postDateGmt: plan.stamp.gmt,
      postModified: plan.stamp.local,
      postModifiedGmt: plan.stamp.gmt,
      sourceUrl: ref,
      mimeType,
    }),
  );
  return newId;
}
