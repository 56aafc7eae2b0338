/**
 * The statements of anonymous event reads from the rendered events (issue 16, src/events/rendered.ts):
 * per page or single GET, each event's stored text (unless this isolate holds it), its terms' counts,
 * and — unless the read is lean — for events whose rendering is missing or stale, the event row and
 * what it links to. Their fixed parts are SQL text made once (`frozen`).
 */
import { type Column, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { eventRenderings, events, eventTerms, posts, terms } from "../db/schema";
import { frozen } from "../db/sql";
import { relatedText, rowObject } from "./load";

/** One row of a rendered read: an event, or (`related` set) what the stale events link to. */
export interface RenderedRow {
  /** The event (null on the row that only carries `related`). */
  id: number | null;
  /** The generation of the event's fresh rendering (null when missing or stale). */
  freshGen: number | null;
  /**
   * The stored text, when fresh and not among the renderings the statement was told this isolate
   * holds (`""` for the single text of a password-protected event).
   */
  text: string | null;
  /** The event's terms' counts, a JSON object by term id (`{"4":12}`). */
  counts: string | null;
  /** The event row as JSON (`rowObject`), when the stored text is missing or stale (not lean). */
  row: string | null;
  /** The rendering's generation, when stale (`src/events/render-store.ts` stores against it). */
  gen: number | null;
  /** `relatedText`'s JSON for the stale events (its own row; not lean). */
  related: string | null;
}

/** Per event of `hit`: its terms' counts. */
const counts = frozen(
  () =>
    sql`(SELECT json_group_object(${eventTerms.termId}, ${terms.count}) FROM ${eventTerms} JOIN ${terms} ON ${terms.id} = ${eventTerms.termId} WHERE ${eventTerms.eventId} = hit.id) AS counts`,
);
/** Per event of `hit`, when its rendering is missing or stale: its generation. */
const staleGen = frozen(
  () =>
    sql`CASE WHEN hit.text IS NULL THEN (SELECT ${eventRenderings.gen} FROM ${eventRenderings} WHERE ${eventRenderings.eventId} = hit.id) END AS gen`,
);
/** Per event of `hit`: counts, the row when stale, the generation when stale. */
const perEvent = frozen(
  () => sql`${counts()},
  CASE WHEN hit.text IS NULL THEN (SELECT ${rowObject(events)} FROM ${events} WHERE ${events.id} = hit.id) END AS row,
  ${staleGen()}`,
);
/** The same without the rows (a lean read: src/events/rendering-memory.ts). */
const perEventLean = frozen(() => sql`${counts()}, NULL AS row, ${staleGen()}`);

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
/** The same without what stale events need (a lean read). */
const pageRestLean = frozen(
  () => sql`${heldTextEnd()}, ${perEventLean()}, NULL AS related FROM hit`,
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

/** What a rendered read is told: the render key, the held `id:gen` pairs, and whether to be lean. */
export interface ReadPlan {
  key: string;
  /** The renderings this isolate holds, by `id:gen` (their texts are left out of the answer). */
  held: ReadonlyMap<string, unknown>;
  /**
   * Leave out the rows and linked rows of events whose rendering is missing or stale (they then
   * need a second round trip: `completeRendered`). Planning that part of the statement costs about
   * as much as running the rest, so it is left out when the isolate's last answer to the same query
   * needed none of it (src/events/rendering-memory.ts).
   */
  lean: boolean;
}

/**
 * The statement for a page of events: `page` selects the page's ids in order (the archive's own
 * query, tec-reference §6.1); `order` are its order columns (2 or 3).
 */
export function renderedPage(db: Db, page: SQLWrapper, order: Column[], plan: ReadPlan) {
  const statement = sql`WITH page(id) AS MATERIALIZED (SELECT * FROM ${page}),
  hit AS MATERIALIZED (${pageHit(order)} ${plan.key}),
  ${pageSelect()}${JSON.stringify([...plan.held.keys()])}${plan.lean ? pageRestLean() : pageRest()}`;
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
export function renderedSingle(db: Db, key: { id: number } | { slug: string }, plan: ReadPlan) {
  const match = "id" in key ? sql`${events.id} = ${key.id}` : sql`${events.slug} = ${key.slug}`;
  const postType =
    "id" in key
      ? sql`(SELECT ${posts.postType} FROM ${posts} WHERE ${posts.id} = ${key.id} AND ${posts.deletedGmt} IS NULL)`
      : sql`(SELECT 'tribe_events' FROM hit)`;
  const statement = sql`WITH hit AS MATERIALIZED (${singleHit()} ${plan.key} WHERE ${match}),
  stale(id) AS MATERIALIZED (SELECT id FROM hit WHERE text IS NULL)
SELECT ${postType} AS postType, hit.id AS id, hit.g AS freshGen, ${heldText()}${JSON.stringify([...plan.held.keys()])}${plan.lean ? singleTailLean() : singleTail()}`;
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

/** The same without what a stale event needs (a lean read). */
const singleTailLean = frozen(
  () => sql`${heldTextEnd()}, hit.protected AS protected, ${perEventLean()}, NULL AS related
FROM (SELECT 1) LEFT JOIN hit ON 1`,
);

const SINGLE_ROW = {
  ...ROW,
  postType: sql<string | null>`postType`,
  protected: sql<number | null>`protected`,
};
