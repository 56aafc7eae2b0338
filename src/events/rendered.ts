/**
 * Anonymous event reads from the rendered events (issue 16, src/events/renderings.ts): one statement
 * per page or single GET that answers each event's stored text, its terms' counts, and — only for
 * events whose rendering is missing or stale — the event row and what it links to, so that those
 * are serialized as usual (src/events/serialize.ts) and their renderings stored after the answer
 * (src/events/render-store.ts). Either way a miss is one D1 round trip.
 */
import { type Column, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type Db, openDb } from "../db/client";
import { eventRenderings, events, eventTerms, posts, terms } from "../db/schema";
import { frozen } from "../db/sql";
import type { AppContext } from "../http/context";
import type { Urls } from "../http/urls";
import {
  assemble,
  decodeRow,
  type RelatedRows,
  relatedFromText,
  relatedText,
  rowObject,
} from "./load";
import { storeRenderings, type ToStore } from "./render-store";
import { fill } from "./renderings";
import type { EventRecord, EventRow } from "./serialize";

/** One row of a rendered read: an event, or (`related` set) what the stale events link to. */
interface RenderedRow {
  /** The stored text, when fresh (`""` for the single text of a password-protected event). */
  text: string | null;
  /** `term id:count` pairs of the event's terms, comma-separated (null: none). */
  counts: string | null;
  /** The event row as JSON (`rowObject`), when the stored text is missing or stale. */
  row: string | null;
  /** The rendering's generation, when stale (`src/events/render-store.ts` stores against it). */
  gen: number | null;
  /** `relatedText`'s JSON for the stale events (its own row). */
  related: string | null;
}

/** A rendered read, decoded. */
export interface RenderedEvents {
  /** Each event in order: its filled-in text, or its record to serialize (stale). */
  items: Array<{ text: string } | { record: EventRecord; gen: number | null }>;
}

/** Per event of `hit`: counts, the row when stale, the generation when stale. */
const perEvent = frozen(
  () => sql`(SELECT group_concat(${eventTerms.termId} || ':' || ${terms.count}) FROM ${eventTerms} JOIN ${terms} ON ${terms.id} = ${eventTerms.termId} WHERE ${eventTerms.eventId} = hit.id) AS counts,
  CASE WHEN hit.text IS NULL THEN (SELECT ${rowObject(events)} FROM ${events} WHERE ${events.id} = hit.id) END AS row,
  CASE WHEN hit.text IS NULL THEN (SELECT ${eventRenderings.gen} FROM ${eventRenderings} WHERE ${eventRenderings.eventId} = hit.id) END AS gen`,
);

/** What the stale events of `stale` link to (`relatedText`). */
const staleRelated = frozen(() => relatedText(sql`(SELECT id FROM stale)`));

/** The event's rendering, joined when fresh for the render key that follows. */
const fresh = frozen(
  () =>
    sql`LEFT JOIN ${eventRenderings} ON ${eventRenderings.eventId} = ${events.id} AND ${eventRenderings.stale} = 0 AND ${eventRenderings.renderKey} =`,
);

/** The page statement after its `hit` CTE. */
const pageTail = frozen(
  () => sql`stale(id) AS MATERIALIZED (SELECT id FROM hit WHERE text IS NULL)
SELECT hit.k1 AS k1, hit.k2 AS k2, hit.k3 AS k3, hit.text AS text, ${perEvent()}, NULL AS related FROM hit
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, ${staleRelated()} WHERE EXISTS (SELECT 1 FROM stale)`,
);

/** `hit`'s columns and joins up to the render key, per order (as SQL text, made once each). */
const pageHits = new Map<string, () => SQL>();
function pageHit(order: Column[]): SQL {
  const name = order.map((c) => c.name).join(",");
  let made = pageHits.get(name);
  if (!made) {
    const keys = [...order, ...order].slice(0, 3);
    made = frozen(
      () =>
        sql`SELECT ${events.id} AS id, ${sql.join(
          keys.map((k, i) => sql`${k} AS ${sql.raw(`k${i + 1}`)}`),
          sql`, `,
        )}, ${eventRenderings.list} AS text FROM page JOIN ${events} ON ${events.id} = page.id ${fresh()}`,
    );
    pageHits.set(name, made);
  }
  return made();
}

/**
 * The statement for a page of events: `page` selects the page's ids in order (the archive's own
 * query, tec-reference §6.1); `order` are its order columns (2 or 3).
 */
export function renderedPage(db: Db, page: SQLWrapper, order: Column[], key: string) {
  const statement = sql`WITH page(id) AS MATERIALIZED (SELECT * FROM ${page}),
  hit AS MATERIALIZED (${pageHit(order)} ${key}),
  ${pageTail()}`;
  // The related row (no keys) first, then the page in its order.
  return db.select(ROW).from(sql`(${statement})`).orderBy(sql`k1`, sql`k2`, sql`k3`);
}

/** The columns of a rendered read, by name. */
const ROW = {
  text: sql<string | null>`text`,
  counts: sql<string | null>`counts`,
  row: sql<string | null>`row`,
  gen: sql<number | null>`gen`,
  related: sql<string | null>`related`,
};

/**
 * The statement for one event by id or slug: the post type of the id (`postType`, null when no
 * such post exists), whether the event is password protected, and the rendered read of it.
 */
export function renderedSingle(db: Db, key: { id: number } | { slug: string }, renderKey: string) {
  const match = "id" in key ? sql`${events.id} = ${key.id}` : sql`${events.slug} = ${key.slug}`;
  const postType =
    "id" in key
      ? sql`(SELECT ${posts.postType} FROM ${posts} WHERE ${posts.id} = ${key.id} AND ${posts.deletedGmt} IS NULL)`
      : sql`(SELECT 'tribe_events' FROM hit)`;
  const statement = sql`WITH hit AS MATERIALIZED (${singleHit()} ${renderKey} WHERE ${match}),
  stale(id) AS MATERIALIZED (SELECT id FROM hit WHERE text IS NULL)
SELECT ${postType} AS postType, ${singleTail()}`;
  return db.select(SINGLE_ROW).from(sql`(${statement})`);
}

/** `hit` of a single read, up to the render key. */
const singleHit = frozen(
  () =>
    sql`SELECT ${events.id} AS id, ${events.passwordDigest} <> '' AS protected, ${eventRenderings.single} AS text FROM ${events} ${fresh()}`,
);

/** A single read after its post type. */
const singleTail = frozen(
  () => sql`hit.id AS id, hit.protected AS protected, hit.text AS text, ${perEvent()},
  CASE WHEN EXISTS (SELECT 1 FROM stale) THEN ${staleRelated()} END AS related
FROM (SELECT 1) LEFT JOIN hit ON 1`,
);

const SINGLE_ROW = {
  ...ROW,
  postType: sql<string | null>`postType`,
  id: sql<number | null>`id`,
  protected: sql<number | null>`protected`,
};

/** `counts` as a map. */
function countsOf(text: string | null): Map<number, number> {
  const map = new Map<number, number>();
  if (text)
    for (const pair of text.split(",")) {
      const at = pair.indexOf(":");
      map.set(Number(pair.slice(0, at)), Number(pair.slice(at + 1)));
    }
  return map;
}

/**
 * Decodes a rendered read: each event's stored text filled in for this request, or its record
 * (assembled for an anonymous viewer) when the text was missing or stale.
 */
export function readRendered(rows: RenderedRow[], urls: Urls): RenderedEvents {
  let related: RelatedRows = { venues: [], organizers: [], terms: [], media: [] };
  const stale: Array<{ row: EventRow; gen: number | null; at: number }> = [];
  const items: RenderedEvents["items"] = [];
  for (const r of rows) {
    if (r.related !== null) related = relatedFromText(r.related);
    if (r.text !== null) items.push({ text: fill(r.text, urls, countsOf(r.counts)) });
    else if (r.row !== null) {
      stale.push({ row: decodeRow(events, JSON.parse(r.row)), gen: r.gen, at: items.length });
      items.push({ text: "" });
    }
  }
  const records = assemble(
    stale.map((s) => s.row),
    related,
    null,
  );
  stale.forEach((s, i) => {
    items[s.at] = { record: records[i], gen: s.gen };
  });
  return { items };
}

/**
 * The JSON texts of a rendered read's events, in order: stored ones as filled in, stale ones
 * serialized by `serialize` and stored for next time after the answer (src/events/render-store.ts).
 */
export function renderedTexts(
  c: AppContext,
  read: RenderedEvents,
  serialize: (record: EventRecord) => string,
): string[] {
  const toStore: ToStore[] = [];
  const texts = read.items.map((item) => {
    if ("text" in item) return item.text;
    toStore.push(item);
    return serialize(item.record);
  });
  storeAfterAnswer(c, toStore);
  return texts;
}

/** Stores the renderings of events a read serialized itself, after the answer (`waitUntil`). */
export function storeAfterAnswer(c: AppContext, items: ToStore[]): void {
  if (!items.length) return;
  // A session of its own: a write, after the answer, not one of the answer's round trips.
  const store = storeRenderings(openDb(c.env.DB, { write: true }).db, c.get("settings"), items);
  try {
    c.executionCtx.waitUntil(store);
  } catch {
    // No execution context (app.request in tests): the store runs on, unawaited.
  }
}
