/**
 * `GET {namespace}/events.ics` (contract §7): every event `GET /events` would list with the same
 * arguments (same defaults, visibility and password rules), in the same order, as one RFC 5545
 * calendar, streamed.
 *
 * - No page cap: `page` and `per_page` are validated like on `/events` and then ignored; the feed
 *   always holds every matching event.
 * - Memory stays flat whatever the size: events are read by keyset (the archive order's columns,
 *   never an OFFSET) in chunks of `CHUNK`, each chunk one D1 batch (its events and their venues,
 *   organizers, terms and images), written as soon as it arrives; the next chunk is read only when
 *   the client has taken the previous one (stream back-pressure).
 * - The first batch also checks the filters' references (so a bad request is still a JSON error, not
 *   a broken calendar) and reads the zones in use with their date range, so that the VTIMEZONEs come
 *   before the first VEVENT.
 * - Round trips: 1 + one per further chunk (the contract's two-round-trip bound is for JSON GETs),
 *   and one more when the window reaches past a series' stored horizon (src/events/computed.ts).
 * - Caching: anonymous answers get the ETag, 304s and Cache-Control of every GET from the read cache
 *   (src/read-cache/serve.ts), which does not keep streamed answers.
 */
import { sql } from "drizzle-orm";
import type { AuthUser } from "../access/capabilities";
import { type EntryResult, runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { eventOccurrences, events } from "../db/schema";
import { computedAsk, computedRows, computedTable, dueSeries } from "../events/computed";
import { existenceQueries } from "../events/filters";
import { assertRefsExist, listedWhere, protectedAccess, resolveArchive } from "../events/list";
import { type Listed, type ListedWhere, listedQuery } from "../events/listed";
import { assemble, relatedQueries, relatedRows } from "../events/load";
import { type EventRecord, eventUid } from "../events/record";
import { type EventRenderContext, visibleEvent } from "../events/visible";
import { type AppContext, requestNow } from "../http/context";
import type { RenderContext } from "../http/render";
import { loadStrings, text } from "../i18n";
import { carrySyncCursor, setSyncCursor } from "../sync/cursor";
import { contentLine, textLine } from "./text";
import { vevent } from "./vevent";
import { vtimezone } from "./vtimezone";

/** Events per D1 batch. */
export const CHUNK = 250;

/** The archive-order keys of the last item read (src/events/listed.ts `listedQuery`). */
type Cursor = [string, string | number, string | number];

/**
 * The queries of one chunk: its listed items (events and occurrences, in the archive order), and
 * the event rows they need with what those link to — each single event listed, and for every
 * series one of whose events is listed, the series and all its overrides (a series is written whole:
 * its VEVENT and one per override).
 */
function chunkQueries(db: Db, where: ListedWhere, cursor: Cursor | null, ignoresDates: boolean) {
  const page = () =>
    listedQuery(db, where, ignoresDates, { limit: CHUNK, after: cursor ?? undefined });
  // The page once per statement (a CTE): D1 binds at most 100 values in a statement, and a page
  // with many filters binds dozens.
  const wanted = sql`(WITH pg AS MATERIALIZED (SELECT * FROM ${page()})
    SELECT src FROM pg UNION SELECT ${events.id} FROM ${events} WHERE ${events.seriesId} IN
      (SELECT ${events.seriesId} FROM ${events} WHERE ${events.id} IN (SELECT src FROM pg) AND ${events.seriesId} IS NOT NULL))`;
  return {
    items: page(),
    rows: db.select().from(events).where(sql`${events.id} IN ${wanted}`),
    ...relatedQueries(db, wanted),
  };
}

/** A chunk's items and the records they need, by id. */
function readChunk(
  chunk: EntryResult<ReturnType<typeof chunkQueries>>,
  viewer: AuthUser | null,
): { items: Listed[]; records: Map<number, EventRecord>; keys: Cursor | null } {
  const records = new Map(
    assemble(chunk.rows, relatedRows(chunk.related), viewer).map((r) => [r.row.id, r]),
  );
  const last = chunk.items[chunk.items.length - 1];
  return { items: chunk.items, records, keys: last ? [last.k1, last.k2, last.k3] : null };
}

/**
 * The VCALENDAR's head: its name (RFC 7986 `NAME`, and `X-WR-CALNAME`, which Google Calendar and
 * Apple Calendar show) is the site's name in the request's language, as the REST index gives it
 * (strings `site.name`); the site's time zone; refresh hourly.
 */
function calendarHeader(ctx: RenderContext, name: string): string {
  return (
    contentLine("BEGIN", "VCALENDAR") +
    contentLine("VERSION", "2.0") +
    contentLine("PRODID", "-//tec-edge//The Events Calendar REST API//EN") +
    contentLine("CALSCALE", "GREGORIAN") +
    textLine("NAME", name) +
    textLine("X-WR-CALNAME", name) +
    textLine("X-WR-TIMEZONE", ctx.settings.siteTimezone) +
    contentLine("REFRESH-INTERVAL", "PT1H", [["VALUE", "DURATION"]]) +
    contentLine("X-PUBLISHED-TTL", "PT1H")
  );
}

/**
 * The zones in use over the dates written, with their first and last instants (UTC
 * `Y-m-d H:i:s`): the events listed, and the whole of each series one of whose events is (its
 * VEVENT's rule is expanded by the reader from its first start). Each WHERE clause once (CTEs):
 * D1 binds at most 100 values in a statement.
 */
function zonesQuery(db: Db, where: ListedWhere) {
  const o = eventOccurrences;
  // A series listed only by occurrences computed past its horizon (src/events/computed.ts).
  const computed = where.computed
    ? sql` UNION SELECT ${computedTable.seriesId} FROM ${where.computed.from} WHERE ${where.computed.where}`
    : sql``;
  const spans = sql`WITH ev AS MATERIALIZED (SELECT ${events.seriesId} AS series_id, ${events.timezone} AS tz, ${events.startDateUtc} AS s, ${events.endDateUtc} AS e, ${events.allDay} AS all_day FROM ${events} WHERE ${where.events}),
    series(id) AS MATERIALIZED (SELECT series_id FROM ev WHERE series_id IS NOT NULL UNION SELECT ${o.seriesId} FROM ${o} WHERE ${where.occurrences}${computed})
    SELECT tz, s, e FROM ev WHERE all_day = 0
    UNION ALL SELECT ${events.timezone}, ${events.startDateUtc}, ${events.endDateUtc} FROM ${events} WHERE ${events.seriesId} IN (SELECT id FROM series) AND ${events.allDay} = 0
    UNION ALL SELECT ${events.timezone}, min(${o.startDateUtc}), max(${o.endDateUtc}) FROM ${o} JOIN ${events} ON ${events.id} = ${o.seriesId} WHERE ${o.seriesId} IN (SELECT id FROM series) AND ${events.allDay} = 0 GROUP BY ${events.timezone}`;
  return db
    .select({
      timezone: sql<string>`tz`,
      first: sql<string | null>`min(s)`,
      last: sql<string | null>`max(e)`,
    })
    .from(sql`(${spans})`)
    .groupBy(sql`tz`);
}

/**
 * The VEVENTs of one chunk after another: a single event as listed; a series once, where one of its
 * events first shows, as its own VEVENT with its `recurrence` lines and one per override
 * (`RECURRENCE-ID`). The returned function remembers the series already written.
 * @param visible an event as this reader may see it (password protection applied).
 */
function chunkRenderer(
  ctx: EventRenderContext,
  visible: (r: EventRecord) => ReturnType<typeof visibleEvent>,
): (chunk: ReturnType<typeof readChunk>) => string {
  const written = new Set<number>();
  return ({ items, records }) => {
    let out = "";
    for (const item of items) {
      const record = records.get(item.src);
      if (!record) continue;
      const seriesId = record.row.seriesId;
      if (seriesId === null) {
        out += vevent(ctx, visible(record));
        continue;
      }
      if (written.has(seriesId)) continue;
      written.add(seriesId);
      const master = records.get(seriesId);
      if (!master) continue;
      const uid = eventUid(ctx, master.row);
      out += vevent(ctx, visible(master), { uid, lines: master.row.recurrence ?? [] });
      for (const other of records.values()) {
        if (other.row.seriesId !== seriesId || other.row.id === seriesId) continue;
        out += vevent(ctx, visible(other), {
          uid,
          recurrenceId: other.row.occurrenceStart ?? other.row.startDate,
        });
      }
    }
    return out;
  };
}

/**
 * The calendar as a byte stream: `head` and the first chunk at once, then one chunk per pull (the
 * client's back-pressure: `highWaterMark` 0) until a chunk comes back short, then `END:VCALENDAR`.
 * @param next reads the chunk after the archive-order keys given (one D1 batch).
 */
function feedStream(
  head: string,
  first: ReturnType<typeof readChunk>,
  next: (after: Cursor | null) => Promise<ReturnType<typeof readChunk>>,
  render: (chunk: ReturnType<typeof readChunk>) => string,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: Cursor | null = null;
  let done = false;
  const advance = (chunk: ReturnType<typeof readChunk>) => {
    if (chunk.keys) cursor = chunk.keys;
    done = chunk.items.length < CHUNK;
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        advance(first);
        controller.enqueue(
          encoder.encode(head + render(first) + (done ? contentLine("END", "VCALENDAR") : "")),
        );
        if (done) controller.close();
      },
      async pull(controller) {
        try {
          const read = await next(cursor);
          advance(read);
          controller.enqueue(
            encoder.encode(render(read) + (done ? contentLine("END", "VCALENDAR") : "")),
          );
          if (done) controller.close();
        } catch (err) {
          // The status line is long gone: end the body early (no END:VCALENDAR), so the client sees a broken calendar.
          console.error("events.ics: reading a chunk failed", err);
          controller.error(err);
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Handles `GET /events.ics`.
 * @throws the errors of `GET /events` (§10): 400 `rest_invalid_param` for bad arguments or unknown
 *   referenced terms, venues and organizers; `status` other than `publish` without edit rights.
 * @example curl 'https://example.org/wp-json/tribe/events/v1/events.ics?start_date=2026-01-01&categories=music'
 */
export async function icalFeed(c: AppContext): Promise<Response> {
  const user = c.get("user");
  const q = await resolveArchive(c);
  const { db } = c.get("rdb");
  const ask = computedAsk(q.filters, c.get("settings").siteTimezone, requestNow(c));
  let where = listedWhere(db, q.filters, user);
  const checks = existenceQueries(db, q.filters, user);
  const firstBatch = (due: boolean) => {
    carrySyncCursor(c);
    return runBatch(db, {
      ...checks,
      due: due && ask ? dueSeries(db, q.filters, user, ask) : undefined,
      zones: zonesQuery(db, where),
      chunk: chunkQueries(db, where, null, q.ignoresDates),
    });
  };
  const stringsRead = loadStrings(c.env.STRINGS, c.get("lang"));
  let results = await firstBatch(ask !== null);
  if (ask && results.due?.length) {
    // The window reaches past a series' stored horizon: the first batch again with what is
    // computed there (one more round trip).
    const computed = computedRows(results.due, ask);
    if (computed.length) {
      where = listedWhere(db, q.filters, user, undefined, computed);
      results = await firstBatch(false);
    }
  }
  const strings = await stringsRead;
  assertRefsExist(q.filters, results);
  // The first chunk's snapshot: later chunks are read later, so it is the safe one to resume from.
  setSyncCursor(c);

  const ctx: EventRenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user,
    single: false,
    linkedAccess: (row) => protectedAccess(q, row, user),
  };
  const head =
    calendarHeader(ctx, text(strings, "site.name")) +
    results.zones.map((z) => vtimezone(z.timezone, z.first ?? "", z.last ?? "")).join("");
  const next = async (after: Cursor | null) => {
    const { chunk } = await runBatch(db, { chunk: chunkQueries(db, where, after, q.ignoresDates) });
    return readChunk(chunk, user);
  };
  const render = chunkRenderer(ctx, (r) => visibleEvent(ctx, r, protectedAccess(q, r.row, user)));
  return c.body(feedStream(head, readChunk(results.chunk, user), next, render), 200, {
    "Content-Type": "text/calendar; charset=utf-8",
    "Content-Disposition": 'inline; filename="events.ics"',
  });
}
