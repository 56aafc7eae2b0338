/**
 * Who may manage webhooks: holders of `manage_options`, i.e. administrators. Also loads
 * the webhook a route names.
 */
import { eq } from "drizzle-orm";
import { can } from "../access/capabilities";
import type { Db } from "../db/client";
import { webhooks } from "../db/schema";
import type { AppContext } from "../http/context";
import { ApiError, forbidden } from "../http/errors";
import type { Permit } from "../http/registry";
import type { WebhookFields } from "./serialize";

/** `Allow` and `/doc`: administrators only. */
export const manageOptions: Permit = (u) => u.can("manage_options");

/**
 * Throws unless the request's user may manage webhooks (tec-reference §1.3 step 7).
 * @throws ApiError `rest_forbidden`, 401 anonymous / 403 logged in.
 */
export function assertManager(c: AppContext): void {
  const user = c.get("user");
  if (!can(user, "manage_options")) throw forbidden(user !== null);
}

/** 404 `rest_webhook_invalid_id`. */
export const noWebhook = () => new ApiError(404, "rest_webhook_invalid_id");

/** Every column of a webhook except its encrypted secret. */
export const FIELDS = {
  id: webhooks.id,
  url: webhooks.url,
  events: webhooks.events,
  description: webhooks.description,
  coalesceSeconds: webhooks.coalesceSeconds,
  status: webhooks.status,
  consecutiveFailures: webhooks.consecutiveFailures,
  createdGmt: webhooks.createdGmt,
  modifiedGmt: webhooks.modifiedGmt,
};

/** The query that loads one webhook (for a read batch). */
export const webhookQuery = (db: Db, id: number) =>
  db.select(FIELDS).from(webhooks).where(eq(webhooks.id, id)).limit(1);

/**
 * Loads the webhook or fails.
 * @throws ApiError 404 `rest_webhook_invalid_id`.
 */
export async function requireWebhook(db: Db, id: number): Promise<WebhookFields> {
  const [row] = await webhookQuery(db, id);
  if (!row) throw noWebhook();
  return row;
}
