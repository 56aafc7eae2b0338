/** The webhook payloads of `/doc` (issue 18): webhooks, pings and the delivery log. */
import * as v from "valibot";
import { archive, d, deleted, int, str } from "./schema-kit";

/** A webhook (issue 18); its `secret` only in the answer to its creation (`NewWebhook`). */
const webhookFields = {
  id: int("webhook.id"),
  url: str("webhook.url"),
  events: d(v.array(v.string()), "webhook.events"),
  description: str("webhook.description"),
  coalesce_seconds: int("webhook.coalesce_seconds"),
  status: d(v.picklist(["active", "disabled"]), "webhook.status"),
  created_utc: str("webhook.created_utc"),
};
const Webhook = v.strictObject(webhookFields);

/** One delivery attempt of the webhook log. */
const Delivery = v.strictObject({
  id: int("delivery.id"),
  message_id: str("delivery.message_id"),
  type: str("delivery.type"),
  attempt: int("delivery.attempt"),
  status_code: d(v.nullable(v.pipe(v.number(), v.integer())), "delivery.status_code"),
  error: d(v.nullable(v.string()), "delivery.error"),
  duration_ms: int("delivery.duration_ms"),
  created_utc: str("delivery.created_utc"),
  next_attempt_utc: d(v.nullable(v.string()), "delivery.next_attempt_utc"),
});

/** The webhook components, by name. */
export const WEBHOOK_COMPONENTS = {
  Webhook,
  NewWebhook: v.strictObject({ ...webhookFields, secret: str("webhook.secret") }),
  WebhookArchive: archive("webhooks", Webhook),
  DeletedWebhook: deleted(Webhook, "webhook"),
  Ping: v.strictObject({ message_id: str("ping.message_id"), type: str("ping.type") }),
  Delivery,
  DeliveryArchive: archive("deliveries", Delivery),
};
