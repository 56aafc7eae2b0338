/**
 * `GET /webhooks/{id}/deliveries` (the delivery log, newest first) and `POST /webhooks/{id}/ping`
 * (contract §7.5).
 */
import { count, desc, eq } from "drizzle-orm";
import { webhookDeliveries } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError } from "../http/errors";
import { echoed, pageOf } from "../http/list-args";
import { archiveBody, pageLinks, setPagingHeaders, totalPages } from "../http/pagination";
import { assertManager, noWebhook, requireWebhook, webhookQuery } from "./access";
import { DELIVERIES_ARGS, SINGLE_ARGS } from "./args";
import { PING } from "./events";
import { pingBody, randomMessageId, sendAll } from "./messages";
import { serializeDelivery } from "./serialize";

/**
 * Handles `GET /webhooks/{id}/deliveries`: one entry per attempt, newest first, paged like every
 * archive: `{deliveries, rest_url, next_rest_url?, previous_rest_url?, total, total_pages}`.
 * @throws ApiError 400 for a bad `page`/`per_page`, 401/403 `rest_forbidden`, 404
 *   `rest_webhook_invalid_id`.
 */
export async function listDeliveries(c: AppContext): Promise<Response> {
  const { values: a } = parseArgs(DELIVERIES_ARGS, await requestParams(c), argContext(c));
  assertManager(c);
  const settings = c.get("settings");
  const { page, perPage, offset } = pageOf(a, settings.perPageMax);
  const { db } = c.get("rdb");
  const mine = eq(webhookDeliveries.webhookId, a.id);
  const [hook, rows, [{ n: total }]] = await db.batch([
    webhookQuery(db, a.id),
    db
      .select()
      .from(webhookDeliveries)
      .where(mine)
      .orderBy(desc(webhookDeliveries.id))
      .limit(perPage)
      .offset(offset),
    db.select({ n: count() }).from(webhookDeliveries).where(mine),
  ]);
  if (!hook.length) throw noWebhook();
  const pages = totalPages(total, perPage);
  const links = pageLinks(
    `${c.get("urls").namespaceRoot}webhooks/${a.id}/deliveries/`,
    page,
    pages,
    echoed(perPage, []),
  );
  setPagingHeaders(c, total, pages, links);
  return c.json(archiveBody("deliveries", rows.map(serializeDelivery), links, total, pages));
}

/**
 * Handles `POST /webhooks/{id}/ping`: enqueues a signed `ping` delivery at once (disabled webhooks
 * too, to test a receiver before enabling it again); its attempts appear in the delivery log.
 * Answers 202 `{message_id, type: "ping"}`.
 * @throws ApiError 401/403 `rest_forbidden`, 404 `rest_webhook_invalid_id`, 500
 *   `rest_webhooks_unavailable` without the `WEBHOOK_QUEUE` binding.
 */
export async function pingWebhook(c: AppContext): Promise<Response> {
  const { values } = parseArgs(SINGLE_ARGS, await requestParams(c), argContext(c));
  assertManager(c);
  const hook = await requireWebhook(c.get("rdb").db, values.id);
  const queue = c.env.WEBHOOK_QUEUE;
  if (!queue) throw new ApiError(500, "rest_webhooks_unavailable");
  const messageId = randomMessageId();
  await sendAll(queue, [
    {
      body: {
        kind: "deliver",
        webhookId: hook.id,
        messageId,
        type: PING,
        body: pingBody(hook, c.get("urls").namespaceRoot, requestNow(c)),
      },
    },
  ]);
  return c.json({ message_id: messageId, type: PING }, 202);
}
