/**
 * What an event create or update writes (tec-reference §8.2, §8.3; contract §4 rows 10, 13, 14),
 * the plan step of the event's write sequence (src/db/write-pipeline.ts), decided from the request
 * and the read batch alone (`save-input.ts`), so that it can be built twice (once to count the ids
 * it needs, once with reserved ids: src/db/ids.ts): the event's columns (`save-columns.ts`), its
 * venue, organizers, terms and image (created or linked), the term counts, whether anything
 * changes at all (an update that changes nothing writes nothing) and who can see the change.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchQuery } from "../db/batch";
import type { IdAllocator } from "../db/ids";
import { eventOrganizers, events, eventTerms, posts, type Taxonomy, terms } from "../db/schema";
import { recountTerms } from "../db/write";
import { newPlan, type WritePlan } from "../db/write-plan";
import { resolveLinked } from "../linked-posts/resolve";
import { resolveImage } from "../media/image-ref";
import { resolveTerms, type TermRefs } from "../terms/assign";
import { DATE_ARG } from "./date-fields";
import type { EventRow } from "./record";
import { changedColumns, stampColumns } from "./save-columns";
import type { EventSaveInput, EventSavePlan } from "./save-input";
import { planSeriesSave } from "./series/save";

const sameList = (a: number[], b: number[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const sameSet = (a: number[], b: number[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/** The venue, organizers, terms and image the save names, resolved (undefined: not sent). */
interface ResolvedLinks {
  venueIds?: number[];
  organizerIds?: number[];
  categoryIds?: number[];
  tagIds?: number[];
  /** Media id; null removes the image. */
  imageId?: number | null;
}

/** Resolves (or plans the creation of) what the save links: src/linked-posts/resolve.ts and co. */
function resolveLinks(plan: WritePlan, input: EventSaveInput): ResolvedLinks {
  const r = input.reads;
  const termIds = (taxonomy: Taxonomy, refs: TermRefs | undefined) =>
    refs ? (refs.clear ? [] : resolveTerms(plan, taxonomy, refs.refs, r)) : undefined;
  const image = input.image;
  return {
    venueIds: input.venue ? resolveLinked(plan, "venue", input.venue, r) : undefined,
    organizerIds: input.organizer
      ? resolveLinked(plan, "organizer", input.organizer, r)
      : undefined,
    categoryIds: termIds("tribe_events_cat", input.categories),
    tagIds: termIds("post_tag", input.tags),
    imageId:
      image === undefined
        ? undefined
        : image === null
          ? null
          : resolveImage(plan, { key: "image", param: "image", ref: image }, r),
  };
}

/**
 * Builds the write of one event save.
 * @throws InvalidParamsError from the resolvers (a venue/organizer the writer may not link, an
 *   unknown image), before any id is reserved (the counting build throws first).
 */
export function planEventSave(
  input: EventSaveInput,
  db: Parameters<typeof newPlan>[0]["db"],
  ids: { postIds: IdAllocator; termIds: IdAllocator },
): EventSavePlan {
  const { existing } = input;
  const plan = newPlan({
    db,
    user: input.user,
    settings: input.settings,
    now: input.now,
    imageTypes: input.imageTypes,
    ...ids,
  });
  const links = resolveLinks(plan, input);
  const id = existing?.id ?? plan.postIds.take();
  const { values, guess } = changedColumns(input, links, id);
  const slugChanged = guess !== undefined && guess !== existing?.slug;
  const { organizerIds } = links;
  const { organizersChanged, changedTerms } = linkChanges(input, links);
  const created = plan.postIds.count + plan.termIds.count > (existing ? 0 : 1);
  // A recurring series (contract §7.8): its columns and occurrences, its overrides.
  const series = planSeriesSave({
    plan,
    id,
    existing,
    next: { ...(existing ?? {}), ...values } as EventRow,
    values,
    recurrence: input.recurrence,
    startSent: input.sent.has(DATE_ARG.start) ? input.a.start_date : undefined,
    state: input.series,
    force: input.rematerialize,
    organizers: organizersChanged ? organizerIds : undefined,
    terms: changedTerms,
  });
  const changed =
    existing === null ||
    created ||
    slugChanged ||
    organizersChanged ||
    changedTerms.length > 0 ||
    series.changed ||
    Object.keys(values).length > 0;
  if (!changed) return { id, stamp: plan.stamp, changed, statements: [] };
  stampColumns(plan, input, values, slugChanged ? guess : undefined);
  const s = plan.statements;
  if (existing) s.push(db.update(events).set(values).where(eq(events.id, id)));
  else {
    s.push(db.insert(posts).values({ id, postType: "tribe_events" }));
    s.push(db.insert(events).values({ ...values, id } as typeof events.$inferInsert));
  }
  s.push(...linkStatements(db, id, organizersChanged ? organizerIds : undefined, changedTerms));
  const touched = [
    ...new Set([
      ...input.links.terms.tribe_events_cat,
      ...input.links.terms.post_tag,
      ...(links.categoryIds ?? []),
      ...(links.tagIds ?? []),
    ]),
  ];
  if (touched.length) s.push(recountTerms(db, touched));
  s.push(...series.statements());
  return { id, stamp: plan.stamp, changed, statements: [...plan.guards, ...s] };
}

/** Whether the organizers change (in order), and the taxonomies whose terms change (as sets). */
function linkChanges(input: EventSaveInput, links: ResolvedLinks) {
  const { organizerIds } = links;
  const organizersChanged =
    organizerIds !== undefined && !sameList(organizerIds, input.links.organizers);
  const changedTerms = (
    [
      ["tribe_events_cat", links.categoryIds],
      ["post_tag", links.tagIds],
    ] as const
  ).filter(([taxonomy, ids]) => ids !== undefined && !sameSet(ids, input.links.terms[taxonomy]));
  return { organizersChanged, changedTerms };
}

/** The event's organizers (when they change) and terms of each changed taxonomy, set anew. */
function linkStatements(
  db: WritePlan["db"],
  id: number,
  organizerIds: number[] | undefined,
  changedTerms: ReadonlyArray<readonly [Taxonomy, number[] | undefined]>,
): BatchQuery[] {
  const s: BatchQuery[] = [];
  if (organizerIds) {
    s.push(db.delete(eventOrganizers).where(eq(eventOrganizers.eventId, id)));
    // One bound parameter for the whole list (D1 allows 100 per statement).
    if (organizerIds.length)
      s.push(
        db
          .insert(eventOrganizers)
          .select(sql`SELECT ${id}, value, key FROM json_each(${JSON.stringify(organizerIds)})`),
      );
  }
  for (const [taxonomy, ids] of changedTerms) {
    s.push(
      db
        .delete(eventTerms)
        .where(
          and(
            eq(eventTerms.eventId, id),
            inArray(
              eventTerms.termId,
              db.select({ id: terms.id }).from(terms).where(eq(terms.taxonomy, taxonomy)),
            ),
          ),
        ),
    );
    if (ids!.length)
      s.push(
        db
          .insert(eventTerms)
          .select(sql`SELECT ${id}, value FROM json_each(${JSON.stringify(ids)})`),
      );
  }
  return s;
}
