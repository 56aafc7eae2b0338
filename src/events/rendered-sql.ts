/**
 * The statements of anonymous event reads from the stored renderings (src/events/rendered.ts): per
 * page or single GET, each event's stored text when it is fresh for the render key, filled in by
 * SQLite for the request — its URLs (bound values) and its terms' current counts
 * (src/events/renderings.ts: the marks `U+0001` + letter, `U+0001C{term id};`) — and, for every
 * event without a usable text (missing, stale, made for another render key, or an event that is not
 * published), the event row and, in one more row, what those events link to, so that they are
 * serialized by the full path. One round trip either way. A page sends each text and each row once,
 * however many of its items show it (the occurrences of a series, whose own values the worker fills
 * in: contract §7.8). Their fixed parts are SQL text made once (`frozen`).
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { eventOccurrences, eventRenderings, events, eventTerms, posts, terms } from "../db/schema";
import { frozen } from "../db/sql";
import type { Urls } from "../http/urls";
import { eventRowObject, relatedText, rowObject } from "./load";

/** One row of a rendered read: an event, or (`related` set) what the events without a text link to. */
export interface RenderedRow {
  /** The event (null on the row that only carries `related`). */
  id: number | null;
  /** The event row it shows: itself, or an occurrence's series (contract §7.8). */
  src: number | null;
  /** The occurrence's row (`rowObject` JSON) when the item is an occurrence of a series; its text is the series' `occurrence`. */
  occurrence: string | null;
  /**
   * The stored text with the request's URLs and the terms' counts filled in, when fresh for the
   * render key and not `held` (null and not held: serialize the row).
   */
  text: string | null;
  /**
   * 2 when an earlier row of this answer carries the text (the occurrences of one series share their
   * series' text, which holds its lines: contract §7.8, sent once per page); else 0.
   */
  held: number;
  /**
   * The event row as JSON (`eventRowObject`), when there is no text — on the first row of the page
   * that shows it (the occurrences of a series share its row; later ones read it from there).
   */
  row: string | null;
  /**
   * The rendering's generation when it is missing or stale (src/events/render-store.ts stores the
   * one serialized here against it); null when it is fresh (also for a fresh rendering without
   * text: an event anonymous readers get no text of, which is never stored again by a read).
   */
  gen: number | null;
  /** `relatedText`'s JSON for the events without a text (its own row). */
  related: string | null;
}

/** Per occurrence of `hit`: its row. */
const occurrenceRow = frozen(
  () =>
    sql`CASE WHEN hit.occ THEN (SELECT ${rowObject(eventOccurrences)} FROM ${eventOccurrences} WHERE ${eventOccurrences.id} = hit.id) END AS occurrence`,
);

/**
 * Per event of `hit`: its row when it has no text (once per page: `firstOfSrc`), its generation when
 * stale, its occurrence's row.
 */
const perEvent = frozen(
  () => sql`CASE WHEN hit.raw IS NULL AND hit.firstOfSrc THEN (SELECT ${eventRowObject()} FROM ${events} WHERE ${events.id} = hit.src) END AS row,
  CASE WHEN hit.fresh IS NULL THEN (SELECT ${eventRenderings.gen} FROM ${eventRenderings} WHERE ${eventRenderings.eventId} = hit.src) END AS gen,
  ${occurrenceRow()}`,
);

/** What the events of `bare` (those without a text) link to (`relatedText`). */
const bareRelated = frozen(() => relatedText(sql`(SELECT id FROM bare)`));

/** The position of the first count mark (`U+0001C`) of a `filling` row's text (0: none left). */
const countAt = "instr(text, char(1) || 'C')";

/** The step that fills one count mark of a `filling` row, and the rows without any left. */
const countStep = frozen(
  () => sql`SELECT src, occ, replace(text, substr(text, ${sql.raw(countAt)}, instr(substr(text, ${sql.raw(countAt)}), ';')), coalesce((SELECT ${terms.count} FROM ${eventTerms} JOIN ${terms} ON ${terms.id} = ${eventTerms.termId} WHERE ${eventTerms.eventId} = filling.src AND ${eventTerms.termId} = CAST(substr(text, ${sql.raw(countAt)} + 2) AS INTEGER)), 0)) FROM filling WHERE ${sql.raw(countAt)} > 0),
  filled(src, occ, text) AS MATERIALIZED (SELECT src, occ, text FROM filling WHERE ${sql.raw(countAt)} = 0)`,
);

/** The URL marks' letters and the request URL each stands for (src/events/renderings.ts). */
const URL_MARKS: Array<[string, keyof Urls]> = [
  ["A", "apiRoot"],
  ["N", "namespaceRoot"],
  ["W", "wpRoot"],
  ["S", "site"],
  ["G", "globalIdPrefix"],
  ["H", "siteHost"],
];

/**
 * The texts of `hit` filled in for the request, as `filled(src, occ, text)`: the URL marks replaced
 * by the request's URLs (JSON-escaped, bound), then the count marks, one term per step, each by the
 * count of that term among the event's own terms (0 when it has none of that id) — what
 * src/events/renderings.ts `filler` does in JavaScript. Only the first item of each text (`nth` 1)
 * is filled; later ones are `held`.
 */
function filled(urls: Urls): SQL {
  const withUrls = URL_MARKS.reduce<SQL>(
    (inner, [letter, name]) =>
      sql`replace(${inner}, char(1) || ${sql.raw(`'${letter}'`)}, ${JSON.stringify(urls[name]).slice(1, -1)})`,
    sql.raw("raw"),
  );
  return sql`filling(src, occ, text) AS (SELECT src, occ, ${withUrls} FROM hit WHERE raw IS NOT NULL AND nth = 1
  UNION ALL
  ${countStep()}`;
}

/** Per event of `hit`: its filled text unless an earlier row carries it (`hit.nth`), and whether held. */
const textColumns = frozen(
  () =>
    sql`filled.text AS text, CASE WHEN hit.raw IS NOT NULL AND hit.nth > 1 THEN 2 ELSE 0 END AS held`,
);

/** The join of `hit` with its filled text. */
const filledOfHit = frozen(
  () => sql`filled.src = hit.src AND filled.occ = hit.occ AND hit.nth = 1`,
);

/** The page statement after its `filled` CTE. */
const pageRest = frozen(
  () => sql`bare(id) AS MATERIALIZED (SELECT DISTINCT src FROM hit WHERE raw IS NULL)
SELECT hit.k1 AS k1, hit.k2 AS k2, hit.k3 AS k3, hit.id AS id, hit.src AS src, ${textColumns()}, ${perEvent()}, NULL AS related FROM hit LEFT JOIN filled ON ${filledOfHit()}
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, ${bareRelated()} WHERE EXISTS (SELECT 1 FROM bare)`,
);

/**
 * `hit`'s columns and joins up to the render key: each listed item (src/events/listed.ts) with the
 * stored text of the event row it shows (`raw`) — its `list`, or for an occurrence its series'
 * `occurrence` —, which of the page's items with that text it is (`nth`: only the first sends it),
 * and whether it is the first that shows its event row (`firstOfSrc`: only that one sends the row).
 */
const pageHit = frozen(
  () =>
    sql`SELECT page.id AS id, page.src AS src, page.occ AS occ, page.k1 AS k1, page.k2 AS k2, page.k3 AS k3, CASE WHEN page.occ THEN ${eventRenderings.occurrence} ELSE ${eventRenderings.list} END AS raw, ${eventRenderings.eventId} AS fresh,
  row_number() OVER (PARTITION BY page.occ, page.src ORDER BY page.k1, page.k2, page.k3) AS nth,
  row_number() OVER (PARTITION BY page.src ORDER BY page.k1, page.k2, page.k3) = 1 AS firstOfSrc
FROM page LEFT JOIN ${eventRenderings} ON ${eventRenderings.eventId} = page.src AND ${eventRenderings.stale} = 0 AND ${eventRenderings.renderKey} =`,
);

/**
 * The statement for a page of events: `page` selects the page's items in order (the archive's own
 * query, tec-reference §6.1: src/events/listed.ts `listedQuery`); `key` is the render key
 * (src/events/renderings.ts `renderKey`), `urls` the request's.
 */
export function renderedPage(db: Db, page: SQLWrapper, key: string, urls: Urls) {
  const statement = sql`WITH page(id, src, occ, k1, k2, k3) AS MATERIALIZED (SELECT * FROM (${page})),
  hit AS MATERIALIZED (${pageHit()} ${key}),
  ${filled(urls)},
  ${pageRest()}`;
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
  row: sql<string | null>`row`,
  gen: sql<number | null>`gen`,
  related: sql<string | null>`related`,
};

/**
 * The statement for one event by id or slug: the post type of the id (`postType`, null when no
 * such post exists), whether the event is password protected, and the rendered read of it. An
 * occurrence of a series (contract §7.8) is read as its series' `occurrenceSingle` text, with the
 * occurrence's row.
 */
export function renderedSingle(
  db: Db,
  key: { id: number } | { slug: string },
  renderKey: string,
  urls: Urls,
) {
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
  const statement = sql`WITH found AS MATERIALIZED (${singleHit()} ${renderKey} WHERE ${match}),
  hit AS MATERIALIZED (SELECT ${"id" in key ? sql`${key.id}` : sql`found.src`} AS id, found.src AS src, ${isOccurrence} AS occ, found.protected AS protected, CASE WHEN ${isOccurrence} THEN found.otext ELSE found.text END AS raw, found.fresh AS fresh, 1 AS nth, 1 AS firstOfSrc FROM found),
  ${filled(urls)},
  ${singleRest(postType)}`;
  return db.select(SINGLE_ROW).from(sql`(${statement})`);
}

/** The event row of a single read with its fresh renderings (its own, its occurrences'), up to the render key. */
const singleHit = frozen(
  () =>
    sql`SELECT ${events.id} AS src, ${events.passwordDigest} <> '' AS protected, ${eventRenderings.single} AS text, ${eventRenderings.occurrenceSingle} AS otext, ${eventRenderings.eventId} AS fresh FROM ${events} LEFT JOIN ${eventRenderings} ON ${eventRenderings.eventId} = ${events.id} AND ${eventRenderings.stale} = 0 AND ${eventRenderings.renderKey} =`,
);

/** A single read after its `filled` CTE (`postType`: the post type of the id asked for). */
const singleRest = (
  postType: SQL,
) => sql`bare(id) AS MATERIALIZED (SELECT src FROM hit WHERE raw IS NULL)
SELECT ${postType} AS postType, hit.id AS id, hit.src AS src, ${textColumns()}, hit.protected AS protected, ${perEvent()},
  CASE WHEN EXISTS (SELECT 1 FROM bare) THEN ${bareRelated()} END AS related
FROM (SELECT 1) LEFT JOIN hit ON 1 LEFT JOIN filled ON ${filledOfHit()}`;

const SINGLE_ROW = {
  ...ROW,
  postType: sql<string | null>`postType`,
  protected: sql<number | null>`protected`,
};
