/**
 * Resolution of venue/organizer references against D1 (tec-reference §8.4–§8.6; contract §4 rows
 * 13, 14): ids must name a post of the right type; objects without id reuse a non-trashed post with
 * the same name (and the same description, when one is given), case-insensitively in every script,
 * **unchanged**, or become a new post in the write batch.
 */

import { canReadPost, type PostAccess, scaleBackStatus } from "../access/capabilities";
import { batchKey, type NamedBatch } from "../db/batch";
import type { Db } from "../db/client";
import { posts } from "../db/schema";
import { freeSlug, slugBase, uniqueSlug } from "../db/slugs";
import { inList } from "../db/sql";
import { postDates } from "../db/write";
import type { WritePlan } from "../db/write-plan";
import { ApiError, InvalidParamsError } from "../http/errors";
import { lookupImage, resolveImage } from "../media/image-ref";
import { htmlFiltersFor } from "../text/kses";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { findDuplicate, lookupNames, nameKeys, noNewNamesake } from "./duplicates";
import { LINKED, type LinkedFields, linkedColumns, type VenueFields } from "./kinds";
import type { LinkedInput, LinkedRef } from "./nested";
import { sentPostDate } from "./post-fields";
import type { LinkedKind } from "./record";
import { insertedStateProvince } from "./venue";

type CreateRef = Extract<LinkedRef, { fields: unknown }>;

const nameOf = (kind: LinkedKind, fields: LinkedFields) =>
  String((fields as Record<string, unknown>)[kind] ?? "").trim();

/** The read batch's entry of the posts an input names by id. */
const idsKey = (kind: LinkedKind) => batchKey<Array<PostAccess & { id: number }>>(`${kind}:ids`);

/** Adds the lookups for a parsed venue/organizer input to the read batch. */
export function lookupLinked(
  batch: NamedBatch,
  db: Db,
  kind: LinkedKind,
  input: LinkedInput | undefined,
): void {
  if (!input || input.clear) return;
  const table = LINKED[kind].table;
  const ids = input.refs.flatMap((r) => ("id" in r ? [r.id] : []));
  const creates = input.refs.filter((r): r is CreateRef => "fields" in r);
  if (ids.length)
    batch.add(
      idsKey(kind),
      db
        .select({
          id: table.id,
          author: table.author,
          status: table.status,
          trashMetaStatus: table.trashMetaStatus,
        })
        .from(table)
        .where(inList(table.id, ids)),
    );
  if (creates.length) {
    lookupNames(
      batch,
      db,
      kind,
      creates.map((r) => nameOf(kind, r.fields)),
    );
    creates.forEach((r, i) => {
      const image = (r.fields as { image?: number | string | null }).image;
      if (image !== undefined && image !== null) lookupImage(batch, db, `${kind}.${i}`, image);
    });
  }
}

/**
 * `post_date`/`post_date_gmt` from `date_utc` (UTC) or `date` (site time), else the write's own time
 * (§2.6 `date`, `date_utc`; validated as `is_time` already).
 */
export function postDateColumns(
  plan: WritePlan,
  fields: Parameters<typeof sentPostDate>[0],
): { postDate: string; postDateGmt: string } {
  const sent = sentPostDate(fields);
  const zone = resolveZone(sent?.utc ? "UTC" : plan.settings.siteTimezone) ?? resolveZone("UTC")!;
  const instant = sent === undefined ? null : parseTime(sent.value, zone, plan.now);
  const d = instant ? postDates(instant, plan.settings.siteTimezone) : plan.stamp;
  return { postDate: d.local, postDateGmt: d.gmt };
}

/**
 * Inserts a new venue or organizer into the plan (posts registry row + the post), its name,
 * description and excerpt through the writer's HTML filters, its slug decided in the batch
 * (`freeSlug`, from the first free one in `taken`).
 * @param taken slugs already used, filled from the read batch; the new slug is added.
 * @returns the new id.
 */
export function insertLinked(
  plan: WritePlan,
  kind: LinkedKind,
  fields: LinkedFields,
  sent: Set<string>,
  taken: Set<string>,
  imageId: number | null,
): number {
  const id = plan.postIds.take();
  const table = LINKED[kind].table;
  const name = nameOf(kind, fields);
  const html = htmlFiltersFor(plan.user);
  const columns = linkedColumns(kind, fields, sent, html);
  if (kind === "venue") Object.assign(columns, insertedStateProvince(fields as VenueFields, sent));
  const status = scaleBackStatus(plan.user, fields.status);
  const base = slugBase(undefined, name, kind);
  const dates = postDateColumns(plan, fields);
  plan.statements.push(
    plan.db.insert(posts).values({ id, postType: LINKED[kind].postType }),
    plan.db.insert(table).values({
      ...columns,
      id,
      author: fields.author ?? plan.user.id,
      status,
      slug: freeSlug(LINKED[kind].plural, base, uniqueSlug(base, taken)),
      title: html.data(name),
      ...dates,
      // WordPress: a new post's `modified` is its post date; the change time is now (contract §7.3).
      postModified: dates.postDate,
      postModifiedGmt: dates.postDateGmt,
      changedGmt: plan.stamp.gmt,
      imageId,
    } as never),
  );
  return id;
}

/**
 * Creates a venue or organizer of this name unless one the writer may read exists (§8.6, contract
 * §4 row 13): the reuse is decided on the read batch's `${kind}:names`, and guarded so that a
 * parallel create of the same name makes this write start again and reuse that one.
 * @returns the id of the post reused or created, and whether it was created.
 */
export function findOrInsertLinked(
  plan: WritePlan,
  kind: LinkedKind,
  fields: LinkedFields,
  sent: Set<string>,
  results: NamedBatch,
  imageId: () => number | null,
): { id: number; created: boolean } {
  const candidates = results.maybe(nameKeys(kind).names) ?? [];
  const name = nameOf(kind, fields);
  const match = findDuplicate(candidates, name, (fields.description ?? "").trim(), plan.user);
  if (match) return { id: match.id, created: false };
  const taken = new Set<string>((results.maybe(nameKeys(kind).slugs) ?? []).map((r) => r.slug));
  plan.guards.push(
    noNewNamesake(
      plan,
      kind,
      [name],
      candidates.map((c) => c.id),
    ),
  );
  return { id: insertLinked(plan, kind, fields, sent, taken, imageId()), created: true };
}

/**
 * Resolves a parsed input to ids, in order, deduplicated; new posts are added to the plan.
 * @throws InvalidParamsError naming the parameter for ids that are not of this type;
 *   ApiError 400 `invalid-linked-post-id` for `{id}` objects naming something else.
 */
export function resolveLinked(
  plan: WritePlan,
  kind: LinkedKind,
  input: LinkedInput,
  results: NamedBatch,
): number[] {
  if (input.clear) return [];
  const known = new Map<number, PostAccess>(
    (results.maybe(idsKey(kind)) ?? []).map((r) => [r.id, r]),
  );
  const createdByName = new Map<string, number>();
  const ids: number[] = [];
  let createIndex = 0;
  for (const ref of input.refs) {
    let id: number;
    if ("id" in ref) {
      const post = known.get(ref.id);
      if (!post) {
        if (ref.fromObject) throw new ApiError(400, "invalid-linked-post-id");
        throw new InvalidParamsError([{ name: kind }]);
      }
      // A post the writer may not read (someone else's draft or private post), or a trashed one,
      // cannot be linked: the event would show it to everyone who can read the event.
      if (post.status === "trash" || !canReadPost(plan.user, post)) {
        throw new InvalidParamsError([{ name: kind }]);
      }
      id = ref.id;
    } else {
      const index = createIndex++;
      const description = (ref.fields.description ?? "").trim();
      const key = `${nameOf(kind, ref.fields).toLowerCase()}\u0000${description.toLowerCase()}`;
      const image = (ref.fields as { image?: number | string | null }).image;
      id =
        createdByName.get(key) ??
        // Nested posts belong to the user who writes the event: an `author` inside the object is not
        // checked against the users table or the capability to attribute posts, so it is not used.
        findOrInsertLinked(
          plan,
          kind,
          { ...ref.fields, author: undefined },
          ref.sent,
          results,
          () =>
            image === undefined || image === null
              ? null
              : resolveImage(plan, { key: `${kind}.${index}`, param: kind, ref: image }, results),
        ).id;
      createdByName.set(key, id);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
