/**
 * The contracts of a webhook and of a delivery attempt (contract §7.5): every wire field once — what is
 * sent (the `/doc` schema), its column, the argument that writes it — and what is derived from it:
 * `CREATE_ARGS`, the `/doc` components `Webhook` and `Delivery`, and the objects sent
 * (`serializeWebhook`, `serializeDelivery`, typed by those components). Every bad value is a 400
 * `rest_invalid_param` naming the parameter, before anything is stored: `url` an absolute http(s)
 * URL (private, loopback and reserved hosts are refused by the handler unless
 * `WEBHOOK_PRIVATE_TARGETS=allow`), `events` known types (src/webhooks/events.ts),
 * `coalesce_seconds` 1–3600, `status` `active` or `disabled`. The signing secret is never part of a
 * webhook's answer, except once at creation (src/webhooks/manage.ts adds it there).
 */
import * as v from "valibot";
import type { webhookDeliveries, webhooks } from "../db/schema";
import { arg, issue } from "../http/args";
import { argSpecs, readMapping, type WireField, wireSchema } from "../http/contract";
import { d, int, str } from "../http/schema-kit";
import { isNumeric, listToArray, wpString } from "../http/validators";
import { isUrl } from "../linked-posts/fields";
import { SUBSCRIBABLE } from "./events";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The columns a webhook's answer needs (never the encrypted secret). */
export type WebhookFields = Omit<WebhookRow, "secretCiphertext">;

/** Longest `description`, in characters. */
const MAX_DESCRIPTION = 1000;
/** `coalesce_seconds` bounds and default. */
const COALESCE = { min: 1, max: 3600, default: 30 } as const;
/** The statuses a webhook can be set to. */
const WEBHOOK_STATUSES = ["active", "disabled"] as const;

/** An absolute http(s) URL with a host, at most 2,048 characters. */
const webhookUrl = v.pipe(
  wpString,
  v.check((x) => isUrl(x), issue("webhook_url")),
);

/**
 * `events`: a list (or comma string) of subscribable types; `*` = every per-object type. Kept in
 * the order given, without repeats.
 */
const eventList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) =>
      list.length > 0 &&
      list.length <= SUBSCRIBABLE.size &&
      list.every((x) => typeof x === "string" && SUBSCRIBABLE.has(x)),
    issue("webhook_events"),
  ),
  v.transform((list) => [...new Set(list as string[])]),
);

const coalesceSeconds = v.pipe(
  v.unknown(),
  v.check(
    (x) =>
      isNumeric(x) &&
      Number.isInteger(Number(x)) &&
      Number(x) >= COALESCE.min &&
      Number(x) <= COALESCE.max,
    issue("out_of_range", String(COALESCE.min), String(COALESCE.max)),
  ),
  v.transform((x) => Number(x)),
);

const description = v.pipe(
  wpString,
  v.check((x) => x.length <= MAX_DESCRIPTION, issue("too_long", String(MAX_DESCRIPTION))),
);

const status = v.pipe(
  v.unknown(),
  v.check(
    (x) => typeof x === "string" && (WEBHOOK_STATUSES as readonly string[]).includes(x),
    issue("not_in_enum", WEBHOOK_STATUSES.join(", ")),
  ),
  v.transform((x) => x as (typeof WEBHOOK_STATUSES)[number]),
);

/** A webhook's wire fields, in the order they are sent; times UTC `Y-m-d H:i:s`. */
export const WEBHOOK_FIELDS = {
  id: { out: int("webhook.id"), column: "id" },
  url: {
    out: str("webhook.url"),
    column: "url",
    arg: arg({ schema: webhookUrl, required: true, type: "string", description: "webhooks.url" }),
  },
  events: {
    out: d(v.array(v.string()), "webhook.events"),
    column: "events",
    arg: arg({
      schema: eventList,
      required: true,
      type: "array",
      items: { type: "string" },
      maxItems: SUBSCRIBABLE.size,
      description: "webhooks.events",
    }),
  },
  description: {
    out: str("webhook.description"),
    column: "description",
    arg: arg({ schema: description, type: "string", description: "webhooks.description" }),
  },
  coalesce_seconds: {
    out: int("webhook.coalesce_seconds"),
    column: "coalesceSeconds",
    arg: arg({
      schema: coalesceSeconds,
      default: COALESCE.default,
      type: "integer",
      description: "webhooks.coalesce_seconds",
    }),
  },
  status: {
    out: d(v.picklist(WEBHOOK_STATUSES), "webhook.status"),
    column: "status",
    // Set by updates only: a new webhook is active.
    arg: arg({ schema: status, type: "string", description: "webhooks.status" }),
  },
  created_utc: { out: str("webhook.created_utc"), column: "createdGmt" },
} satisfies Record<string, WireField>;

/** `POST /webhooks`. */
export const CREATE_ARGS = argSpecs(WEBHOOK_FIELDS, [
  "url",
  "events",
  "description",
  "coalesce_seconds",
]);

/** A webhook as sent (without its secret). */
export const Webhook = wireSchema(WEBHOOK_FIELDS);

/** The answer to a webhook's creation: the one time its signing secret is sent. */
export const NewWebhook = v.strictObject({
  ...Webhook.entries,
  secret: str("webhook.secret"),
});

const readWebhook = readMapping(WEBHOOK_FIELDS, (row: WebhookFields) => row);

/**
 * `{id, url, events, description, coalesce_seconds, status, created_utc}`.
 * @example serializeWebhook(row) // { id: 1, url: "https://…", events: ["*"], …, status: "active" }
 */
export const serializeWebhook = (row: WebhookFields) =>
  readWebhook(row) as v.InferOutput<typeof Webhook>;

/**
 * One delivery attempt's fields. `status_code` is null when the receiver never answered (timeout,
 * network error); `error` is null for a success; `next_attempt_utc` is null when no attempt follows
 * (success, or the last attempt, after which the message is dropped).
 */
export const DELIVERY_FIELDS = {
  id: { out: int("delivery.id"), column: "id" },
  message_id: { out: str("delivery.message_id"), column: "messageId" },
  type: { out: str("delivery.type"), column: "type" },
  attempt: { out: int("delivery.attempt"), column: "attempt" },
  status_code: {
    out: d(v.nullable(v.pipe(v.number(), v.integer())), "delivery.status_code"),
    column: "statusCode",
  },
  error: { out: d(v.nullable(v.string()), "delivery.error"), column: "error" },
  duration_ms: { out: int("delivery.duration_ms"), column: "durationMs" },
  created_utc: { out: str("delivery.created_utc"), column: "createdGmt" },
  next_attempt_utc: {
    out: d(v.nullable(v.string()), "delivery.next_attempt_utc"),
    column: "nextAttemptGmt",
  },
} satisfies Record<string, WireField>;

/** One delivery attempt of the webhook log. */
export const Delivery = wireSchema(DELIVERY_FIELDS);

const readDelivery = readMapping(DELIVERY_FIELDS, (row: DeliveryRow) => row);

/** One delivery attempt as sent. */
export const serializeDelivery = (row: DeliveryRow) =>
  readDelivery(row) as v.InferOutput<typeof Delivery>;
