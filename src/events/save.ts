/**
 * Creating and updating events (tec-reference §8.2, §8.3; contract §4 rows 10, 13, 14, 15, 23):
 * one read batch (next ids, the event, everything referenced), the checks in WordPress's order
 * (validators → permission → handler), then one write batch holding the event, the venue,
 * organizers, terms and media it creates or links, the term counts and the content version — it
 * lands whole or not at all — ending with the reload of the saved event.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { IdAllocator, NamedBatch } from "../db/batch";
import { eventOrganizers, events, eventTerms, posts, terms, users } from "../db/schema";
import { slugBase, slugTaken, uniqueSlug } from "../db/slugs";
import {
  bumpContentVersion,
  nextPostIdQuery,
  nextTermIdQuery,
  postDates,
  recountTerms,
  unlessChanged,
  withWriteRetry,
} from "../db/write";
import { newPlan } from "../db/write-plan";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { sha256Hex } from "../http/crypto";
import { ApiError, forbidden, InvalidParamsError } from "../http/errors";
import { hasParam } from "../http/params";
import type { RenderContext } from "../http/render";
import { type LinkedInput, parseLinkedInput } from "../linked-posts/nested";
import { lookupLinked, resolveLinked } from "../linked-posts/resolve";
import { lookupImage, resolveImage } from "../media/image-ref";
import { lookupTerms, parseTermRefs, resolveTerms } from "../terms/assign";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { can, canEditPost, scaleBackStatus } from "../users/capabilities";
import { currencyFromCost } from "./cost";
import { type EventRow, serializeEvent } from "./serialize";
import { eventFromResults, eventLoadQueries } from "./single";
import { CREATE_ARGS, EDIT_ARGS, EDIT_BY_SLUG_ARGS } from "./write-args";
import { eventDates } from "./write-dates";

/** The event row is as it was read: same id, status and modification time. */
export const unchanged = (row: Pick<EventRow, "id" | "status" | "postModifiedGmt">) =>
  and(
    eq(events.id, row.id),
    eq(events.status, row.status),
    eq(events.postModifiedGmt, row.postModifiedGmt),
  );

/** Whether a save writes `global_id_lineage`, on the event or on a venue or organizer it creates. */
const writesLineage = (own: unknown, ...linked: Array<LinkedInput | undefined>) =>
  own !== undefined ||
  linked.some(
    (i) => i && !i.clear && i.refs.some((r) => "sent" in r && r.sent.has("global_id_lineage")),
  );

/** Which event a save targets: a new one, or one named by id or by slug. */
export type SaveTarget = { create: true } | { id: number } | { slug: string };

/** Handles `POST /events` and `POST|PUT|PATCH /events/{id}` and `/events/by-slug/{slug}`. */
export async function saveEvent(c: AppContext, target: SaveTarget): Promise<Response> {
  const settings = c.get("settings");
  const user = c.get("user");
  const now = c.get("now");
  const ctx = argContext(c);
  const params = await requestParams(c);
  const creating = "create" in target;
  const specs = creating ? CREATE_ARGS : "id" in target ? EDIT_ARGS : EDIT_BY_SLUG_ARGS;
  const { values: a, sent } = parseArgs(
    specs as typeof CREATE_ARGS,
    "slug" in target ? { ...params, path: {} } : params,
    ctx,
  );
  // A JSON null names the field too: it unlinks (contract §4 row 10).
  const named = (name: string) => sent.has(name as never) || hasParam(params, name);
  const venueInput = named("venue") ? parseLinkedInput("venue", a.venue, ctx) : undefined;
  const organizerInput = named("organizer")
    ? parseLinkedInput("organizer", a.organizer, ctx)
    : undefined;
  const categories = named("categories") ? parseTermRefs("categories", a.categories) : undefined;
  const tags = named("tags") ? parseTermRefs("tags", a.tags) : undefined;
  const image = named("image") ? (a.image ?? null) : undefined;
  const { db } = c.get("rdb");

  return withWriteRetry(async () => {
    const reads = new NamedBatch()
      .add("postId", nextPostIdQuery(db))
      .add("termId", nextTermIdQuery(db));
    if ("id" in target) {
      reads.add(
        "type",
        db
          .select({ postType: posts.postType })
          .from(posts)
          .where(and(eq(posts.id, target.id), sql`${posts.deletedGmt} IS NULL`)),
      );
    }
    if (!creating) {
      const match = "id" in target ? eq(events.id, target.id) : eq(events.slug, target.slug);
      reads.add("event", db.select().from(events).where(match));
      reads.add(
        "oldTerms",
        db
          .select({ id: eventTerms.termId })
          .from(eventTerms)
          .innerJoin(events, eq(events.id, eventTerms.eventId))
          .where(match),
      );
    }
    lookupLinked(reads, db, "venue", venueInput);
    lookupLinked(reads, db, "organizer", organizerInput);
    if (categories && !categories.clear)
      lookupTerms(reads, db, "tribe_events_cat", categories.refs);
    if (tags && !tags.clear) lookupTerms(reads, db, "post_tag", tags.refs);
    if (image !== undefined && image !== null) lookupImage(reads, db, "image", image);
    if (a.author !== undefined)
      reads.add("author", db.select({ id: users.id }).from(users).where(eq(users.id, a.author)));
    if (a.uid !== undefined)
      reads.add("uid", db.select({ id: events.id }).from(events).where(eq(events.uid, a.uid)));
    const base = creating || a.slug !== undefined ? slugBase(a.slug, a.title ?? "", "event") : null;
    if (base)
      reads.add(
        "slugs",
        db
          .select({ id: events.id, slug: events.slug })
          .from(events)
          .where(slugTaken(events.slug, base)),
      );
    const r = await reads.run(db);

    const existing: EventRow | null = creating ? null : ((r.event as EventRow[])[0] ?? null);
    // Validators that need D1 (§1.3 step 5) come before the permission check.
    const invalid: string[] = [];
    if (a.author !== undefined && r.author.length === 0) invalid.push("author");
    if (a.uid !== undefined && (r.uid as Array<{ id: number }>).some((e) => e.id !== existing?.id))
      invalid.push("uid");
    if ("slug" in target && !existing) invalid.push("slug"); // is_event_slug (§2.5)
    if (invalid.length) throw new InvalidParamsError(invalid.map((name) => ({ name })));

    // Permission (§9.2, contract §4 row 15: the same per-post check by id and by slug).
    if (existing ? !canEditPost(user, existing) : !can(user, "edit_posts"))
      throw forbidden(user !== null);
    if (a.author !== undefined && a.author !== user!.id && !can(user, "edit_others_posts"))
      throw forbidden(true);
    if (
      writesLineage(a.global_id_lineage, venueInput, organizerInput) &&
      !can(user, "edit_others_posts")
    )
      throw forbidden(true);
    if ("id" in target && !existing) {
      if ((r.type as unknown[]).length === 0)
        throw new ApiError(404, "rest-event-not-found", [target.id]);
      throw new ApiError(400, "rest-invalid-event-id");
    }

    const plan = newPlan({
      db,
      user: user!,
      settings,
      now,
      postIds: new IdAllocator(r.postId[0].next),
      termIds: new IdAllocator(r.termId[0].next),
    });
    const venueIds = venueInput ? resolveLinked(plan, "venue", venueInput, r) : undefined;
    const organizerIds = organizerInput
      ? resolveLinked(plan, "organizer", organizerInput, r)
      : undefined;
    const categoryIds = categories
      ? categories.clear
        ? []
        : resolveTerms(plan, "tribe_events_cat", categories.refs, r)
      : undefined;
    const tagIds = tags
      ? tags.clear
        ? []
        : resolveTerms(plan, "post_tag", tags.refs, r)
      : undefined;
    const imageId =
      image === undefined
        ? undefined
        : image === null
          ? null
          : resolveImage(plan, "image", image, r);
    const id = existing?.id ?? plan.postIds.take();

    const values: Partial<typeof events.$inferInsert> = {};
    if (
      creating ||
      ["start_date", "end_date", "all_day", "timezone"].some((n) => sent.has(n as never))
    ) {
      Object.assign(
        values,
        eventDates(
          {
            start: a.start_date,
            end: a.end_date,
            allDay: sent.has("all_day") || creating ? a.all_day : undefined,
            timezone: a.timezone,
          },
          existing,
          settings.siteTimezone,
          now,
        ),
      );
    }
    if (a.title !== undefined) values.title = a.title;
    if (a.description !== undefined) values.content = a.description;
    if (a.excerpt !== undefined) values.excerpt = a.excerpt;
    if (base)
      values.slug = uniqueSlug(
        base,
        new Set(
          (r.slugs as Array<{ id: number; slug: string }>)
            .filter((e) => e.id !== id)
            .map((e) => e.slug),
        ),
      );
    if (creating || a.status !== undefined) values.status = scaleBackStatus(user, a.status);
    if (a.author !== undefined || creating) values.author = a.author ?? user!.id;
    const postDate =
      a.date_utc !== undefined
        ? parseTime(a.date_utc, resolveZone("UTC")!, now)
        : a.date !== undefined
          ? parseTime(
              a.date,
              resolveZone(a.timezone || existing?.timezone || settings.siteTimezone)!,
              now,
            )
          : null;
    if (postDate) {
      const d = postDates(postDate, settings.siteTimezone);
      Object.assign(values, { postDate: d.local, postDateGmt: d.gmt });
    } else if (creating)
      Object.assign(values, { postDate: plan.stamp.local, postDateGmt: plan.stamp.gmt });
    Object.assign(values, { postModified: plan.stamp.local, postModifiedGmt: plan.stamp.gmt });
    if (a.cost !== undefined) {
      const currency = currencyFromCost(a.cost);
      Object.assign(values, {
        cost: a.cost,
        currencySymbol: currency.symbol,
        currencyPosition: currency.position,
      });
    }
    if (a.currency_symbol !== undefined) values.currencySymbol = a.currency_symbol;
    if (a.currency_position !== undefined) values.currencyPosition = a.currency_position;
    if (a.currency_code !== undefined) values.currencyCode = a.currency_code;
    if (a.global_id_lineage !== undefined) values.globalIdLineage = a.global_id_lineage;
    if (a.website !== undefined) values.website = a.website;
    for (const [arg, column] of [
      ["show_map", "showMap"],
      ["show_map_link", "showMapLink"],
      ["hide_from_listings", "hideFromListings"],
      ["sticky", "sticky"],
      ["featured", "featured"],
      ["ticketed", "ticketed"],
    ] as const) {
      if (a[arg] !== undefined) values[column] = a[arg];
    }
    if (a.password !== undefined)
      values.passwordDigest = a.password === "" ? "" : await sha256Hex(a.password);
    if (a.uid !== undefined) values.uid = a.uid;
    if (venueIds !== undefined) values.venueId = venueIds[0] ?? null;
    if (imageId !== undefined) values.imageId = imageId;

    const s = plan.statements;
    if (existing) s.push(db.update(events).set(values).where(eq(events.id, id)));
    else {
      s.push(db.insert(posts).values({ id, postType: "tribe_events" }));
      s.push(db.insert(events).values({ ...values, id } as typeof events.$inferInsert));
    }
    if (organizerIds !== undefined) {
      s.push(db.delete(eventOrganizers).where(eq(eventOrganizers.eventId, id)));
      if (organizerIds.length)
        s.push(
          db
            .insert(eventOrganizers)
            .values(
              organizerIds.map((organizerId, position) => ({ eventId: id, organizerId, position })),
            ),
        );
    }
    for (const [taxonomy, ids] of [
      ["tribe_events_cat", categoryIds],
      ["post_tag", tagIds],
    ] as const) {
      if (ids === undefined) continue;
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
      if (ids.length)
        s.push(db.insert(eventTerms).values(ids.map((termId) => ({ eventId: id, termId }))));
    }
    const touched = [
      ...new Set([
        ...((r.oldTerms ?? []) as Array<{ id: number }>).map((t) => t.id),
        ...(categoryIds ?? []),
        ...(tagIds ?? []),
      ]),
    ];
    s.push(recountTerms(db, touched), bumpContentVersion(db));
    // An update applies only to the event as read: trashed or deleted in between → read again.
    if (existing)
      s.unshift(
        unlessChanged(db, sql`EXISTS (SELECT 1 FROM ${events} WHERE ${unchanged(existing)})`),
      );
    const reload = eventLoadQueries(db, { id });
    const results = (await db.batch([...s, ...reload] as never)) as unknown[];
    const { record } = eventFromResults(results.slice(s.length));
    const render: RenderContext = { urls: c.get("urls"), settings, user, single: false };
    return c.json(serializeEvent(render, record!), creating ? 201 : 200);
  });
}
