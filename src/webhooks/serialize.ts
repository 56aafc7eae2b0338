/**
 * Wire shapes of webhooks and of their delivery log: built by their contracts
 * (src/webhooks/contract.ts).
 */
export {
  type DeliveryRow,
  serializeDelivery,
  serializeWebhook,
  type WebhookFields,
  type WebhookRow,
} from "./contract";
