/**
 * The statements of anonymous event reads from the stored renderings (src/events/rendering/read.ts): per
 * page or single GET, each event's stored text when it is fresh for the render key (left out, and
 * flagged `held`, when the isolate already holds that text: it names its `id:gen` pairs), its terms'
 * counts, and — for every event without a usable text (missing, stale, made for another render key,
 * or an event that is not published) — the event row and, in one more row, what those events link
 * to, so that they are serialized by the full path. One round trip either way. A page sends each
 * text and each row once, however many of its items show it (the occurrences of a series: contract
 * §7.8). Their fixed parts are SQL text made once (`frozen`).
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  eventOccurrences,
  eventRenderings,
  events,
  eventTerms,
  posts,
  terms,
} from "../../db/schema";
import { frozen } from "../../db/sql";
import { eventRowObject, relatedText, rowObject } from "../load";

/** One row of a rendered read: an event, or (`related` set) what the events without a text link to. */
export interface RenderedRow {
  /** The event (null on the row that only carries `related`). */
  id: number | null;
  /** The event row it shows: itself, or an occurrence's series (contract §7.8). */
  src: number | null;
  /** The occurrence's row (`rowObject` JSON) when the item is an occurrence of a series; its text is the series' `occurrence`. */
  occurrence: string | null;
  /** The stored text, when fresh for the render key and not `held` (null and not held: serialize the row). */
  text: string | null;
  /**
   * Why the text was left out: 1 the isolate holds it (`id:freshGen`); 2 an earlier row of this
   * answer carries it (the occurrences of one series share their series' text, which holds its
   * lines: contract §7.8, sent once per page); 0 it was not.
   */
  held: number;
  /** The generation of the fresh rendering (null when missing or stale). */
  freshGen: number | null;
  /** The event's terms' counts, a JSON object by term id (`{"4":12}`). */
  counts: string | null;
  /**
   * The event row as JSON (`eventRowObject`), when there is no text — on the first row of the page
   * that shows it (the occurrences of a series share its row; later ones read it from there).
   */
  row: string | null;
  /**
   * The rendering's generation when it is missing or stale (src/events/rendering/store.ts stores the
   * one serialized here against it); null when it is fresh (also for a fresh rendering without
   * text: an event anonymous readers get no text of, which is never stored again by a read).
   */
  gen: number | null;
  /** `relatedText`'s JSON for the events without a text (its own row). */
  related: string | null;
}

/** Per event of `hit`: its terms' counts (an occurrence's: its series'). */
const counts = frozen(
  () =>
    sql`(SELECT json_group_object(${eventTerms.termId}, ${terms.count}) FROM ${eventTerms} JOIN ${terms} ON ${terms.id} = ${eventTerms.termId} WHERE ${eventTerms.eventId} = hit.src) AS counts`,
);

/** Per occurrence of `hit`: its row. */
const occurrenceRow = frozen(
  () =>
    sql`CASE WHEN hit.occ THEN (SELECT ${rowObject(eventOccurrences)} FROM ${eventOccurrences} WHERE ${eventOccurrences.id} = hit.id) END AS occurrence`,
);

/**
 * Per event of `hit`: its terms' counts, its row when it has no text (once per page: `firstOfSrc`),
 * its generation when stale.
 */
const perEvent = frozen(
  () => sql`${counts()},
  CASE WHEN hit.text IS NULL AND hit.firstOfSrc THEN (SELECT ${eventRowObject()} FROM ${events} WHERE ${events.id} = hit.src) END AS row,
  CASE WHEN hit.fresh IS NULL THEN (SELECT ${eventRenderings.gen} FROM ${eventRenderings} WHERE ${eventRenderings.eventId} = hit.src) END AS gen,
  ${occurrenceRow()}`,
);

/** The same without rows and generations (a lean read: `ReadPlan.lean`). */
const perEventLean = frozen(() => sql`${counts()}, NULL AS row, NULL AS gen, ${occurrenceRow()}`);

/** What the events of `bare` (those without a text) link to (`relatedText`). */
const bareRelated = frozen(() => relatedText(sql`(SELECT id FROM bare)`));

/** The event's rendering, joined when fresh for the render key that follows. */
const fresh = frozen(
  () =>
    sql`LEFT JOIN ${eventRenderings} ON ${eventRenderings.eventId} = ${events.id} AND ${eventRenderings.stale} = 0 AND ${eventRenderings.renderKey} =`,
);

/**
 * Whether `hit`'s text is one the isolate holds (the `held` CTE: its `id:gen` pairs; a series'
 * `occurrence` text is `o{id}:gen`).
 */
const isHeld = frozen(
  () =>
    sql`(hit.text IS NOT NULL AND (CASE WHEN hit.occ THEN 'o' ELSE '' END || hit.src || ':' || hit.g) IN (SELECT pair FROM held))`,
);

/**
 * Per event of `hit`: its text unless held (by the isolate, or by an earlier row: `hit.nth`), why
 * held (`RenderedRow.held`), the fresh generation.
 */
const textColumns = frozen(
  () =>
    sql`CASE WHEN ${isHeld()} OR hit.nth > 1 THEN NULL ELSE hit.text END AS text, CASE WHEN ${isHeld()} THEN 1 WHEN hit.text IS NOT NULL AND hit.nth > 1 THEN 2 ELSE 0 END AS held, hit.g AS freshGen`,
);

/** The page statement after its `hit` CTE. */
const pageRest = frozen(
  () => sql`bare(id) AS MATERIALIZED (SELECT DISTINCT src FROM hit WHERE text IS NULL)
SELECT hit.k1 AS k1, hit.k2 AS k2, hit.k3 AS k3, hit.id AS id, hit.src AS src, ${textColumns()}, ${perEvent()}, NULL AS related FROM hit
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, ${bareRelated()} WHERE EXISTS (SELECT 1 FROM bare)`,
);

/** The page statement after its `hit` CTE, lean: no rows, no related row. */
const pageRestLean = frozen(
  () =>
    sql`SELECT hit.k1 AS k1, hit.k2 AS k2, hit.k3 AS k3, hit.id AS id, hit.src AS src, ${textColumns()}, ${perEventLean()}, NULL AS related FROM hit`,
);

/** The `id:gen` pairs whose texts the isolate holds, as the `held` CTE (a JSON list follows). */
const heldPairs = frozen(() => sql`held(pair) AS MATERIALIZED (SELECT value FROM json_each(`);

/**
 * `hit`'s columns and joins up to the render key: each listed item (src/events/listed.ts) with the
 * text of the event row it shows — its `list`, or for an occurrence its series' `occurrence` —,
 * which of the page's items with that text it is (`nth`: only the first sends it), and whether it
 * is the first that shows its event row (`firstOfSrc`: only that one sends the row).
 */
const pageHit = frozen(
  () =>
    sql`SELECT page.id AS id, page.src AS src, page.occ AS occ, page.k1 AS k1, page.k2 AS k2, page.k3 AS k3, CASE WHEN page.occ THEN ${eventRenderings.occurrence} ELSE ${eventRenderings.list} END AS text, ${eventRenderings.eventId} AS fresh, ${eventRenderings.gen} AS g,
  row_number() OVER (PARTITION BY page.occ, page.src ORDER BY page.k1, page.k2, page.k3) AS nth,
  row_number() OVER (PARTITION BY page.src ORDER BY page.k1, page.k2, page.k3) = 1 AS firstOfSrc
FROM page LEFT JOIN ${eventRenderings} ON ${eventRenderings.eventId} = page.src AND ${eventRenderings.stale} = 0 AND ${eventRenderings.renderKey} =`,
);

/** What a rendered read asks for: the render key, and the `id:gen` pairs the isolate holds. */
export interface ReadPlan {
  key: string;
  held: ReadonlyMap<string, string>;
  /**
   * Leave out what events without a text need (their rows, what they link to): compiling that part
   * of the statement costs about as much as running the rest. Planned when the query's last answer
   * had a text for every event at the content version this request expects; a lean read that finds
   * an event without one is made again in full (src/events/rendering/read.ts `needsFullRead`).
   */
  lean: boolean;
}

/**
 * The statement for a page of events: `page` selects the page's items in order (the archive's own
 * query, tec-reference §6.1: src/events/listed.ts `listedQuery`).
 */
export function renderedPage(db: Db, page: SQLWrapper, plan: ReadPlan) {
  const statement = sql`WITH page(id, src, occ, k1, k2, k3) AS MATERIALIZED (SELECT * FROM (${page})),
  ${heldPairs()}${JSON.stringify([...plan.held.keys()])})),
  hit AS MATERIALIZED (${pageHit()} ${plan.key})${plan.lean ? sql`\n${pageRestLean()}` : sql`,\n${pageRest()}`}`;
  // The related row (no keys) first, then the page in its order.
  return db.select(ROW).from(sql`(${statement})`).orderBy(sql`k1`, sql`k2`, sql`k3`);
}

/** The columns of a rendered read, by name. */
const ROW = {
  id: sql<number | null>`id`,
  src: sql<number | null>`src`,
  occurrence: sql<string | null>`occurrence`,
  text: sql<string | null>`text`,
  held: sql<number>`held`,
  freshGen: sql<number | null>`freshGen`,
  counts: sql<string | null>`counts`,
  row: sql<string | null>`row`,
  gen: sql<number | null>`gen`,
  related: sql<string | null>`related`,
};

/**
 * The statement for one event by id or slug: the post type of the id (`postType`, null when no
 * such post exists), whether the event is password protected, and the rendered read of it. An
 * occurrence of a series (contract §7.8) is read as its series' `occurrenceSingle` text (its pair
 * `o{series}:{gen}`), with the occurrence's row.
 */
export function renderedSingle(db: Db, key: { id: number } | { slug: string }, plan: ReadPlan) {
  const o = eventOccurrences;
  const isOccurrence =
    "id" in key ? sql`EXISTS (SELECT 1 FROM ${o} WHERE ${o.id} = ${key.id})` : sql`0`;
  const match =
    "id" in key
      ? sql`${events.id} = coalesce((SELECT ${o.seriesId} FROM ${o} WHERE ${o.id} = ${key.id}), ${key.id})`
      : sql`${events.slug} = ${key.slug} AND (${events.seriesId} IS NULL OR ${events.seriesId} = ${events.id})`;
  const postType =
    "id" in key
      ? sql`(SELECT ${posts.postType} FROM ${posts} WHERE ${posts.id} = ${key.id} AND ${posts.deletedGmt} IS NULL)`
      : sql`(SELECT 'tribe_events' FROM hit)`;
  const statement = sql`WITH ${heldPairs()}${JSON.stringify([...plan.held.keys()])})),
  found AS MATERIALIZED (${singleHit()} ${plan.key} WHERE ${match}),
  hit AS MATERIALIZED (SELECT ${"id" in key ? sql`${key.id}` : sql`found.src`} AS id, found.src AS src, ${isOccurrence} AS occ, found.protected AS protected, CASE WHEN ${isOccurrence} THEN found.otext ELSE found.text END AS text, found.fresh AS fresh, found.g AS g, 1 AS nth, 1 AS firstOfSrc FROM found)${plan.lean ? singleRestLean(postType) : sql`,\n${singleRest(postType)}`}`;
  return db.select(SINGLE_ROW).from(sql`(${statement})`);
}

/** The event row of a single read with its fresh renderings (its own, its occurrences'), up to the render key. */
const singleHit = frozen(
  () =>
    sql`SELECT ${events.id} AS src, ${events.passwordDigest} <> '' AS protected, ${eventRenderings.single} AS text, ${eventRenderings.occurrenceSingle} AS otext, ${eventRenderings.eventId} AS fresh, ${eventRenderings.gen} AS g FROM ${events} ${fresh()}`,
);

/** A single read after its `hit` CTE (`postType`: the post type of the id asked for). */
const singleRest = (
  postType: SQL,
) => sql`bare(id) AS MATERIALIZED (SELECT src FROM hit WHERE text IS NULL)
SELECT ${postType} AS postType, hit.id AS id, hit.src AS src, ${textColumns()}, hit.protected AS protected, ${perEvent()},
  CASE WHEN EXISTS (SELECT 1 FROM bare) THEN ${bareRelated()} END AS related
FROM (SELECT 1) LEFT JOIN hit ON 1`;

/** The same, lean: no row, no related. */
const singleRestLean = (postType: SQL) => sql`
SELECT ${postType} AS postType, hit.id AS id, hit.src AS src, ${textColumns()}, hit.protected AS protected, ${perEventLean()}, NULL AS related
FROM (SELECT 1) LEFT JOIN hit ON 1`;

const SINGLE_ROW = {
  ...ROW,
  postType: sql<string | null>`postType`,
  protected: sql<number | null>`protected`,
};
