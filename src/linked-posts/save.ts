/**
 * Creating and updating venues and organizers (tec-reference §2.6, §2.7, §8.6; contract §4 rows 12,
 * 13, 15, 23): one read batch (next post id, the post, the author, the image, same-named posts and
 * slugs), the checks in WordPress's order (validators → permission → handler), then one write batch
 * ending with the reload of the saved post.
 *
 * Create: 201; a non-trashed post with the same name (and the same description, when one is given)
 * that the user may read is returned instead, 201, unchanged. Update: 200; only the fields sent
 * change, an empty string removes a field, renaming never deduplicates.
 */
import { eq } from "drizzle-orm";
import { IdAllocator, NamedBatch } from "../db/batch";
import { users } from "../db/schema";
import { bumpContentVersion, nextPostIdQuery, withWriteRetry } from "../db/write";
import { newPlan, type WritePlan } from "../db/write-plan";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { forbidden, InvalidParamsError } from "../http/errors";
import { hasParam } from "../http/params";
import type { RenderContext } from "../http/render";
import { lookupImage, resolveImage } from "../media/image-ref";
import { can, canEditPost, scaleBackStatus } from "../users/capabilities";
import { EDIT_ARGS, EDIT_BY_SLUG_ARGS } from "./args";
import { unlessLinkedChanged, unlinkStatements } from "./delete";
import { deriveStateProvince } from "./fields";
import {
  commonTable,
  LINKED,
  type LinkedFields,
  type LinkedKind,
  linkedColumns,
  type VenueFields,
} from "./kinds";
import { type LinkedRow, linkedFromResults, linkedLoadQueries, loadLinked } from "./load";
import {
  type DuplicateCandidate,
  findDuplicate,
  insertLinked,
  lookupNames,
  postDateColumns,
} from "./resolve";
import { serializeLinked, type VenueRow } from "./serialize";

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
  // `image`, `geo_lat` and `geo_lng` named with a JSON null are removed; other nulls mean "absent".
  const named = (field: string) => sent.has(field) || hasParam(params, field);
  const image = named("image")
    ? ((a.image as number | string | null | undefined) ?? null)
    : undefined;
  const { db } = c.get("rdb");
  const t = commonTable(kind);
  const render: RenderContext = { urls: c.get("urls"), settings, user, single: false };

  return withWriteRetry(async () => {
    const reads = new NamedBatch().add("postId", nextPostIdQuery(db));
    if (!creating)
      reads.add(
        "row",
        db
          .select()
          .from(t)
          .where("id" in target ? eq(t.id, target.id) : eq(t.slug, target.slug)),
      );
    if (a.author !== undefined)
      reads.add("author", db.select({ id: users.id }).from(users).where(eq(users.id, a.author)));
    if (image !== undefined && image !== null) lookupImage(reads, db, "image", image);
    if (creating) lookupNames(reads, db, kind, [name!]);
    const r = await reads.run(db);

    // Validators that need D1 (§1.3 step 5, §3 is_venue_id/is_user_id/is_image) precede the permission check.
    const existing: LinkedRow | null = creating ? null : ((r.row as LinkedRow[])[0] ?? null);
    const invalid: string[] = [];
    if (!creating && !existing) invalid.push("id" in target ? "id" : "slug");
    if (a.author !== undefined && r.author.length === 0) invalid.push("author");
    if (typeof image === "number" && r["image:image"].length === 0) invalid.push("image");
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
    // Importers match on the lineage: only editors and administrators write it.
    if (sent.has("global_id_lineage") && !can(user, "edit_others_posts")) throw forbidden(true);

    // No terms are created here, hence no term-id sequence read.
    const plan = newPlan({
      db,
      user: user!,
      settings,
      now: c.get("now"),
      postIds: new IdAllocator(r.postId[0].next),
      termIds: new IdAllocator(0),
    });
    if (!existing) {
      const duplicate = findDuplicate(
        r[`${kind}:names`] as DuplicateCandidate[],
        name!,
        String(a.description ?? "").trim(),
        plan.user,
      );
      if (duplicate) {
        const found = await loadLinked(db, kind, { id: duplicate.id });
        return c.json(serializeLinked(kind, render, found!.row, found!.image), 201);
      }
    }
    const imageId =
      image === undefined
        ? undefined
        : image === null
          ? null
          : resolveImage(plan, "image", image, r);
    let id: number;
    if (!existing) {
      const taken = new Set<string>(
        (r[`${kind}:slugs`] as Array<{ slug: string }>).map((s) => s.slug),
      );
      id = insertLinked(
        plan,
        kind,
        { ...a, [kind]: name } as LinkedFields,
        sent,
        taken,
        imageId ?? null,
      );
    } else {
      id = existing.id;
      const columns = updatedColumns(kind, existing, { a, sent, named, name, imageId }, plan);
      plan.statements.push(db.update(t).set(columns).where(eq(t.id, id)));
    }
    // An update applies only to the post as read: trashed or deleted in between → read again.
    const s = [
      ...(existing ? [unlessLinkedChanged(db, kind, existing)] : []),
      ...plan.statements,
      bumpContentVersion(db),
    ];
    const results = (await db.batch([
      ...s,
      ...linkedLoadQueries(db, kind, { id }),
    ] as never)) as unknown[];
    const saved = linkedFromResults(results.slice(s.length))!;
    return c.json(serializeLinked(kind, render, saved.row, saved.image), creating ? 201 : 200);
  });
}

/** What an update was sent, validated. */
interface UpdateInput {
  a: LinkedFields & Record<string, unknown>;
  sent: Set<string>;
  /** Whether the request names a field at all (a JSON null included). */
  named: (field: string) => boolean;
  /** The new name, trimmed, when one was sent. */
  name: string | undefined;
  /** The new image id, null to remove it, undefined to keep it. */
  imageId: number | null | undefined;
}

/**
 * The columns an update changes: exactly the fields sent (contract §4 rows 10, 12), plus the
 * modification stamp. Trashing through `status` unlinks the post from its events, as DELETE does
 * (the statements are added to the plan).
 */
function updatedColumns(
  kind: LinkedKind,
  existing: LinkedRow,
  input: UpdateInput,
  plan: WritePlan,
): Record<string, unknown> {
  const { a, sent, named } = input;
  const columns: Record<string, unknown> = linkedColumns(kind, a, sent);
  if (input.name !== undefined) columns.title = input.name;
  if (kind === "venue") {
    Object.assign(columns, stateProvinceUpdate(existing as VenueRow, a as VenueFields, sent));
    // A JSON null removes the coordinate (it never reaches `sent`, which holds non-null values).
    if (named("geo_lat") && !sent.has("geo_lat")) columns.geoLat = null;
    if (named("geo_lng") && !sent.has("geo_lng")) columns.geoLng = null;
  }
  if (input.imageId !== undefined) columns.imageId = input.imageId;
  if (a.author !== undefined) columns.author = a.author;
  if (a.date !== undefined || a.date_utc !== undefined)
    Object.assign(columns, postDateColumns(plan, a));
  if (a.status !== undefined) {
    columns.status = scaleBackStatus(plan.user, a.status);
    if (columns.status === "trash" && existing.status !== "trash") {
      columns.trashMetaStatus = existing.status;
      plan.statements.push(...unlinkStatements(plan.db, kind, existing.id, plan.stamp));
    }
  }
  columns.postModified = plan.stamp.local;
  columns.postModifiedGmt = plan.stamp.gmt;
  return columns;
}

/**
 * Venue `stateprovince` on update (§8.6): a non-empty value sent is kept; otherwise, when the
 * address region changes (country, state, province or an empty `stateprovince` sent), it is derived
 * again from the merged values. Nothing changes when none of them is sent.
 */
function stateProvinceUpdate(
  row: VenueRow,
  f: VenueFields,
  sent: Set<string>,
): { stateprovince?: string } {
  if (sent.has("stateprovince") && f.stateprovince) return {};
  if (!["country", "state", "province", "stateprovince"].some((k) => sent.has(k))) return {};
  const pick = (k: "country" | "state" | "province") => (sent.has(k) ? (f[k] ?? "") : row[k]);
  return {
    stateprovince: deriveStateProvince({
      country: pick("country"),
      state: pick("state"),
      province: pick("province"),
    }),
  };
}
