/**
 * `GET /media/{id}` (contract §3, WordPress `WP_REST_Attachments_Controller::get_item`).
 */
import { eq } from "drizzle-orm";
import { media } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { ApiError } from "../http/errors";
import { MEDIA_SINGLE_ARGS } from "./args";
import { serializeMedia } from "./serialize";

/**
 * Handles `GET /media/{id}`: public, one query.
 * @throws ApiError 404 `rest_post_invalid_id` ("Invalid post ID.") for unknown ids and ids of events,
 *   venues or organizers.
 */
export async function getMedia(c: AppContext): Promise<Response> {
  const { values } = parseArgs(MEDIA_SINGLE_ARGS, await requestParams(c), argContext(c));
  const id = values.id;
  if (!Number.isSafeInteger(id)) throw new ApiError(404, "rest_post_invalid_id");
  const { db } = c.get("rdb");
  // A batch of one, so that an anonymous miss reads the content version in the same round trip.
  const [rows] = await db.batch([db.select().from(media).where(eq(media.id, id)).limit(1)]);
  if (!rows[0]) throw new ApiError(404, "rest_post_invalid_id");
  return c.json(serializeMedia(rows[0]));
}
