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
  /** The event (null on the row that only carries `related`). */
  id: number | null;
  /** The generation of the event's fresh rendering (null when missing or stale). */
  freshGen: number | null;
  /**
   * The stored text, when fresh and not among the renderings the statement was told this isolate
   * holds (`""` for the single text of a password-protected event).
   */
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
  items: Array<{ text: string; pair?: string } | { record: EventRecord; gen: number | null }>;
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

/**
 * The page statement after its `hit` CTE, in two parts around the JSON list of the `id:gen` pairs
 * whose texts this isolate holds (left out of the answer: src/events/rendering-memory.ts).
 */
const pageSelect = frozen(
  () => sql`stale(id) AS MATERIALIZED (SELECT id FROM hit WHERE text IS NULL)
SELECT hit.k1 AS k1, hit.k2 AS k2, hit.k3 AS k3, hit.id AS id, hit.g AS freshGen, ${heldText()}`,
);
const pageRest = frozen(
  () => sql`${heldTextEnd()}, ${perEvent()}, NULL AS related FROM hit
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, ${staleRelated()} WHERE EXISTS (SELECT 1 FROM stale)`,
);

/** `text`, left out (NULL) when its `id:gen` is in the JSON list that follows… */
const heldText = frozen(
  () =>
    sql`CASE WHEN hit.text IS NOT NULL AND (hit.id || ':' || hit.g) IN (SELECT value FROM json_each(`,
);
/** …up to here. */
const heldTextEnd = frozen(() => sql`)) THEN NULL ELSE hit.text END AS text`);

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
        )}, ${eventRenderings.list} AS text, ${eventRenderings.gen} AS g FROM page JOIN ${events} ON ${events.id} = page.id ${fresh()}`,
    );
    pageHits.set(name, made);
  }
  return made();
}

/**
 * The statement for a page of events: `page` selects the page's ids in order (the archive's own
 * query, tec-reference §6.1); `order` are its order columns (2 or 3).
 */
export function renderedPage(
  db: Db,
  page: SQLWrapper,
  order: Column[],
  key: string,
  held: Iterable<string>,
) {
  const statement = sql`WITH page(id) AS MATERIALIZED (SELECT * FROM ${page}),
  hit AS MATERIALIZED (${pageHit(order)} ${key}),
  ${pageSelect()}${JSON.stringify([...held])}${pageRest()}`;
  // The related row (no keys) first, then the page in its order.
  return db.select(ROW).from(sql`(${statement})`).orderBy(sql`k1`, sql`k2`, sql`k3`);
}

/** The columns of a rendered read, by name. */
const ROW = {
  id: sql<number | null>`id`,
  freshGen: sql<number | null>`freshGen`,
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
export function renderedSingle(
  db: Db,
  key: { id: number } | { slug: string },
  renderKey: string,
  held: Iterable<string>,
) {
  const match = "id" in key ? sql`${events.id} = ${key.id}` : sql`${events.slug} = ${key.slug}`;
  const postType =
    "id" in key
      ? sql`(SELECT ${posts.postType} FROM ${posts} WHERE ${posts.id} = ${key.id} AND ${posts.deletedGmt} IS NULL)`
      : sql`(SELECT 'tribe_events' FROM hit)`;
  const statement = sql`WITH hit AS MATERIALIZED (${singleHit()} ${renderKey} WHERE ${match}),
  stale(id) AS MATERIALIZED (SELECT id FROM hit WHERE text IS NULL)
SELECT ${postType} AS postType, hit.id AS id, hit.g AS freshGen, ${heldText()}${JSON.stringify([...held])}${singleTail()}`;
  return db.select(SINGLE_ROW).from(sql`(${statement})`);
}

/** `hit` of a single read, up to the render key. */
const singleHit = frozen(
  () =>
    sql`SELECT ${events.id} AS id, ${events.passwordDigest} <> '' AS protected, ${eventRenderings.single} AS text, ${eventRenderings.gen} AS g FROM ${events} ${fresh()}`,
);

/** A single read after its post type and held texts. */
const singleTail = frozen(
  () => sql`${heldTextEnd()}, hit.protected AS protected, ${perEvent()},
  CASE WHEN EXISTS (SELECT 1 FROM stale) THEN ${staleRelated()} END AS related
FROM (SELECT 1) LEFT JOIN hit ON 1`,
);

const SINGLE_ROW = {
  ...ROW,
  postType: sql<string | null>`postType`,
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
 * Decodes a rendered read: each event's stored text (from the answer, or held by this isolate)
 * filled in for this request, or its record (assembled for an anonymous viewer) when the text was
 * missing or stale. Texts read from D1 are kept in the isolate's memory.
 * @param memory the texts the statement was told this isolate holds, by `id:gen`
 *   (src/events/rendering-memory.ts `known`), and where to keep the texts it sent.
 */
export function readRendered(
  rows: RenderedRow[],
  urls: Urls,
  memory: { held: Map<string, string>; keep: (pair: string, text: string) => void },
): RenderedEvents {
  let related: RelatedRows = { venues: [], organizers: [], terms: [], media: [] };
  const stale: Array<{ row: EventRow; gen: number | null; at: number }> = [];
  const items: RenderedEvents["items"] = [];
  for (const r of rows) {
    if (r.related !== null) related = relatedFromText(r.related);
    if (r.freshGen !== null) {
      const pair = `${r.id}:${r.freshGen}`;
      const text = r.text ?? memory.held.get(pair);
      if (text === undefined) throw new Error(`rendering ${pair} neither sent nor held`);
      if (r.text !== null) memory.keep(pair, r.text);
      items.push({ text: fill(text, urls, countsOf(r.counts)), pair });
    } else if (r.row !== null) {
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

/** The `id:gen` pairs of a rendered read's fresh events (what the isolate may hold next time). */
export const pairsOf = (read: RenderedEvents): string[] =>
  read.items.flatMap((item) => ("pair" in item && item.pair ? [item.pair] : []));
