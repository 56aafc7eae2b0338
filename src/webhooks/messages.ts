/**
 * What travels through the webhook queue, and the delivery bodies. A delivery body is
 * built once, when the message is enqueued, and kept as the exact string that is signed and sent on
 * every attempt: `{type, timestamp, data}` with ids and links only, never content, so a delivery
 * tells a receiver nothing it could not fetch with its own rights.
 */
import { DateTime } from "luxon";
import { WP_FORMAT } from "../time/format";
import { CALENDAR_CHANGED, type ObjectKind, PING, ROUTE_OF } from "./events";

/** One delivery to one webhook; `messageId` is the Standard Webhooks `webhook-id` of every attempt. */
export interface DeliverMessage {
  kind: "deliver";
  webhookId: number;
  messageId: string;
  /** The event type, for the log (`event.created`, `calendar.changed`, `ping`). */
  type: string;
  /** The JSON body, exactly as signed and sent. */
  body: string;
}

/** Closes the `calendar.changed` window opened with `token` and delivers its counts. */
export interface FlushMessage {
  kind: "flush";
  webhookId: number;
  token: string;
}

export type WebhookMessage = DeliverMessage | FlushMessage;

/**
 * An instant as every delivery's `timestamp` says it: ISO 8601 in UTC, to the second, with `Z`.
 * @example isoSeconds(DateTime.fromISO("2026-11-22T11:02:12.345Z")) // "2026-11-22T11:02:12Z"
 */
export const isoSeconds = (instant: DateTime) =>
  instant.toUTC().startOf("second").toISO({ suppressMilliseconds: true })!;

/** UTC `Y-m-d H:i:s` → the `timestamp` form (`isoSeconds`). */
export const isoOf = (gmt: string) =>
  isoSeconds(DateTime.fromFormat(gmt, WP_FORMAT, { zone: "utc" }));

/** A change of one object, as the outbox holds it (src/db/schema.ts `webhook_outbox`). */
export interface ObjectChange {
  kind: ObjectKind;
  objectId: number;
  action: string;
  status: string;
  modifiedGmt: string;
  createdGmt: string;
}

/**
 * The body of a per-object delivery.
 * @param namespaceRoot e.g. `https://cal.example/wp-json/tribe/events/v1/`.
 * @example objectBody(change, root) // '{"type":"event.updated","timestamp":"2026-11-22T11:02:12Z","data":{"id":8,"type":"event","status":"publish","rest_url":"…/events/8","modified_utc":"2026-11-22 11:02:12"}}'
 */
export function objectBody(change: ObjectChange, namespaceRoot: string): string {
  return JSON.stringify({
    type: `${change.kind}.${change.action}`,
    timestamp: isoOf(change.createdGmt),
    data: {
      id: change.objectId,
      type: change.kind,
      status: change.status,
      rest_url: `${namespaceRoot}${ROUTE_OF[change.kind]}/${change.objectId}`,
      modified_utc: change.modifiedGmt,
    },
  });
}

/** Counts of a closed `calendar.changed` window, by kind (kinds without changes left out). */
export interface CalendarCounts {
  sinceGmt: string;
  untilGmt: string;
  kinds: Partial<Record<ObjectKind, number>>;
}

/**
 * The body of a `calendar.changed` delivery: `{changes, since_utc, until_utc, kinds}` — how many
 * changes anonymous readers could see between the first and the last of the window.
 */
export function calendarBody(counts: CalendarCounts, now: DateTime): string {
  const changes = Object.values(counts.kinds).reduce((sum, n) => sum + (n ?? 0), 0);
  return JSON.stringify({
    type: CALENDAR_CHANGED,
    timestamp: isoSeconds(now),
    data: {
      changes,
      since_utc: counts.sinceGmt,
      until_utc: counts.untilGmt,
      kinds: counts.kinds,
    },
  });
}

/** The body of a ping: the webhook itself, by id and link. */
export function pingBody(
  webhook: { id: number; status: string; modifiedGmt: string },
  namespaceRoot: string,
  now: DateTime,
): string {
  return JSON.stringify({
    type: PING,
    timestamp: isoSeconds(now),
    data: {
      id: webhook.id,
      type: "webhook",
      status: webhook.status,
      rest_url: `${namespaceRoot}webhooks/${webhook.id}`,
      modified_utc: webhook.modifiedGmt,
    },
  });
}

/** A fresh message id for pings and `calendar.changed` (per-object ids are derived, see dispatch). */
export const randomMessageId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

/** Sends messages in batches of at most 100 (the Queues limit per `sendBatch`). */
export async function sendAll(
  queue: Queue,
  messages: Array<{ body: WebhookMessage; delaySeconds?: number }>,
): Promise<void> {
  for (let i = 0; i < messages.length; i += 100)
    await queue.sendBatch(
      messages.slice(i, i + 100).map((m) => ({ ...m, contentType: "json" as const })),
    );
}
