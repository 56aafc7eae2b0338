/**
 * The read batch of an event save and the checks on it (tec-reference §1.3: validators that need D1,
 * then the permission, §9.2; contract §4 row 15), for the write sequence of src/events/save.ts.
 */
import { eq, sql } from "drizzle-orm";
import { can, canDeletePost, canEditPost, scaleBackStatus } from "../access/capabilities";
import { NamedBatch } from "../db/batch";
import type { Db } from "../db/client";
import type { IdReservation } from "../db/ids";
import { events, users } from "../db/schema";
import { slugTaken } from "../db/slugs";
import type { ArgValues } from "../http/args";
import type { AppContext } from "../http/context";
import { sendsEditorsOnly } from "../http/contract";
import { ApiError, forbidden, InvalidParamsError } from "../http/errors";
import type { RenderContext } from "../http/render";
import { LINKED } from "../linked-posts/kinds";
import type { LinkedInput } from "../linked-posts/nested";
import type { LinkedKind } from "../linked-posts/record";
import { lookupLinked } from "../linked-posts/resolve";
import { type ImageRef, invalidImages, lookupImage } from "../media/image-ref";
import { lookupTerms, type TermRefs } from "../terms/assign";
import { EVENT_FIELDS } from "./contract";
import type { EventRow } from "./record";
import { seriesStateQueries } from "./series/save";
import { eventLoadQueries } from "./single";
import type { CREATE_ARGS } from "./write-args";

/** Which event a save targets: a new one, or one named by id or by slug. */
export type SaveTarget = { create: true } | { id: number } | { slug: string };

/** An event save's request, parsed once (before the retries). */
export interface EventSave {
  c: AppContext;
  target: SaveTarget;
  creating: boolean;
  a: ArgValues<typeof CREATE_ARGS>;
  sent: Set<string>;
  /** Whether the request names a field (a JSON null too: it unlinks, contract §4 row 10). */
  named: (name: string) => boolean;
  venue?: LinkedInput;
  organizer?: LinkedInput;
  categories?: TermRefs;
  tags?: TermRefs;
  /** Media id or URL; null removes the image; undefined leaves it. */
  image?: number | string | null;
  /** Every image the save names, the nested venue's and organizers' included. */
  images: ImageRef[];
  /** Answers of the image URL checks, kept across the retries of this write. */
  checkedUrls: Map<string, Promise<string | null>>;
  /** Digest of the `password` sent (`""` removes it); undefined leaves it. */
  passwordDigest?: string;
  /** The slug base when a slug is to be (re)decided. */
  base: string | null;
  reservation: IdReservation;
  render: RenderContext;
}

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

/**
 * The read batch of a save (one round trip): the event with its links and its series' occurrences
 * and overrides (an update), every venue, organizer, term and image it names, the author, the
 * events with its `uid`, the slugs taken among the slug's variants.
 */
export async function loadEventSave(db: Db, p: EventSave) {
  const { a, target } = p;
  const reads = new NamedBatch();
  const key =
    "create" in target ? null : "id" in target ? { id: target.id } : { slug: target.slug };
  const eventKey = key ? reads.addGroup("event", eventLoadQueries(db, key)) : undefined;
  lookupLinked(reads, db, "venue", p.venue);
  lookupLinked(reads, db, "organizer", p.organizer);
  if (p.categories && !p.categories.clear)
    lookupTerms(reads, db, "tribe_events_cat", p.categories.refs);
  if (p.tags && !p.tags.clear) lookupTerms(reads, db, "post_tag", p.tags.refs);
  if (p.image !== undefined && p.image !== null) lookupImage(reads, db, "image", p.image);
  const authorKey =
    a.author === undefined
      ? undefined
      : reads.add("author", db.select({ id: users.id }).from(users).where(eq(users.id, a.author)));
  const uidKey =
    a.uid === undefined
      ? undefined
      : reads.add("uid", db.select({ id: events.id }).from(events).where(eq(events.uid, a.uid)));
  const slugsKey = p.base
    ? reads.add(
        "slugs",
        db
          .select({ id: events.id, slug: events.slug })
          .from(events)
          // Overrides share their series' slug (contract §7.8): only series and single events count.
          .where(
            sql`${slugTaken(events.slug, p.base)} AND (${events.seriesId} IS NULL OR ${events.seriesId} = ${events.id})`,
          ),
      )
    : undefined;
  // A recurring series' occurrences and overrides (contract §7.8).
  const seriesKey = key ? reads.addGroup("series", seriesStateQueries(db, key)) : undefined;
  const r = await reads.run(db);
  const loaded = r.maybe(eventKey);
  return { r, loaded, authorKey, uidKey, slugsKey, seriesKey };
}

/** What `loadEventSave` read. */
export type EventSaveReads = Awaited<ReturnType<typeof loadEventSave>>;

/**
 * The checks of a save, in WordPress's order: the validators that need D1 (§1.3 step 5), then the
 * permission (§9.2, contract §4 row 15: the same per-post check by id and by slug), then the target.
 * @throws InvalidParamsError `author`, `uid`, `slug`, `image`…; ApiError 401/403 `rest_forbidden`,
 *   404 `rest-event-not-found`, 400 `rest-invalid-event-id`.
 */
export function checkEventSave(p: EventSave, reads: EventSaveReads, existing: EventRow | null) {
  const { a, target, c } = p;
  const { r } = reads;
  const user = c.get("user");
  const invalid: string[] = [];
  if (r.maybe(reads.authorKey)?.length === 0) invalid.push("author");
  // (An occurrence's write may carry its series' UID: an import's, src/events/series/occurrence-save.ts.)
  const own = (id: number) => id === existing?.id || id === existing?.seriesId;
  if (r.maybe(reads.uidKey)?.some((e) => !own(e.id))) invalid.push("uid");
  if ("slug" in target && !existing) invalid.push("slug"); // is_event_slug (§2.5)
  invalid.push(...invalidImages(p.images, r, user)); // is_image (§3), without fetching anything
  if (invalid.length) throw new InvalidParamsError(invalid.map((name) => ({ name })));

  if (existing ? !canEditPost(user, existing) : !can(user, "edit_posts"))
    throw forbidden(user !== null);
  if (a.author !== undefined && a.author !== user!.id && !can(user, "edit_others_posts"))
    throw forbidden(true);
  // Importers match on the lineage: only editors and administrators write it.
  const linked = { venue: p.venue, organizer: p.organizer };
  if (writesEditorsOnly(p.sent, linked) && !can(user, "edit_others_posts")) throw forbidden(true);
  if ("id" in target && !existing) {
    if (reads.loaded?.type.length === 0)
      throw new ApiError(404, "rest-event-not-found", [target.id]);
    throw new ApiError(400, "rest-invalid-event-id");
  }
  // Into or out of the trash through `status` needs what DELETE needs (`delete_post`).
  if (existing && a.status !== undefined) {
    const next = scaleBackStatus(user, a.status);
    if ((next === "trash") !== (existing.status === "trash") && !canDeletePost(user, existing))
      throw forbidden(true);
  }
}
