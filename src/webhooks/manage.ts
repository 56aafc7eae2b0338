/**
 * `{namespace}/webhooks` and `/webhooks/{id}` (contract §7.5): register, list, read, change and remove
 * webhooks. Administrators only (`manage_options`); the checks run in WordPress's order: arguments
 * (400), permission (401/403), then the webhook's existence (404). The signing secret is returned
 * once, by the creation; nothing returns it again.
 */
import { count, desc, eq } from "drizzle-orm";
import { webhooks } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError, InvalidParamsError } from "../http/errors";
import { echoed, pageOf } from "../http/list-args";
import { archiveBody, pageLinks, setPagingHeaders, totalPages } from "../http/pagination";
import { WP_FORMAT } from "../time/format";
import { assertManager, FIELDS, noWebhook, requireWebhook } from "./access";
import { CREATE_ARGS, LIST_ARGS, SINGLE_ARGS, UPDATE_ARGS } from "./args";
import { encryptSecret, newSecret } from "./secret";
import { serializeWebhook, type WebhookFields } from "./serialize";
import { isPrivateTarget } from "./targets";

/**
 * Refuses targets that are not public hosts (private, loopback, reserved: src/webhooks/targets.ts)
 * unless `WEBHOOK_PRIVATE_TARGETS=allow`.
 * @throws InvalidParamsError naming `url`.
 */
function assertTarget(c: AppContext, url: string): void {
  if (!c.get("settings").webhookPrivateTargets && isPrivateTarget(url))
    throw new InvalidParamsError([{ name: "url", key: "webhook_private_target" }]);
}

const stampOf = (c: AppContext) => requestNow(c).toUTC().toFormat(WP_FORMAT);

/**
 * Handles `POST /webhooks` with `{url, events, description?, coalesce_seconds?}`: 201 with the
 * webhook and its `secret` (`whsec_…`), which is shown only here.
 * @throws ApiError 400 `rest_missing_callback_param` / `rest_invalid_param` (nothing stored),
 *   401/403 `rest_forbidden`, 500 `rest_webhooks_unavailable` when `WEBHOOK_SECRET_KEY` or the
 *   `WEBHOOK_QUEUE` binding is missing.
 * @example POST /wp-json/tribe/events/v1/webhooks {"url":"https://example.org/hook","events":["*"]}
 */
export async function createWebhook(c: AppContext): Promise<Response> {
  const { values: a } = parseArgs(CREATE_ARGS, await requestParams(c), argContext(c));
  assertManager(c);
  assertTarget(c, a.url);
  const { webhookSecretKey } = c.get("settings");
  if (!webhookSecretKey || !c.env.WEBHOOK_QUEUE)
    throw new ApiError(500, "rest_webhooks_unavailable");
  const secret = newSecret();
  const stamp = stampOf(c);
  const { db } = c.get("rdb");
  const [row] = await db
    .insert(webhooks)
    .values({
      url: a.url,
      events: a.events,
      description: a.description ?? "",
      coalesceSeconds: a.coalesce_seconds,
      status: "active",
      secretCiphertext: await encryptSecret(secret, webhookSecretKey),
      createdGmt: stamp,
      modifiedGmt: stamp,
    })
    .returning(FIELDS);
  c.header("Location", `${c.get("urls").namespaceRoot}webhooks/${row.id}`);
  return c.json({ ...serializeWebhook(row), secret }, 201);
}

/**
 * Handles `GET /webhooks`: `{webhooks, rest_url, next_rest_url?, previous_rest_url?, total,
 * total_pages}` newest first, paged like every archive (headers included).
 * @throws ApiError 400 for a bad `page`/`per_page`, 401/403 `rest_forbidden`.
 */
export async function listWebhooks(c: AppContext): Promise<Response> {
  const { values: a } = parseArgs(LIST_ARGS, await requestParams(c), argContext(c));
  assertManager(c);
  const settings = c.get("settings");
  const { page, perPage, offset } = pageOf(a, settings.perPageMax);
  const { db } = c.get("rdb");
  const [rows, [{ n: total }]] = await db.batch([
    db.select(FIELDS).from(webhooks).orderBy(desc(webhooks.id)).limit(perPage).offset(offset),
    db.select({ n: count() }).from(webhooks),
  ]);
  const pages = totalPages(total, perPage);
  const links = pageLinks(
    `${c.get("urls").namespaceRoot}webhooks/`,
    page,
    pages,
    echoed(perPage, []),
  );
  setPagingHeaders(c, total, pages, links);
  return c.json(archiveBody("webhooks", rows.map(serializeWebhook), links, total, pages));
}

/**
 * Handles `GET /webhooks/{id}` (without the secret).
 * @throws ApiError 401/403 `rest_forbidden`, 404 `rest_webhook_invalid_id`.
 */
export async function getWebhook(c: AppContext): Promise<Response> {
  const { values } = parseArgs(SINGLE_ARGS, await requestParams(c), argContext(c));
  assertManager(c);
  return c.json(serializeWebhook(await requireWebhook(c.get("rdb").db, values.id)));
}

/**
 * Handles `PATCH /webhooks/{id}` (also `POST`, `PUT`): changes exactly the fields sent — `url`,
 * `events`, `description`, `coalesce_seconds`, `status`. Setting `status: "active"` also clears
 * the count of consecutive failed messages that disabled it.
 * @throws ApiError 400 `rest_invalid_param`, 401/403 `rest_forbidden`, 404 `rest_webhook_invalid_id`.
 */
export async function updateWebhook(c: AppContext): Promise<Response> {
  const { values: a, sent } = parseArgs(UPDATE_ARGS, await requestParams(c), argContext(c));
  assertManager(c);
  if (a.url !== undefined) assertTarget(c, a.url);
  const { db } = c.get("rdb");
  const changes: Partial<typeof webhooks.$inferInsert> = {};
  if (sent.has("url")) changes.url = a.url;
  if (sent.has("events")) changes.events = a.events;
  if (sent.has("description")) changes.description = a.description;
  if (sent.has("coalesce_seconds")) changes.coalesceSeconds = a.coalesce_seconds;
  if (sent.has("status")) {
    changes.status = a.status;
    if (a.status === "active") changes.consecutiveFailures = 0;
  }
  if (Object.keys(changes).length === 0)
    return c.json(serializeWebhook(await requireWebhook(db, a.id)));
  const [row] = await db
    .update(webhooks)
    .set({ ...changes, modifiedGmt: stampOf(c) })
    .where(eq(webhooks.id, a.id))
    .returning(FIELDS);
  if (!row) throw noWebhook();
  return c.json(serializeWebhook(row));
}

/**
 * Handles `DELETE /webhooks/{id}`: removes it with its delivery log; messages still queued for it
 * are dropped unsent. Answers `{deleted: true, previous}`.
 * @throws ApiError 401/403 `rest_forbidden`, 404 `rest_webhook_invalid_id`.
 */
export async function deleteWebhook(c: AppContext): Promise<Response> {
  const { values } = parseArgs(SINGLE_ARGS, await requestParams(c), argContext(c));
  assertManager(c);
  const { db } = c.get("rdb");
  const [row] = (await db
    .delete(webhooks)
    .where(eq(webhooks.id, values.id))
    .returning(FIELDS)) as WebhookFields[];
  if (!row) throw noWebhook();
  return c.json({ deleted: true, previous: serializeWebhook(row) });
}
