/**
 * A write that names an occurrence past its series' stored horizon by its computed id (contract
 * §7.8: `PATCH` or `DELETE /events/{id}`) first stores the series' occurrences through it
 * (src/events/series/scheduled.ts `storeUntil`, as the nightly run would), so that the write finds it
 * stored, with the id it was listed with, and goes on as for any stored occurrence.
 */
import { and, eq, isNull } from "drizzle-orm";
import { DateTime } from "luxon";
import { runBatch } from "../../db/batch";
import type { Db } from "../../db/client";
import { events, posts } from "../../db/schema";
import { forbidden } from "../../http/errors";
import { WP_FORMAT } from "../../time/format";
import type { EventRow } from "../record";
import { computedOccurrence } from "./computed";
import { isInstanceId, readInstanceId } from "./instance-ids";
import { storeUntil } from "./scheduled";

/** Tries before giving up to writes that keep changing the series (the write then goes on). */
const ATTEMPTS = 3;

/**
 * Stores the occurrence computed id `id` names, with its series' occurrences before it: nothing
 * for any other id, one already stored, or one its series does not give (the write's own checks
 * then answer as for any id).
 * @param may whether the writer may write the series (its `edit_post`, `delete_post`).
 * @param now the request's clock (the stored rows' change time).
 * @throws ApiError 403 `rest_forbidden` when `may` refuses the series of an occurrence it gives
 *   (as the write would for the stored occurrence).
 */
export async function storeNamed(
  db: Db,
  id: number,
  may: (series: EventRow) => boolean,
  now: DateTime,
): Promise<void> {
  if (!isInstanceId(id)) return;
  const seriesId = readInstanceId(id)!.seriesId;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { post, series } = await runBatch(db, {
      post: db
        .select({ id: posts.id })
        .from(posts)
        .where(and(eq(posts.id, id), isNull(posts.deletedGmt))),
      series: db.select().from(events).where(eq(events.id, seriesId)),
    });
    const row = series[0];
    if (post.length || !row) return;
    const occurrence = computedOccurrence(row, id);
    if (!occurrence) return;
    if (!may(row)) throw forbidden(true);
    const through = DateTime.fromFormat(occurrence.startDateUtc, WP_FORMAT, { zone: "utc" })
      .plus({ seconds: 1 })
      .toFormat(WP_FORMAT);
    if (await storeUntil(db, row, through, now)) return;
  }
}
