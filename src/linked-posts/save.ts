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
import { NamedBatch } from "../db/batch";
import type { Db } from "../db/client";
import { IdReservation, withReservedIds } from "../db/ids";
import { users } from "../db/schema";
import { answerOnly, runWrite, type WriteDecision, writeThen } from "../db/write-pipeline";
import { newPlan, type WritePlan } from "../db/write-plan";
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

/** A venue or organizer save's request, parsed once (before the retries). */
interface LinkedSave {
  c: AppContext;
  kind: LinkedKind;
  target: LinkedTarget;
  creating: boolean;
  a: LinkedFields & Record<string, unknown>;
  sent: Set<string>;
  /** Whether the request names a field (a JSON null too). */
  named: (field: string) => boolean;
  /** The name sent, trimmed. */
  name: string | undefined;
  /** Media id or URL; null removes the image; undefined leaves it. */
  image: number | string | null | undefined;
  images: ImageRef[];
  /** Answers of the image URL check, kept across the retries of this write. */
  checkedUrls: Map<string, Promise<string | null>>;
  reservation: IdReservation;
}

/**
 * Handles `POST /{plural}`, `POST|PUT|PATCH /{plural}/{id}` and `/{plural}/by-slug/{slug}`, through
 * the write sequence (src/db/write-pipeline.ts).
 * @throws InvalidParamsError (validators, §1.3), ApiError 401/403 `rest_forbidden` (§9.2).
 */
export function saveLinked(
  c: AppContext,
  kind: LinkedKind,
  target: LinkedTarget,
): Promise<Response> {
  const { db } = c.get("rdb");
  return runWrite(db, {
    parse: () => parseLinkedSave(c, kind, target),
    load: (p) => loadLinkedSave(db, p),
    plan: planLinkedSave,
  });
}

async function parseLinkedSave(
  c: AppContext,
  kind: LinkedKind,
  target: LinkedTarget,
): Promise<LinkedSave> {
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
  const reservation = new IdReservation(c.get("rdb").db);
  return {
    c,
    kind,
    target,
    creating,
    a,
    sent,
    named,
    name,
    image,
    images,
    checkedUrls: new Map(),
    reservation,
  };
}

/** The read batch: the post and its image, the author, the image given, same-named posts. */
async function loadLinkedSave(db: Db, p: LinkedSave) {
  const { kind, target, a } = p;
  const reads = new NamedBatch();
  const postKey =
    "create" in target
      ? undefined
      : reads.addGroup(
          "post",
          linkedLoadQueries(db, kind, "id" in target ? { id: target.id } : { slug: target.slug }),
        );
  const authorKey =
    a.author === undefined
      ? undefined
      : reads.add("author", db.select({ id: users.id }).from(users).where(eq(users.id, a.author)));
  if (p.image !== undefined && p.image !== null) lookupImage(reads, db, "image", p.image);
  if (p.creating) lookupNames(reads, db, kind, [p.name!]);
  const r = await reads.run(db);
  const loaded = r.maybe(postKey);
  return { r, authorKey, current: loaded ? linkedFromResults(loaded) : null };
}

type LinkedReads = Awaited<ReturnType<typeof loadLinkedSave>>;

/** The checks in WordPress's order (validators → permission → handler), then the write. */
async function planLinkedSave(p: LinkedSave, reads: LinkedReads): Promise<WriteDecision<Response>> {
  const { c, kind, creating } = p;
  const { r, current } = reads;
  const existing: LinkedRow | null = current?.row ?? null;
  // Validators that need D1 (§1.3 step 5, §3 is_venue_id/is_user_id/is_image) precede the permission check.
  const invalid: string[] = [];
  if (!creating && !existing) invalid.push("id" in p.target ? "id" : "slug");
  if (r.maybe(reads.authorKey)?.length === 0) invalid.push("author");
  invalid.push(...invalidImages(p.images, r, c.get("user"))); // is_image_or_empty (§3), without fetching
  if (invalid.length) throw new InvalidParamsError(invalid.map((n) => ({ name: n })));
  checkLinkedPermission(p, existing);

  // The rest of is_image: a new URL must answer a HEAD as an image (I/O, so before the plan).
  const settings = c.get("settings");
  const imageTypes = await checkNewImageUrls(p.images, r, settings.imageUrlCheck, p.checkedUrls);
  const { db } = c.get("rdb");
  const write = await withReservedIds(p.reservation, (ids) =>
    buildLinkedWrite(
      p,
      r,
      existing,
      newPlan({ db, user: c.get("user")!, settings, now: requestNow(c), imageTypes, ...ids }),
    ),
  );
  const render: RenderContext = {
    urls: c.get("urls"),
    settings,
    user: c.get("user"),
    single: false,
  };
  const answer = (record: LinkedRecord) =>
    // A write's answer shows the post whole: whoever may write it may open it (§4.7).
    c.json(
      serializeLinked(kind, render, visibleLinked(render, kind, record, true)),
      creating ? 201 : 200,
    );
  // A create that found its namesake answers with it, unchanged (contract §4 row 13); an update
  // that changes nothing writes nothing.
  if (!write.changed)
    return answerOnly(async () =>
      answer(current ?? (await loadLinked(db, kind, { id: write.id }))!),
    );
  // An update applies only to the post as read: trashed or deleted in between → read again.
  const s = [
    ...write.plan.guards,
    ...(existing ? [unlessLinkedChanged(db, kind, existing)] : []),
    ...write.plan.statements,
  ];
  return writeThen(s, linkedLoadQueries(db, kind, { id: write.id }), (post) =>
    answer(linkedFromResults(post)!),
  );
}

/**
 * Permission (§9.2, contract §4 row 15: the same per-post check by id and by slug), another
 * author, into or out of the trash, the editors' fields.
 * @throws ApiError 401/403 `rest_forbidden`.
 */
function checkLinkedPermission(p: LinkedSave, existing: LinkedRow | null): void {
  const user = p.c.get("user");
  const { a } = p;
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
  if (sendsEditorsOnly(LINKED[p.kind].fields, p.sent) && !can(user, "edit_others_posts"))
    throw forbidden(true);
}

/** What the save writes (built twice: src/db/ids.ts `withReservedIds`). */
function buildLinkedWrite(
  p: LinkedSave,
  r: NamedBatch,
  existing: LinkedRow | null,
  plan: WritePlan,
) {
  const { kind, a, sent, image } = p;
  const imageId = () =>
    image === undefined ? undefined : image === null ? null : resolveImage(plan, p.images[0], r);
  if (!existing) {
    const fields = { ...a, [kind]: p.name } as LinkedFields;
    const found = findOrInsertLinked(plan, kind, fields, sent, r, () => imageId() ?? null);
    return { plan, id: found.id, changed: found.created };
  }
  const columns = updatedColumns(
    kind,
    existing,
    { a, sent, named: p.named, name: p.name, imageId: imageId() },
    plan,
  );
  if (Object.keys(columns).length === 0) return { plan, id: existing.id, changed: false };
  const t = commonTable(kind);
  plan.statements.push(plan.db.update(t).set(columns).where(eq(t.id, existing.id)));
  return { plan, id: existing.id, changed: true };
}
