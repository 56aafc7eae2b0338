/**
 * `GET /events/{id}` and `GET /events/by-slug/{slug}` (tec-reference §2.2, §2.5, §4.1, §4.7, §10.3):
 * one D1 batch loads the post's type, the event and everything it links to.
 */
import { type SQL, sql } from "drizzle-orm";
import { type AuthUser, canEditPost, canReadPost } from "../access/capabilities";
import { type EntryResult, runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { reused } from "../db/compiled";
import { eventOccurrences, events, posts, type Taxonomy } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, type KeptReads, requestParams } from "../http/context";
import { ApiError, InvalidParamsError } from "../http/errors";
import { passwordMatches } from "../http/password-protection";
import { passwordAccess } from "../linked-posts/access";
import { SINGLE_ARGS, SLUG_ARGS } from "./args";
import { assemble, EVENT_COLUMNS, relatedQueries, relatedRows } from "./load";
import type { EventRecord, EventRow } from "./record";
import { needsFullRead, planRead, readRendered, storeAfterAnswer } from "./rendering/read";
import { renderedSingle } from "./rendering/read-sql";
import type { EventLinks } from "./save-input";
import { serializeEvent } from "./serialize";
import { computedOccurrence } from "./series/computed";
import { isInstanceId, readInstanceId } from "./series/instance-ids";
import { type OccurrenceRow, occurrenceRecord } from "./series/occurrences";
import { type EventRenderContext, visibleEvent } from "./visible";

/** Largest id SQLite and JavaScript agree on; larger ids cannot exist. */
const MAX_ID = Number.MAX_SAFE_INTEGER;

/**
 * The queries that load an event with its links, by id or slug, for one batch (possibly at the end
 * of a write batch, to answer with the saved event). Read the results with `eventFromResults`.
 */
export function eventLoadQueries(db: Db, key: { id: number } | { slug: string }) {
  const o = eventOccurrences;
  // An occurrence of a series (contract §7.8) is loaded as its series' event and its own row.
  const byId =
    "id" in key
      ? sql`coalesce((SELECT ${o.seriesId} FROM ${o} WHERE ${o.id} = ${key.id}), ${key.id})`
      : undefined;
  // By slug: the series or single event of that slug, never an override (which shares it).
  const bySlug =
    "slug" in key
      ? sql`${events.slug} = ${key.slug} AND (${events.seriesId} IS NULL OR ${events.seriesId} = ${events.id})`
      : undefined;
  const match = byId ? sql`${events.id} = ${byId}` : (bySlug as SQL);
  const ids = byId
    ? sql`(SELECT ${byId})`
    : sql`(SELECT ${events.id} FROM ${events} WHERE ${bySlug})`;
  const related = relatedQueries(db, ids);
  const typeQuery =
    "id" in key
      ? db
          .select({ postType: posts.postType })
          .from(posts)
          .where(sql`${posts.id} = ${key.id} AND ${posts.deletedGmt} IS NULL`)
      : db.select({ postType: sql<string>`'tribe_events'` }).from(events).where(match);
  return {
    type: typeQuery,
    rows: db.select(EVENT_COLUMNS).from(events).where(match),
    // (By slug: none; `= NULL` matches nothing.)
    occurrence: db
      .select()
      .from(o)
      .where(sql`${o.id} = ${"id" in key ? key.id : null}`),
    ...related,
  };
}

/** The results of `eventLoadQueries`. */
export type EventLoad = EntryResult<ReturnType<typeof eventLoadQueries>>;

/**
 * Reads the results of `eventLoadQueries`: the post type of the id (null when there is no such
 * post), and the record when it is an event — an occurrence of a series as an event of its own
 * (`occurrence` its row, `series` its series' record: contract §7.8).
 */
export function eventFromResults(
  loaded: EventLoad,
  viewer: AuthUser | null,
): {
  postType: string | null;
  record: EventRecord | null;
  occurrence: OccurrenceRow | null;
  series: EventRecord | null;
} {
  const row = loaded.rows[0];
  const record = row ? assemble([row], relatedRows(loaded.related), viewer)[0] : null;
  const occurrence = (record && loaded.occurrence?.[0]) || null;
  return {
    postType: loaded.type[0]?.postType ?? null,
    record: record && occurrence ? occurrenceRecord(record, occurrence) : record,
    occurrence,
    series: record && record.row.seriesId !== null ? record : null,
  };
}

/** The event's links as stored (not as a viewer may see them): organizers in order, terms. */
export function storedLinks(loaded: EventLoad): EventLinks {
  const related = relatedRows(loaded.related);
  const of = (taxonomy: Taxonomy) =>
    related.terms.filter((t) => t.term.taxonomy === taxonomy).map((t) => t.term.id);
  return {
    organizers: related.organizers.map((o) => o.organizer.id),
    terms: { tribe_events_cat: of("tribe_events_cat"), post_tag: of("post_tag") },
  };
}

/** Loads an event with its links in one batch (one D1 round trip). */
export async function loadEvent(
  db: Db,
  key: { id: number } | { slug: string },
  viewer: AuthUser | null,
) {
  return eventFromResults((await runBatch(db, { event: eventLoadQueries(db, key) })).event, viewer);
}

/**
 * §4.7 access rules for a single GET.
 * @throws ApiError 403 `event-no-longer-available` (trash), `event-not-accessible` (not readable),
 *   `event-password-protected` (password not given or wrong).
 */
export async function assertReadable(
  row: EventRow,
  user: AuthUser | null,
  access: { password: unknown; context: unknown },
): Promise<void> {
  if (row.status === "trash") throw new ApiError(403, "event-no-longer-available");
  if (!canReadPost(user, row)) throw new ApiError(403, "event-not-accessible");
  if (row.passwordDigest !== "") {
    const granted =
      (access.context === "edit" && canEditPost(user, row)) ||
      (await passwordMatches(row.passwordDigest, access.password));
    if (!granted) throw new ApiError(403, "event-password-protected");
  }
}

async function render(
  c: AppContext,
  record: EventRecord,
  access: { password: unknown; context: unknown },
): Promise<Response> {
  const user = c.get("user");
  const linkedAccess = await passwordAccess(access.password, access.context, user);
  const ctx: EventRenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user,
    single: true,
    linkedAccess,
  };
  return c.json(serializeEvent(ctx, visibleEvent(ctx, record)));
}

/**
 * An anonymous single GET without a password, caches on: from the stored rendering when it is fresh,
 * else the event read in the same statement and serialized by the full path (its rendering stored
 * after the answer when it was missing or stale). The same answers and errors as the full path
 * (§2.2, §4.7, §10.3).
 */
async function renderedEvent(
  c: AppContext,
  key: { id: number } | { slug: string },
  access: { password: unknown; context: unknown },
  kept: KeptReads,
): Promise<Response> {
  const { db } = c.get("rdb");
  let plan = await planRead(c, "single", "id" in key ? `id:${key.id}` : `slug:${key.slug}`, kept);
  // The statement is a function of the key and the plan: compiled once per isolate (src/db/compiled.ts).
  const statement = (p: typeof plan) =>
    reused(db, JSON.stringify(["single", key, p.key, p.lean, [...p.held.keys()]]), () =>
      renderedSingle(db, key, p),
    );
  let { one } = await runBatch(db, { one: statement(plan) });
  if (needsFullRead(plan, one)) {
    // The event again in full, in one snapshot (the content version read with it once more).
    plan = { ...plan, lean: false };
    c.get("rdb").carryVersion();
    ({ one } = await runBatch(db, { one: statement(plan) }));
  }
  const r = one[0];
  if ("id" in key && !r?.postType) throw new ApiError(404, "rest-event-not-found", [key.id]);
  if (!r || r.id === null) {
    if ("id" in key) throw new ApiError(400, "rest-invalid-event-id");
    // §3 is_event_slug: an event with that slug must exist (any status), else 400.
    throw new InvalidParamsError([{ name: "slug" }]);
  }
  const [item] = readRendered(plan, [r], c.get("urls"), c.get("rdb").versionRead());
  if ("bytes" in item) {
    // A protected event's single text is empty: anonymous readers without a password get the 403.
    if (r.protected) throw new ApiError(403, "event-password-protected");
    c.set("body", item.bytes);
    return c.body(item.bytes, 200, { "Content-Type": "application/json" });
  }
  await assertReadable(item.record.row, null, access);
  const res = await render(c, item.record, access);
  if (item.gen !== null) storeAfterAnswer(c, [{ record: item.source, gen: item.gen }]);
  return res;
}

/**
 * An event by an id of the computed range (src/events/series/instance-ids.ts): the occurrence stored with
 * it, else the one its series gives past its stored horizon (contract §7.8), computed — by the full
 * path, in one round trip (the id's post and its series are read together).
 * @throws ApiError 404 `rest-event-not-found` when neither exists; the errors of `assertReadable`.
 */
async function instanceEvent(
  c: AppContext,
  id: number,
  access: { password: unknown; context: unknown },
): Promise<Response> {
  const user = c.get("user");
  const seriesId = readInstanceId(id)!.seriesId;
  const { db } = c.get("rdb");
  const loaded = await runBatch(db, {
    own: eventLoadQueries(db, { id }),
    series: eventLoadQueries(db, { id: seriesId }),
  });
  let { record } = eventFromResults(loaded.own, user);
  if (!record) {
    const series = eventFromResults(loaded.series, user).record;
    const occurrence = series && computedOccurrence(series.row, id);
    if (!series || !occurrence) throw new ApiError(404, "rest-event-not-found", [id]);
    record = occurrenceRecord(series, occurrence);
  }
  await assertReadable(record.row, user, access);
  return render(c, record, access);
}

/** Handles `GET /events/{id}`. */
export async function getEvent(c: AppContext): Promise<Response> {
  const params = await requestParams(c);
  const { values } = parseArgs(SINGLE_ARGS, params, argContext(c));
  const id = values.id;
  if (id > MAX_ID) throw new ApiError(404, "rest-event-not-found", [id]);
  const access = { password: values.password, context: params.query.context };
  if (isInstanceId(id)) return instanceEvent(c, id, access);
  const kept = c.get("kept");
  if (c.get("user") === null && values.password === undefined && c.get("readCache") && kept)
    return renderedEvent(c, { id }, access, kept);
  const { postType, record } = await loadEvent(c.get("rdb").db, { id }, c.get("user"));
  if (postType === null) throw new ApiError(404, "rest-event-not-found", [id]);
  if (!record) throw new ApiError(400, "rest-invalid-event-id");
  await assertReadable(record.row, c.get("user"), access);
  return render(c, record, access);
}

/** Handles `GET /events/by-slug/{slug}`. */
export async function getEventBySlug(c: AppContext): Promise<Response> {
  const params = await requestParams(c);
  const { values } = parseArgs(SLUG_ARGS, params, argContext(c));
  const slug = values.slug.toLowerCase();
  const access = { password: values.password, context: params.query.context };
  const kept = c.get("kept");
  if (c.get("user") === null && values.password === undefined && c.get("readCache") && kept)
    return renderedEvent(c, { slug }, access, kept);
  const { record } = await loadEvent(c.get("rdb").db, { slug }, c.get("user"));
  // §3 is_event_slug: an event with that slug must exist (any status), else 400.
  if (!record) throw new InvalidParamsError([{ name: "slug" }]);
  await assertReadable(record.row, c.get("user"), access);
  return render(c, record, access);
}
