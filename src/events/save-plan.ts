/**
 * What an event create or update writes (tec-reference §8.2, §8.3; contract §4 rows 10, 13, 14),
 * decided from the request and the read batch alone, so that it can be built twice (once to count
 * the ids it needs, once with reserved ids: src/db/ids.ts): the event's columns, its venue,
 * organizers, terms and image (created or linked), the term counts, whether anything changes at all
 * (an update that changes nothing writes nothing) and who can see the change.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DateTime } from "luxon";
import { type AuthUser, scaleBackStatus } from "../access/capabilities";
import type { BatchQuery, NamedBatch } from "../db/batch";
import type { IdAllocator } from "../db/ids";
import { eventOrganizers, events, eventTerms, posts, type Taxonomy, terms } from "../db/schema";
import { freeSlug, uniqueSlug } from "../db/slugs";
import { postDates, recountTerms } from "../db/write";
import { newPlan } from "../db/write-plan";
import type { ArgValues } from "../http/args";
import { writeColumns } from "../http/contract";
import type { LinkedInput } from "../linked-posts/nested";
import { sentPostDate } from "../linked-posts/post-fields";
import { resolveLinked } from "../linked-posts/resolve";
import { resolveImage } from "../media/image-ref";
import type { Settings } from "../settings";
import { resolveTerms, type TermRefs } from "../terms/assign";
import { htmlFiltersFor } from "../text/kses";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { EVENT_FIELDS } from "./contract";
import { currencyFromCost } from "./cost";
import { DATE_ARG, dateInputs } from "./date-fields";
import type { EventRow } from "./record";
import { planSeriesSave, type SeriesState } from "./series/save";
import type { CREATE_ARGS } from "./write-args";
import { eventDates } from "./write-dates";

/** The links of the event as read: organizer ids in order, term ids per taxonomy. */
export interface EventLinks {
  organizers: number[];
  terms: Record<Taxonomy, number[]>;
}

/** Everything the plan is built from. */
export interface EventSaveInput {
  user: AuthUser;
  settings: Settings;
  now: DateTime;
  /** The event as read (null: a create). */
  existing: EventRow | null;
  /** Its links as read, whatever the viewer may see (empty for a create). */
  links: EventLinks;
  a: ArgValues<typeof CREATE_ARGS>;
  sent: Set<string>;
  venue?: LinkedInput;
  organizer?: LinkedInput;
  categories?: TermRefs;
  tags?: TermRefs;
  /** Media id or URL; null removes the image; undefined leaves it. */
  image?: number | string | null;
  /** MIME types of the new image URLs, checked before the plan (src/media/image-ref.ts). */
  imageTypes: ReadonlyMap<string, string>;
  /** Digest of the `password` sent (`""` removes it); undefined leaves it. */
  passwordDigest?: string;
  /** The slug base when a slug is to be (re)decided, and the slugs taken among its variants. */
  slug: { base: string; taken: Array<{ id: number; slug: string }> } | null;
  reads: NamedBatch;
  /** `recurrence` as sent (`[]` ends a series' repetition); undefined when not sent (contract §7.8). */
  recurrence?: string[];
  /** The series' occurrences and overrides as read (empty for a single event). */
  series: SeriesState;
  /** Materialize the series again though neither its dates nor its lines change (a split). */
  rematerialize?: boolean;
}

export interface EventSavePlan {
  id: number;
  /** The write's post-date stamp: site-local and UTC `Y-m-d H:i:s`. */
  stamp: { local: string; gmt: string };
  /** False for an update that changes nothing: nothing is written. */
  changed: boolean;
  /** The guards, then the statements of the write batch. */
  statements: BatchQuery[];
}

const sameValue = (a: unknown, b: unknown) =>
  a === b || (Array.isArray(a) && Array.isArray(b) && JSON.stringify(a) === JSON.stringify(b));
const sameList = (a: number[], b: number[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const sameSet = (a: number[], b: number[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * The event's own columns as sent (dates, texts through the writer's HTML filters, status, author,
 * post date, cost and currency, flags, password, uid), before comparison with the row as read.
 */
function sentColumns(input: EventSaveInput): Partial<typeof events.$inferInsert> {
  const { a, sent, existing, settings, now, user } = input;
  const creating = existing === null;
  const html = htmlFiltersFor(user);
  const values: Partial<typeof events.$inferInsert> = {};
  const dates = dateInputs(a, sent, creating);
  if (dates) Object.assign(values, eventDates(dates, existing, settings.siteTimezone, now));
  if (creating || a.status !== undefined) values.status = scaleBackStatus(user, a.status);
  if (a.author !== undefined || creating) values.author = a.author ?? user.id;
  const sentDate = sentPostDate(a);
  const postDate = sentDate
    ? parseTime(
        sentDate.value,
        resolveZone(
          sentDate.utc ? "UTC" : a.timezone || existing?.timezone || settings.siteTimezone,
        )!,
        now,
      )
    : null;
  if (postDate) {
    const d = postDates(postDate, settings.siteTimezone);
    Object.assign(values, { postDate: d.local, postDateGmt: d.gmt });
  }
  if (a.cost !== undefined) {
    const currency = currencyFromCost(a.cost);
    Object.assign(values, {
      cost: a.cost,
      currencySymbol: currency.symbol,
      currencyPosition: currency.position,
    });
  }
  // The plain columns of the contract: the title, description and excerpt through the writer's HTML
  // filters, flags, website, lineage, `uid`, and the explicit currency fields (imports keep their
  // source's), which override what the cost text implies.
  Object.assign(values, writeColumns(EVENT_FIELDS, a, sent, html));
  if (input.passwordDigest !== undefined) values.passwordDigest = input.passwordDigest;
  return values;
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
  const { existing, reads: r } = input;
  const plan = newPlan({
    db,
    user: input.user,
    settings: input.settings,
    now: input.now,
    imageTypes: input.imageTypes,
    ...ids,
  });
  const venueIds = input.venue ? resolveLinked(plan, "venue", input.venue, r) : undefined;
  const organizerIds = input.organizer
    ? resolveLinked(plan, "organizer", input.organizer, r)
    : undefined;
  const termIds = (taxonomy: Taxonomy, refs: TermRefs | undefined) =>
    refs ? (refs.clear ? [] : resolveTerms(plan, taxonomy, refs.refs, r)) : undefined;
  const categoryIds = termIds("tribe_events_cat", input.categories);
  const tagIds = termIds("post_tag", input.tags);
  const image = input.image;
  const imageId =
    image === undefined
      ? undefined
      : image === null
        ? null
        : resolveImage(plan, { key: "image", param: "image", ref: image }, r);
  const id = existing?.id ?? plan.postIds.take();

  const values = sentColumns(input);
  if (venueIds !== undefined) values.venueId = venueIds[0] ?? null;
  if (imageId !== undefined) values.imageId = imageId;
  // WordPress's first free slug as read; decided again in the batch should a parallel write take it.
  const guess = input.slug
    ? uniqueSlug(
        input.slug.base,
        new Set(input.slug.taken.filter((e) => e.id !== id).map((e) => e.slug)),
      )
    : undefined;
  if (existing) {
    const row = existing as unknown as Record<string, unknown>;
    for (const [column, value] of Object.entries(values)) {
      if (sameValue(row[column], value)) delete values[column as keyof typeof values];
    }
  }
  const slugChanged = guess !== undefined && guess !== existing?.slug;
  const organizersChanged =
    organizerIds !== undefined && !sameList(organizerIds, input.links.organizers);
  const changedTerms = (
    [
      ["tribe_events_cat", categoryIds],
      ["post_tag", tagIds],
    ] as const
  ).filter(([taxonomy, ids]) => ids !== undefined && !sameSet(ids, input.links.terms[taxonomy]));
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

  // Trash is one code path: what DELETE records, an update into the trash records too.
  const status = values.status ?? existing?.status;
  if (existing && status === "trash" && existing.status !== "trash")
    values.trashMetaStatus = existing.status;
  else if (existing?.status === "trash" && status !== "trash") values.trashMetaStatus = "";
  if (!existing && values.postDate === undefined)
    Object.assign(values, { postDate: plan.stamp.local, postDateGmt: plan.stamp.gmt });
  // WordPress (`wp_insert_post`): a new post's `modified` is its post date, which the client may set
  // in the past; an update's is now. The change time says when this write happened either way.
  Object.assign(
    values,
    existing
      ? { postModified: plan.stamp.local, postModifiedGmt: plan.stamp.gmt }
      : { postModified: values.postDate, postModifiedGmt: values.postDateGmt },
    { changedGmt: plan.stamp.gmt },
  );
  if (slugChanged) {
    values.slug = freeSlug("events", input.slug!.base, guess!, {
      except: existing?.id,
      // Overrides share their series' slug (contract §7.8): only series and single events count.
      scope: sql`(s.series_id IS NULL OR s.series_id = s.id)`,
    }) as unknown as string;
  }

  const s = plan.statements;
  if (existing) s.push(db.update(events).set(values).where(eq(events.id, id)));
  else {
    s.push(db.insert(posts).values({ id, postType: "tribe_events" }));
    s.push(db.insert(events).values({ ...values, id } as typeof events.$inferInsert));
  }
  if (organizersChanged) {
    s.push(db.delete(eventOrganizers).where(eq(eventOrganizers.eventId, id)));
    // One bound parameter for the whole list (D1 allows 100 per statement).
    if (organizerIds!.length)
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
  const touched = [
    ...new Set([
      ...input.links.terms.tribe_events_cat,
      ...input.links.terms.post_tag,
      ...(categoryIds ?? []),
      ...(tagIds ?? []),
    ]),
  ];
  if (touched.length) s.push(recountTerms(db, touched));
  s.push(...series.statements());
  return { id, stamp: plan.stamp, changed, statements: [...plan.guards, ...s] };
}
