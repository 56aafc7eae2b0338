/**
 * Creating and updating events (tec-reference §8.2, §8.3; contract §4 rows 10, 13, 14, 15, 23):
 * one read batch (the event with its links, everything referenced), the checks in WordPress's order
 * (validators → permission → handler), the ids it needs reserved (src/db/ids.ts), then one write
 * batch holding the event, the venue, organizers, terms and media it creates or links, the term
 * counts and the content version — it lands whole or not at all — ending with the reload of the
 * saved event. What is written is decided in `save-plan.ts`; an update that changes nothing writes
 * nothing and answers the event as it is.
 */
import { and, eq, sql } from "drizzle-orm";
import { can, canDeletePost, canEditPost, scaleBackStatus } from "../access/capabilities";
import { NamedBatch, runBatch } from "../db/batch";
import { IdReservation, withReservedIds } from "../db/ids";
import { events, users } from "../db/schema";
import { slugBase, slugTaken } from "../db/slugs";
import { unlessChanged, withWriteRetry } from "../db/write";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { sendsEditorsOnly } from "../http/contract";
import { sha256Hex } from "../http/crypto";
import { ApiError, forbidden, InvalidParamsError } from "../http/errors";
import { hasParam } from "../http/params";
import type { RenderContext } from "../http/render";
import { LINKED } from "../linked-posts/kinds";
import { type LinkedInput, parseLinkedInput } from "../linked-posts/nested";
import type { LinkedKind } from "../linked-posts/record";
import { lookupLinked } from "../linked-posts/resolve";
import {
  checkNewImageUrls,
  type ImageRef,
  invalidImages,
  lookupImage,
  nestedImageRefs,
} from "../media/image-ref";
import { lookupTerms, parseTermRefs } from "../terms/assign";
import { EVENT_FIELDS } from "./contract";
import type { EventRow } from "./record";
import { planEventSave } from "./save-plan";
import { serializeEvent } from "./serialize";
import { saveOccurrence } from "./series/occurrence-save";
import { isOverride } from "./series/occurrences";
import { storeNamed } from "./series/reach";
import { seriesStateQueries } from "./series/save";
import { eventFromResults, eventLoadQueries, storedLinks } from "./single";
import { visibleEvent } from "./visible";
import { CREATE_ARGS, EDIT_ARGS, EDIT_BY_SLUG_ARGS } from "./write-args";

/** The event row is as it was read: same id, status and change time. */
export const unchanged = (row: Pick<EventRow, "id" | "status" | "changedGmt">) =>
  and(eq(events.id, row.id), eq(events.status, row.status), eq(events.changedGmt, row.changedGmt));

/**
 * Whether a save writes what only editors may write, on the event or on a venue or organizer it
 * creates (their contracts say which).
 */
const writesEditorsOnly = (sent: Set<string>, linked: Partial<Record<LinkedKind, LinkedInput>>) =>
  sendsEditorsOnly(EVENT_FIELDS, sent) ||
  Object.entries(linked).some(
    ([kind, i]) =>
      i &&
      !i.clear &&
      i.refs.some(
        (r) => "sent" in r && sendsEditorsOnly(LINKED[kind as LinkedKind].fields, r.sent),
      ),
  );

/** Which event a save targets: a new one, or one named by id or by slug. */
export type SaveTarget = { create: true } | { id: number } | { slug: string };

/** Handles `POST /events` and `POST|PUT|PATCH /events/{id}` and `/events/by-slug/{slug}`. */
export async function saveEvent(c: AppContext, target: SaveTarget): Promise<Response> {
  const settings = c.get("settings");
  const user = c.get("user");
  const now = requestNow(c);
  const ctx = argContext(c);
  const params = await requestParams(c);
  const creating = "create" in target;
  const specs = creating ? CREATE_ARGS : "id" in target ? EDIT_ARGS : EDIT_BY_SLUG_ARGS;
  const { values: a, sent } = parseArgs(
    specs as typeof CREATE_ARGS,
    "slug" in target ? { ...params, path: {} } : params,
    ctx,
  );
  // Trash is one code path: an event is trashed by DELETE or by an update of one.
  if (creating && a.status === "trash") throw new InvalidParamsError([{ name: "status" }]);
  // A JSON null names the field too: it unlinks (contract §4 row 10).
  const named = (name: string) => sent.has(name as never) || hasParam(params, name);
  const venue = named("venue") ? parseLinkedInput("venue", a.venue, ctx) : undefined;
  const organizer = named("organizer")
    ? parseLinkedInput("organizer", a.organizer, ctx)
    : undefined;
  const categories = named("categories") ? parseTermRefs("categories", a.categories) : undefined;
  const tags = named("tags") ? parseTermRefs("tags", a.tags) : undefined;
  const image = named("image") ? (a.image ?? null) : undefined;
  // §2.3 `is_image`: a create may not send an empty image (an update may: it removes the image).
  if (creating && sent.has("image") && a.image === null)
    throw new InvalidParamsError([{ name: "image" }]);
  const images: ImageRef[] = [
    ...(image !== undefined && image !== null
      ? [{ key: "image", param: "image", ref: image }]
      : []),
    ...nestedImageRefs("venue", venue),
    ...nestedImageRefs("organizer", organizer),
  ];
  // Answers of the image URL checks, kept across the retries of this write.
  const checkedUrls = new Map<string, Promise<string | null>>();
  const passwordDigest =
    a.password === undefined ? undefined : a.password === "" ? "" : await sha256Hex(a.password);
  const { db } = c.get("rdb");
  const reservation = new IdReservation(db);
  const render: RenderContext = { urls: c.get("urls"), settings, user, single: false };
  // An occurrence past its series' stored horizon, named by its computed id (contract §7.8).
  if ("id" in target) await storeNamed(db, target.id, (row) => canEditPost(user, row), now);

  return withWriteRetry(async () => {
    const reads = new NamedBatch();
    const eventKey = creating
      ? undefined
      : reads.addGroup(
          "event",
          eventLoadQueries(db, "id" in target ? { id: target.id } : { slug: target.slug }),
        );
    lookupLinked(reads, db, "venue", venue);
    lookupLinked(reads, db, "organizer", organizer);
    if (categories && !categories.clear)
      lookupTerms(reads, db, "tribe_events_cat", categories.refs);
    if (tags && !tags.clear) lookupTerms(reads, db, "post_tag", tags.refs);
    if (image !== undefined && image !== null) lookupImage(reads, db, "image", image);
    const authorKey =
      a.author === undefined
        ? undefined
        : reads.add(
            "author",
            db.select({ id: users.id }).from(users).where(eq(users.id, a.author)),
          );
    const uidKey =
      a.uid === undefined
        ? undefined
        : reads.add("uid", db.select({ id: events.id }).from(events).where(eq(events.uid, a.uid)));
    const base = creating || a.slug !== undefined ? slugBase(a.slug, a.title ?? "", "event") : null;
    const slugsKey = base
      ? reads.add(
          "slugs",
          db
            .select({ id: events.id, slug: events.slug })
            .from(events)
            // Overrides share their series' slug (contract §7.8): only series and single events count.
            .where(
              sql`${slugTaken(events.slug, base)} AND (${events.seriesId} IS NULL OR ${events.seriesId} = ${events.id})`,
            ),
        )
      : undefined;
    // A recurring series' occurrences and overrides (contract §7.8).
    const seriesKey = creating
      ? undefined
      : reads.addGroup(
          "series",
          seriesStateQueries(db, "id" in target ? { id: target.id } : { slug: target.slug }),
        );
    const r = await reads.run(db);

    const loaded = r.maybe(eventKey);
    const current = loaded ? eventFromResults(loaded, user) : null;
    const existing: EventRow | null = loaded?.rows[0] ?? null;
    // Validators that need D1 (§1.3 step 5) come before the permission check.
    const invalid: string[] = [];
    if (r.maybe(authorKey)?.length === 0) invalid.push("author");
    // (An occurrence's write may carry its series' UID: an import's, src/events/series/occurrence-save.ts.)
    const own = (id: number) => id === existing?.id || id === existing?.seriesId;
    if (r.maybe(uidKey)?.some((e) => !own(e.id))) invalid.push("uid");
    if ("slug" in target && !existing) invalid.push("slug"); // is_event_slug (§2.5)
    invalid.push(...invalidImages(images, r, user)); // is_image (§3), without fetching anything
    if (invalid.length) throw new InvalidParamsError(invalid.map((name) => ({ name })));

    // Permission (§9.2, contract §4 row 15: the same per-post check by id and by slug).
    if (existing ? !canEditPost(user, existing) : !can(user, "edit_posts"))
      throw forbidden(user !== null);
    if (a.author !== undefined && a.author !== user!.id && !can(user, "edit_others_posts"))
      throw forbidden(true);
    // Importers match on the lineage: only editors and administrators write it.
    if (
      writesEditorsOnly(sent as Set<string>, { venue, organizer }) &&
      !can(user, "edit_others_posts")
    )
      throw forbidden(true);
    if ("id" in target && !existing) {
      if (loaded?.type.length === 0) throw new ApiError(404, "rest-event-not-found", [target.id]);
      throw new ApiError(400, "rest-invalid-event-id");
    }
    // Into or out of the trash through `status` needs what DELETE needs (`delete_post`).
    if (existing && a.status !== undefined) {
      const next = scaleBackStatus(user, a.status);
      if ((next === "trash") !== (existing.status === "trash") && !canDeletePost(user, existing))
        throw forbidden(true);
    }

    // The rest of is_image: new URLs must answer a HEAD as images (I/O, so before the plan).
    const imageTypes = await checkNewImageUrls(images, r, settings.imageUrlCheck, checkedUrls);

    const series = r.maybe(seriesKey) ?? { occurrences: [], overrides: [] };
    const input = {
      imageTypes,
      user: user!,
      settings,
      now,
      existing,
      links: loaded
        ? storedLinks(loaded)
        : { organizers: [], terms: { tribe_events_cat: [], post_tag: [] } },
      a,
      sent: sent as Set<string>,
      venue,
      organizer,
      categories,
      tags,
      image,
      passwordDigest,
      slug: base && slugsKey ? { base, taken: r.get(slugsKey) } : null,
      reads: r,
      recurrence: named("recurrence") ? (a.recurrence ?? []) : undefined,
      series,
    };
    // One occurrence of a series, or it and the rest (`scope=following`): src/events/series/occurrence-save.ts.
    if (current?.occurrence || (existing && isOverride(existing)))
      return saveOccurrence(c, {
        input,
        current: current!,
        scope: (a as { scope?: string }).scope,
        revert: (a as { revert?: boolean }).revert === true,
        reservation,
        render,
      });
    const write = await withReservedIds(reservation, (ids) => planEventSave(input, db, ids));
    if (!write.changed)
      return c.json(serializeEvent(render, visibleEvent(render, current!.record!)));

    const s = [
      // An update applies only to the event as read: trashed or deleted in between → read again.
      ...(existing
        ? [unlessChanged(db, sql`EXISTS (SELECT 1 FROM ${events} WHERE ${unchanged(existing)})`)]
        : []),
      ...write.statements,
    ];
    const results = await runBatch(db, {
      write: s,
      event: eventLoadQueries(db, { id: write.id }),
    });
    const { record } = eventFromResults(results.event, user);
    return c.json(serializeEvent(render, visibleEvent(render, record!)), creating ? 201 : 200);
  });
}
