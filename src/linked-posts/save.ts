/**
 * Creating and updating venues and organizers (tec-reference §2.6, §2.7, §8.6; contract §4 rows 12,
 * 13, 15, 23): one read batch (the post and its image, the author, the image given, same-named posts
 * and slugs), the checks in WordPress's order (validators → permission → handler), the ids it needs
 * reserved (src/db/ids.ts), then one write batch ending with the reload of the saved post.
 *
 * Create: 201; a non-trashed post with the same name (and the same description, when one is given)
 * that the user may read is returned instead, 201, unchanged. Update: 200; only the fields sent
 * change, an empty string removes a field, renaming never deduplicates.
 */
import { eq } from "drizzle-orm";
import { can, canDeletePost, canEditPost, scaleBackStatus } from "../access/capabilities";
import { NamedBatch, runBatch } from "../db/batch";
import { IdReservation, withReservedIds } from "../db/ids";
import { users } from "../db/schema";
import { withWriteRetry } from "../db/write";
import { newPlan } from "../db/write-plan";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { sendsEditorsOnly } from "../http/contract";
import { forbidden, InvalidParamsError } from "../http/errors";
import { hasParam } from "../http/params";
import type { RenderContext } from "../http/render";
import {
  checkNewImageUrls,
  type ImageRef,
  invalidImages,
  lookupImage,
  resolveImage,
} from "../media/image-ref";
import { visibleLinked } from "./access";
import { EDIT_ARGS, EDIT_BY_SLUG_ARGS } from "./args";
import { unlessLinkedChanged } from "./delete";
import { lookupNames } from "./duplicates";
import { commonTable, LINKED, type LinkedFields } from "./kinds";
import {
  type LinkedRecord,
  type LinkedRow,
  linkedFromResults,
  linkedLoadQueries,
  loadLinked,
} from "./load";
import type { LinkedKind } from "./record";
import { findOrInsertLinked } from "./resolve";
import { serializeLinked } from "./serialize";
import { updatedColumns } from "./update-columns";

/** Which post a save targets: a new one, or one named by id or by slug. */
export type LinkedTarget = { create: true } | { id: number } | { slug: string };

/** Handles `POST /{plural}`, `POST|PUT|PATCH /{plural}/{id}` and `/{plural}/by-slug/{slug}`. */
export async function saveLinked(
  c: AppContext,
  kind: LinkedKind,
  target: LinkedTarget,
): Promise<Response> {
  const settings = c.get("settings");
  const user = c.get("user");
  const params = await requestParams(c);
  const creating = "create" in target;
  const specs = creating
    ? LINKED[kind].args
    : "id" in target
      ? EDIT_ARGS[kind]
      : EDIT_BY_SLUG_ARGS[kind];
  const { values, sent: sentKeys } = parseArgs(
    specs as typeof LINKED.venue.args,
    params,
    argContext(c),
  );
  const a = values as LinkedFields & Record<string, unknown>;
  const sent = sentKeys as Set<string>;
  const name = typeof a[kind] === "string" ? (a[kind] as string).trim() : undefined;
  // A name of blanks is no name (§8.6: "Empty name → 400").
  if (name === "") throw new InvalidParamsError([{ name: kind }]);
  // Trash is one code path: a post is trashed by DELETE or by an update of an existing one.
  if (creating && a.status === "trash") throw new InvalidParamsError([{ name: "status" }]);
  // `image`, `geo_lat` and `geo_lng` named with a JSON null are removed; other nulls mean "absent".
  const named = (field: string) => sent.has(field) || hasParam(params, field);
  const image = named("image")
    ? ((a.image as number | string | null | undefined) ?? null)
    : undefined;
  const images: ImageRef[] =
    image !== undefined && image !== null ? [{ key: "image", param: "image", ref: image }] : [];
  // Answers of the image URL check, kept across the retries of this write.
  const checkedUrls = new Map<string, Promise<string | null>>();
  const { db } = c.get("rdb");
  const t = commonTable(kind);
  const render: RenderContext = { urls: c.get("urls"), settings, user, single: false };
  const reservation = new IdReservation(db);
  const answer = (record: LinkedRecord, status: 200 | 201) =>
    // A write's answer shows the post whole: whoever may write it may open it (§4.7).
    c.json(serializeLinked(kind, render, visibleLinked(render, kind, record, true)), status);

  return withWriteRetry(async () => {
    const reads = new NamedBatch();
    const postKey = creating
      ? undefined
      : reads.addGroup(
          "post",
          linkedLoadQueries(db, kind, "id" in target ? { id: target.id } : { slug: target.slug }),
        );
    const authorKey =
      a.author === undefined
        ? undefined
        : reads.add(
            "author",
            db.select({ id: users.id }).from(users).where(eq(users.id, a.author)),
          );
    if (image !== undefined && image !== null) lookupImage(reads, db, "image", image);
    if (creating) lookupNames(reads, db, kind, [name!]);
    const r = await reads.run(db);

    // Validators that need D1 (§1.3 step 5, §3 is_venue_id/is_user_id/is_image) precede the permission check.
    const loaded = r.maybe(postKey);
    const current = loaded ? linkedFromResults(loaded) : null;
    const existing: LinkedRow | null = current?.row ?? null;
    const invalid: string[] = [];
    if (!creating && !existing) invalid.push("id" in target ? "id" : "slug");
    if (r.maybe(authorKey)?.length === 0) invalid.push("author");
    invalid.push(...invalidImages(images, r, user)); // is_image_or_empty (§3), without fetching
    if (invalid.length) throw new InvalidParamsError(invalid.map((n) => ({ name: n })));

    // Permission (§9.2, contract §4 row 15: the same per-post check by id and by slug).
    if (existing ? !canEditPost(user, existing) : !can(user, "edit_posts"))
      throw forbidden(user !== null);
    if (
      a.author !== undefined &&
      a.author !== user!.id &&
      a.author !== existing?.author &&
      !can(user, "edit_others_posts")
    ) {
      throw forbidden(true);
    }
    // Into or out of the trash through `status` needs what DELETE needs (`delete_post`).
    if (existing && a.status !== undefined) {
      const next = scaleBackStatus(user, a.status);
      if ((next === "trash") !== (existing.status === "trash") && !canDeletePost(user, existing))
        throw forbidden(true);
    }
    // Importers match on the lineage: only editors and administrators write it.
    if (sendsEditorsOnly(LINKED[kind].fields, sent) && !can(user, "edit_others_posts"))
      throw forbidden(true);

    // The rest of is_image: a new URL must answer a HEAD as an image (I/O, so before the plan).
    const imageTypes = await checkNewImageUrls(images, r, settings.imageUrlCheck, checkedUrls);

    const write = await withReservedIds(reservation, (ids) => {
      const plan = newPlan({ db, user: user!, settings, now: requestNow(c), imageTypes, ...ids });
      const imageId = () =>
        image === undefined ? undefined : image === null ? null : resolveImage(plan, images[0], r);
      if (!existing) {
        const found = findOrInsertLinked(
          plan,
          kind,
          { ...a, [kind]: name } as LinkedFields,
          sent,
          r,
          () => imageId() ?? null,
        );
        return { plan, id: found.id, changed: found.created };
      }
      const columns = updatedColumns(
        kind,
        existing,
        { a, sent, named, name, imageId: imageId() },
        plan,
      );
      if (Object.keys(columns).length === 0) return { plan, id: existing.id, changed: false };
      plan.statements.push(db.update(t).set(columns).where(eq(t.id, existing.id)));
      return { plan, id: existing.id, changed: true };
    });

    if (!write.changed) {
      // A create that found its namesake answers with it, unchanged (contract §4 row 13); an
      // update that changes nothing writes nothing.
      const record = current ?? (await loadLinked(db, kind, { id: write.id }))!;
      return answer(record, creating ? 201 : 200);
    }
    const { plan } = write;
    // An update applies only to the post as read: trashed or deleted in between → read again.
    const s = [
      ...plan.guards,
      ...(existing ? [unlessLinkedChanged(db, kind, existing)] : []),
      ...plan.statements,
    ];
    const results = await runBatch(db, {
      write: s,
      post: linkedLoadQueries(db, kind, { id: write.id }),
    });
    return answer(linkedFromResults(results.post)!, creating ? 201 : 200);
  });
}
