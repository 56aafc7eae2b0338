/** The webhook payloads of `/doc` (contract §7.5): webhooks, pings and the delivery log. */
import * as v from "valibot";
import { archive } from "../http/pagination";
import { deleted, str } from "../http/schema-kit";
import { Delivery, NewWebhook, Webhook } from "../webhooks/contract";

/** The webhook components, by name. */
export const WEBHOOK_COMPONENTS = {
  Webhook,
  NewWebhook,
  WebhookArchive: archive("webhooks", Webhook),
  DeletedWebhook: deleted(Webhook, "webhook"),
  Ping: v.strictObject({ message_id: str("ping.message_id"), type: str("ping.type") }),
  Delivery,
  DeliveryArchive: archive("deliveries", Delivery),
};
