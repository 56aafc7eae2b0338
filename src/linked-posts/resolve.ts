/**
 * Resolution of venue/organizer references against D1 (tec-reference §8.4–§8.6; contract §4 rows
 * 13, 14): ids must name a post of the right type; objects without id reuse a non-trashed post with
 * the same name (and the same description, when one is given), case-insensitively, **unchanged**, or
 * become a new post in the write batch.
 */
import { and, inArray, ne, or, sql } from "drizzle-orm";
import type { NamedBatch } from "../db/batch";
import type { Db } from "../db/client";
import { posts } from "../db/schema";
import { slugBase, slugTaken, uniqueSlug } from "../db/slugs";
import { postDates } from "../db/write";
import type { WritePlan } from "../db/write-plan";
import { ApiError, InvalidParamsError } from "../http/errors";
import { lookupImage, resolveImage } from "../media/image-ref";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { type AuthUser, canReadPost, scaleBackStatus } from "../users/capabilities";
import {
  LINKED,
  type LinkedFields,
  type LinkedKind,
  linkedColumns,
  type VenueFields,
  venueStateProvince,
} from "./kinds";
import type { LinkedInput, LinkedRef } from "./nested";

type CreateRef = Extract<LinkedRef, { fields: unknown }>;

const nameOf = (kind: LinkedKind, fields: LinkedFields) =>
  String((fields as Record<string, unknown>)[kind] ?? "").trim();

/** A post that a create may reuse instead of inserting a duplicate (contract §4 row 13). */
export interface DuplicateCandidate {
  id: number;
  title: string;
  content: string;
  author: number | null;
  status: string;
}

/**
 * Adds to the read batch what creating posts with these names needs: the non-trashed posts with the
 * same names, case-insensitively (`${kind}:names`), and the slugs their titles would collide with
 * (`${kind}:slugs`).
 */
export function lookupNames(batch: NamedBatch, db: Db, kind: LinkedKind, names: string[]): void {
  const table = LINKED[kind].table;
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  batch.add(
    `${kind}:names`,
    db
      .select({
        id: table.id,
        title: table.title,
        content: table.content,
        author: table.author,
        status: table.status,
      })
      .from(table)
      .where(and(inArray(sql`lower(${table.title})`, lowered), ne(table.status, "trash")))
      .orderBy(table.id),
  );
  const bases = [...new Set(names.map((n) => slugBase(undefined, n, kind)))];
  batch.add(
    `${kind}:slugs`,
    db
      .select({ slug: table.slug })
      .from(table)
      .where(or(...bases.map((b) => slugTaken(table.slug, b)))),
  );
}

/**
 * The existing post a create reuses (§8.6, contract §4 row 13): same name, case-insensitively, and
 * the same description when one is given; the oldest wins. Posts the user may not read are never
 * reused, so a create cannot reveal someone else's draft.
 */
export function findDuplicate(
  candidates: DuplicateCandidate[],
  name: string,
  description: string,
  user: AuthUser,
): DuplicateCandidate | undefined {
  const lowered = name.toLowerCase();
  return candidates.find(
    (e) =>
      e.title.toLowerCase() === lowered &&
      (description === "" || e.content.trim() === description) &&
      canReadPost(user, e),
  );
}

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
    batch.add(`${kind}:ids`, db.select({ id: table.id }).from(table).where(inArray(table.id, ids)));
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
  fields: { date?: string; date_utc?: string },
): { postDate: string; postDateGmt: string } {
  const zone =
    resolveZone(fields.date_utc !== undefined ? "UTC" : plan.settings.siteTimezone) ??
    resolveZone("UTC")!;
  const input = fields.date_utc ?? fields.date;
  const instant = input === undefined ? null : parseTime(input, zone, plan.now);
  const d = instant ? postDates(instant, plan.settings.siteTimezone) : plan.stamp;
  return { postDate: d.local, postDateGmt: d.gmt };
}

/**
 * Inserts a new venue or organizer into the plan (posts registry row + the post).
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
  const columns = linkedColumns(kind, fields, sent);
  if (kind === "venue") {
    const derived = venueStateProvince(fields as VenueFields, sent);
    if (derived !== undefined) columns.stateprovince = derived;
  }
  plan.statements.push(
    plan.db.insert(posts).values({ id, postType: LINKED[kind].postType }),
    plan.db.insert(table).values({
      ...columns,
      id,
      author: fields.author ?? plan.user.id,
      status: scaleBackStatus(plan.user, fields.status),
      slug: uniqueSlug(slugBase(undefined, name, kind), taken),
      title: name,
      ...postDateColumns(plan, fields),
      postModified: plan.stamp.local,
      postModifiedGmt: plan.stamp.gmt,
      imageId,
    } as never),
  );
  return id;
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
  // biome-ignore lint/suspicious/noExplicitAny: batch results are untyped until issue 15 names and types them.
  results: Record<string, any>,
): number[] {
  if (input.clear) return [];
  const known = new Set<number>((results[`${kind}:ids`] ?? []).map((r: { id: number }) => r.id));
  const existing: DuplicateCandidate[] = results[`${kind}:names`] ?? [];
  const taken = new Set<string>(
    (results[`${kind}:slugs`] ?? []).map((r: { slug: string }) => r.slug),
  );
  const createdByName = new Map<string, number>();
  const ids: number[] = [];
  let createIndex = 0;
  for (const ref of input.refs) {
    let id: number;
    if ("id" in ref) {
      if (!known.has(ref.id)) {
        if (ref.fromObject) throw new ApiError(400, "invalid-linked-post-id");
        throw new InvalidParamsError([{ name: kind }]);
      }
      id = ref.id;
    } else {
      const index = createIndex++;
      const name = nameOf(kind, ref.fields);
      const description = (ref.fields.description ?? "").trim();
      const key = `${name.toLowerCase()}\u0000${description}`;
      const match = findDuplicate(existing, name, description, plan.user);
      const image = (ref.fields as { image?: number | string | null }).image;
      id =
        match?.id ??
        createdByName.get(key) ??
        // Nested posts belong to the user who writes the event: an `author` inside the object is not
        // checked against the users table or the capability to attribute posts, so it is not used.
        insertLinked(
          plan,
          kind,
          { ...ref.fields, author: undefined },
          ref.sent,
          taken,
          image === undefined || image === null
            ? null
            : resolveImage(plan, `${kind}.${index}`, image, results),
        );
      createdByName.set(key, id);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
