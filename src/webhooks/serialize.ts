/**
 * Wire shapes of webhooks and of their delivery log (issue 18): the one place their field names
 * are written. The signing secret is never part of a webhook's answer, except once at creation
 * (src/webhooks/manage.ts adds it there).
 */
import type { webhookDeliveries, webhooks } from "../db/schema";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The columns a webhook's answer needs (never the encrypted secret). */
export type WebhookFields = Omit<WebhookRow, "secretCiphertext">;

/**
 * `{id, url, events, description, coalesce_seconds, status, created_utc}`; times UTC `Y-m-d H:i:s`.
 * @example serializeWebhook(row) // { id: 1, url: "https://…", events: ["*"], …, status: "active" }
 */
export function serializeWebhook(row: WebhookFields) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    coalesce_seconds: row.coalesceSeconds,
    status: row.status,
    created_utc: row.createdGmt,
  };
}

/**
 * One delivery attempt: `{id, message_id, type, attempt, status_code, error, duration_ms,
 * created_utc, next_attempt_utc}`. `status_code` is null when the receiver never answered
 * (timeout, network error); `error` is null for a success; `next_attempt_utc` is null when no
 * attempt follows (success, or the last attempt, after which the message is dropped).
 */
export function serializeDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    message_id: row.messageId,
    type: row.type,
    attempt: row.attempt,
    status_code: row.statusCode,
    error: row.error,
    duration_ms: row.durationMs,
    created_utc: row.createdGmt,
    next_attempt_utc: row.nextAttemptGmt,
  };
}
