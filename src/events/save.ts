/**
 * Creating and updating events (tec-reference §8.2, §8.3; contract §4 rows 10, 13, 14, 15, 23),
 * through the write sequence (src/db/write-pipeline.ts): the request parsed once; one read batch
 * (the event with its links, everything referenced: `save-load.ts`); the checks in WordPress's order
 * (validators → permission → handler); the ids it needs reserved (src/db/ids.ts); then one write
 * batch holding the event, the venue, organizers, terms and media it creates or links, the term
 * counts and the content version — it lands whole or not at all — ending with the reload of the
 * saved event. What is written is decided in `save-plan.ts` (an occurrence's write in
 * src/events/series/occurrence-save.ts); an update that changes nothing writes nothing and answers
 * the event as it is.
 */
import { and, eq, sql } from "drizzle-orm";
import { canEditPost } from "../access/capabilities";
import { IdReservation, withReservedIds } from "../db/ids";
import { events } from "../db/schema";
import { slugBase } from "../db/slugs";
import { unlessChanged } from "../db/write";
import { answerOnly, runWrite, type WriteDecision, writeThen } from "../db/write-pipeline";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { sha256Hex } from "../http/crypto";
import { InvalidParamsError } from "../http/errors";
import { hasParam } from "../http/params";
import type { RenderContext } from "../http/render";
import { parseLinkedInput } from "../linked-posts/nested";
import { checkNewImageUrls, type ImageRef, nestedImageRefs } from "../media/image-ref";
import { parseTermRefs } from "../terms/assign";
import type { EventRecord, EventRow } from "./record";
import type { EventSaveInput } from "./save-input";
import {
  checkEventSave,
  type EventSave,
  type EventSaveReads,
  loadEventSave,
  type SaveTarget,
} from "./save-load";
import { planEventSave } from "./save-plan";
import { serializeEvent } from "./serialize";
import { planOccurrenceSave } from "./series/occurrence-save";
import { isOverride } from "./series/occurrences";
import { storeNamed } from "./series/reach";
import { eventFromResults, eventLoadQueries, storedLinks } from "./single";
import { visibleEvent } from "./visible";
import { CREATE_ARGS, EDIT_ARGS, EDIT_BY_SLUG_ARGS } from "./write-args";

/** The event row is as it was read: same id, status and change time. */
export const unchanged = (row: Pick<EventRow, "id" | "status" | "changedGmt">) =>
  and(eq(events.id, row.id), eq(events.status, row.status), eq(events.changedGmt, row.changedGmt));

/**
 * Handles `POST /events` and `POST|PUT|PATCH /events/{id}` and `/events/by-slug/{slug}`.
 * @throws InvalidParamsError (validators, §1.3), ApiError 401/403 `rest_forbidden`, 404
 *   `rest-event-not-found`, 400 `rest-invalid-event-id` (`save-load.ts` `checkEventSave`).
 */
export function saveEvent(c: AppContext, target: SaveTarget): Promise<Response> {
  const { db } = c.get("rdb");
  return runWrite(db, {
    parse: () => parseEventSave(c, target),
    load: (p) => loadEventSave(db, p),
    plan: planEventWrite,
  });
}

/** The arguments (§1.3 steps 1–4), what they name, the password's digest. */
async function parseEventSave(c: AppContext, target: SaveTarget): Promise<EventSave> {
  const params = await requestParams(c);
  const creating = "create" in target;
  const specs = creating ? CREATE_ARGS : "id" in target ? EDIT_ARGS : EDIT_BY_SLUG_ARGS;
  const ctx = argContext(c);
  const { values: a, sent } = parseArgs(
    specs as typeof CREATE_ARGS,
    "slug" in target ? { ...params, path: {} } : params,
    ctx,
  );
  // Trash is one code path: an event is trashed by DELETE or by an update of one.
  if (creating && a.status === "trash") throw new InvalidParamsError([{ name: "status" }]);
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
  const checkedUrls = new Map<string, Promise<string | null>>();
  const passwordDigest =
    a.password === undefined ? undefined : a.password === "" ? "" : await sha256Hex(a.password);
  const { db } = c.get("rdb");
  const user = c.get("user");
  const render: RenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user,
    single: false,
  };
  // An occurrence past its series' stored horizon, named by its computed id (contract §7.8).
  if ("id" in target)
    await storeNamed(db, target.id, (row) => canEditPost(user, row), requestNow(c));
  const base = creating || a.slug !== undefined ? slugBase(a.slug, a.title ?? "", "event") : null;
  const reservation = new IdReservation(db);
  const parts = { venue, organizer, categories, tags, image, images, checkedUrls, passwordDigest };
  return {
    c,
    target,
    creating,
    a,
    sent: sent as Set<string>,
    named,
    ...parts,
    base,
    reservation,
    render,
  };
}

/** The checks, then the plan of an occurrence's write or of the event's own. */
async function planEventWrite(
  p: EventSave,
  reads: EventSaveReads,
): Promise<WriteDecision<Response>> {
  const { c, render } = p;
  const user = c.get("user");
  const { db } = c.get("rdb");
  const { loaded } = reads;
  const current = loaded ? eventFromResults(loaded, user) : null;
  const existing: EventRow | null = loaded?.rows[0] ?? null;
  checkEventSave(p, reads, existing);
  // The rest of is_image: new URLs must answer a HEAD as images (I/O, so before the plan).
  const settings = c.get("settings");
  const imageTypes = await checkNewImageUrls(
    p.images,
    reads.r,
    settings.imageUrlCheck,
    p.checkedUrls,
  );
  const input = saveInput(p, reads, existing, imageTypes);
  // One occurrence of a series, or it and the rest (`scope=following`): src/events/series/occurrence-save.ts.
  if (current?.occurrence || (existing && isOverride(existing))) {
    const { scope, revert } = p.a as { scope?: string; revert?: boolean };
    const job = { input, current: current!, scope, revert: revert === true };
    return planOccurrenceSave(c, { ...job, reservation: p.reservation, render });
  }
  const write = await withReservedIds(p.reservation, (ids) => planEventSave(input, db, ids));
  const answer = (record: EventRecord, status: 200 | 201) =>
    c.json(serializeEvent(render, visibleEvent(render, record)), status);
  if (!write.changed) return answerOnly(() => answer(current!.record!, 200));
  const s = [
    // An update applies only to the event as read: trashed or deleted in between → read again.
    ...(existing
      ? [unlessChanged(db, sql`EXISTS (SELECT 1 FROM ${events} WHERE ${unchanged(existing)})`)]
      : []),
    ...write.statements,
  ];
  return writeThen(s, eventLoadQueries(db, { id: write.id }), (event) =>
    answer(eventFromResults(event, user).record!, p.creating ? 201 : 200),
  );
}

/** What the plan of the event's save is built from: the request and the reads. */
function saveInput(
  p: EventSave,
  reads: EventSaveReads,
  existing: EventRow | null,
  imageTypes: ReadonlyMap<string, string>,
): EventSaveInput {
  const { c, a } = p;
  const { r, loaded } = reads;
  return {
    imageTypes,
    user: c.get("user")!,
    settings: c.get("settings"),
    now: requestNow(c),
    existing,
    links: loaded
      ? storedLinks(loaded)
      : { organizers: [], terms: { tribe_events_cat: [], post_tag: [] } },
    a,
    sent: p.sent,
    venue: p.venue,
    organizer: p.organizer,
    categories: p.categories,
    tags: p.tags,
    image: p.image,
    passwordDigest: p.passwordDigest,
    slug: p.base && reads.slugsKey ? { base: p.base, taken: r.get(reads.slugsKey) } : null,
    reads: r,
    recurrence: p.named("recurrence") ? (a.recurrence ?? []) : undefined,
    series: r.maybe(reads.seriesKey) ?? { occurrences: [], overrides: [] },
  };
}
