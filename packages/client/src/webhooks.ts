/**
 * Verifying webhook deliveries (contract §7.5): Standard Webhooks signatures with the webhook's
 * `whsec_…` secret, and the delivery bodies, typed.
 */
import { Webhook } from "standardwebhooks";
import type { Deletion } from "./types.js";

/** `event.created`, `venue.trashed`, … : one object changed. */
export interface ObjectDelivery {
  type: `${Deletion["type"]}.${"created" | "updated" | "trashed" | "deleted"}`;
  /** ISO 8601 UTC. */
  timestamp: string;
  data: {
    id: number;
    type: Deletion["type"];
    status: string;
    rest_url: string;
    modified_utc: string;
  };
}

/** `calendar.changed`: at most one per `coalesce_seconds`, with counts by kind — a build hook. */
export interface CalendarChangedDelivery {
  type: "calendar.changed";
  timestamp: string;
  data: {
    changes: number;
    since_utc: string;
    until_utc: string;
    kinds: Partial<Record<Deletion["type"], number>>;
  };
}

/** `ping` (`POST /webhooks/{id}/ping`). */
export interface PingDelivery {
  type: "ping";
  timestamp: string;
  data: { id: number; type: "webhook"; status: string; rest_url: string; modified_utc: string };
}

/** Every delivery body. */
export type WebhookDelivery = ObjectDelivery | CalendarChangedDelivery | PingDelivery;

/** The three Standard Webhooks headers, from a `Headers` or a plain object (Node's `req.headers`). */
export type DeliveryHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies a delivery and answers its parsed body.
 * @param secret the webhook's `whsec_…` secret (shown once, when it was created).
 * @param body the request body exactly as received (not re-serialized JSON).
 * @throws Error (standardwebhooks' `WebhookVerificationError`) unless the signature matches and
 *   `webhook-timestamp` is within 5 minutes of now.
 * @example
 * const delivery = verifyWebhook(process.env.WEBHOOK_SECRET!, await request.text(), request.headers);
 * if (delivery.type === "calendar.changed") await triggerBuild();
 */
export function verifyWebhook(
  secret: string,
  body: string,
  headers: DeliveryHeaders,
): WebhookDelivery {
  const pick = (name: string): string => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? "";
  };
  return new Webhook(secret).verify(body, {
    "webhook-id": pick("webhook-id"),
    "webhook-timestamp": pick("webhook-timestamp"),
    "webhook-signature": pick("webhook-signature"),
  }) as WebhookDelivery;
}
