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
 * - Round trips: 1 + one per further chunk (the contract's two-round-trip bound is for JSON GETs).
 * - Caching: anonymous answers get the ETag, 304s and Cache-Control of every GET from the read cache
 *   (src/read-cache/serve.ts), which does not keep streamed answers.
 */
import { and, eq, max, min, type SQL, sql } from "drizzle-orm";
import type { AuthUser } from "../access/capabilities";
import { type EntryResult, runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { events } from "../db/schema";
import { existenceQueries, whereClause } from "../events/filters";
import { archiveOrder, assertRefsExist, protectedAccess, resolveArchive } from "../events/list";
import { assemble, relatedQueries, relatedRows } from "../events/load";
import type { EventRecord, EventRow } from "../events/record";
import { type EventRenderContext, visibleEvent } from "../events/visible";
import type { AppContext } from "../http/context";
import type { RenderContext } from "../http/render";
import { contentLine, textLine } from "./text";
import { vevent } from "./vevent";
import { vtimezone } from "./vtimezone";

/** Events per D1 batch. */
export const CHUNK = 250;

type Cursor = Pick<EventRow, "startDate" | "postDate" | "id">;

/** Rows after `cursor` in the archive order (a row-value comparison SQLite answers from the index). */
function after(cursor: Cursor | null, ignoresDates: boolean): SQL | undefined {
  if (!cursor) return undefined;
  return ignoresDates
    ? sql`(${events.postDate}, ${events.id}) > (${cursor.postDate}, ${cursor.id})`
    : sql`(${events.startDate}, ${events.postDate}, ${events.id}) > (${cursor.startDate}, ${cursor.postDate}, ${cursor.id})`;
}

/** The five queries of one chunk: its events, then their venues, organizers, terms and images. */
function chunkQueries(db: Db, where: SQL, cursor: Cursor | null, ignoresDates: boolean) {
  const cond = and(where, after(cursor, ignoresDates))!;
  const order = archiveOrder(ignoresDates);
  const ids = sql`(${db
    .select({ id: events.id })
    .from(events)
    .where(cond)
    .orderBy(...order)
    .limit(CHUNK)})`;
  const related = relatedQueries(db, ids);
  return {
    rows: db
      .select()
      .from(events)
      .where(cond)
      .orderBy(...order)
      .limit(CHUNK),
    ...related,
  };
}

function readChunk(
  chunk: EntryResult<ReturnType<typeof chunkQueries>>,
  viewer: AuthUser | null,
): EventRecord[] {
  return assemble(chunk.rows, relatedRows(chunk.related), viewer);
}

function calendarHeader(ctx: RenderContext): string {
  const host = new URL(ctx.urls.site).hostname;
  return (
    contentLine("BEGIN", "VCALENDAR") +
    contentLine("VERSION", "2.0") +
    contentLine("PRODID", "-//tec-edge//The Events Calendar REST API//EN") +
    contentLine("CALSCALE", "GREGORIAN") +
    textLine("NAME", host) +
    textLine("X-WR-CALNAME", host) +
    textLine("X-WR-TIMEZONE", ctx.settings.siteTimezone) +
    contentLine("REFRESH-INTERVAL", "PT1H", [["VALUE", "DURATION"]]) +
    contentLine("X-PUBLISHED-TTL", "PT1H")
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
  const where = whereClause(db, q.filters, user);
  const checks = existenceQueries(db, q.filters);
  const zones = db
    .select({
      timezone: events.timezone,
      first: min(events.startDateUtc),
      last: max(events.endDateUtc),
    })
    .from(events)
    .where(and(where, eq(events.allDay, false)))
    .groupBy(events.timezone);
  const results = await runBatch(db, {
    ...checks,
    zones,
    chunk: chunkQueries(db, where, null, q.ignoresDates),
  });
  assertRefsExist(q.filters, results);
  const zoneRows = results.zones;
  const first = readChunk(results.chunk, user);

  const ctx: EventRenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user,
    single: false,
    linkedAccess: (row) => protectedAccess(q, row, user),
  };
  const encoder = new TextEncoder();
  const render = (records: EventRecord[]) =>
    records.map((r) => vevent(ctx, visibleEvent(ctx, r, protectedAccess(q, r.row, user)))).join("");
  let cursor: Cursor | null = null;
  let done = false;
  const advance = (records: EventRecord[]) => {
    const last = records[records.length - 1];
    if (last)
      cursor = { startDate: last.row.startDate, postDate: last.row.postDate, id: last.row.id };
    done = records.length < CHUNK;
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const head =
          calendarHeader(ctx) +
          zoneRows.map((z) => vtimezone(z.timezone, z.first ?? "", z.last ?? "")).join("");
        advance(first);
        controller.enqueue(
          encoder.encode(head + render(first) + (done ? contentLine("END", "VCALENDAR") : "")),
        );
        if (done) controller.close();
      },
      async pull(controller) {
        try {
          const { chunk } = await runBatch(db, {
            chunk: chunkQueries(db, where, cursor, q.ignoresDates),
          });
          const records = readChunk(chunk, user);
          advance(records);
          controller.enqueue(
            encoder.encode(render(records) + (done ? contentLine("END", "VCALENDAR") : "")),
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
  return c.body(stream, 200, {
    "Content-Type": "text/calendar; charset=utf-8",
    "Content-Disposition": 'inline; filename="events.ics"',
  });
}
