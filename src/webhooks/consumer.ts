/**
 * The webhook queue's consumer (the worker's `queue()` handler, src/index.ts). Per
 * message:
 *
 * - `deliver`: one attempt (src/webhooks/deliver.ts), logged in `webhook_deliveries`. A non-2xx
 *   answer, a timeout or a network error is retried through the queue (`message.retry`) after
 *   `WEBHOOK_RETRY_BASE_SECONDS × 2^(attempt−1)` seconds, up to `MAX_ATTEMPTS` attempts; after the
 *   last the message is dropped (acknowledged) and that is logged. A webhook whose last
 *   `DISABLE_AFTER` messages were all dropped is set `disabled`; any delivered message resets the
 *   count. Messages of a deleted webhook, and of a disabled one (pings excepted), are dropped
 *   unsent.
 * - `flush`: closes the webhook's `calendar.changed` window and enqueues its delivery (when that
 *   cannot be queued, the window is put back and the flush retried).
 *
 * The log rows and webhook updates of one batch are written in one D1 batch, keeping the newest
 * `LOG_KEEP` attempts per webhook.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { DateTime } from "luxon";
import type { BatchQuery } from "../db/batch";
import type { Db } from "../db/client";
import { webhookDeliveries, webhooks, webhookWindows } from "../db/schema";
import { type Bindings, parseSettings, type Settings } from "../settings";
import { WP_FORMAT } from "../time/format";
import { utcNow } from "./clock";
import { attemptDelivery } from "./deliver";
import { CALENDAR_CHANGED, type ObjectKind, PING } from "./events";
import {
  calendarBody,
  type DeliverMessage,
  type FlushMessage,
  randomMessageId,
  sendAll,
  type WebhookMessage,
} from "./messages";
import { decryptSecret } from "./secret";

/** Attempts per message, the first included. */
export const MAX_ATTEMPTS = 8;
/** Consecutive dropped messages after which a webhook is disabled. */
export const DISABLE_AFTER = 50;
/** Attempts kept in the log per webhook. */
export const LOG_KEEP = 1000;
/** Longest delay Queues accepts, in seconds. */
const MAX_DELAY_SECONDS = 43_200;

/**
 * Seconds before the attempt after `attempt` (1-based): `base × 2^(attempt−1)`.
 * @example retryDelay(10, 1) // 10
 * @example retryDelay(10, 3) // 40
 */
export const retryDelay = (base: number, attempt: number) =>
  Math.min(base * 2 ** (attempt - 1), MAX_DELAY_SECONDS);

type Hook = { id: number; url: string; status: string; secretCiphertext: string };

const stamp = (t: DateTime) => t.toUTC().toFormat(WP_FORMAT);

type Window = typeof webhookWindows.$inferSelect;

/** Takes (deletes) the `calendar.changed` window a flush message names; null when already closed. */
async function takeWindow(db: Db, message: FlushMessage): Promise<Window | null> {
  const [window] = await db
    .delete(webhookWindows)
    .where(
      and(eq(webhookWindows.webhookId, message.webhookId), eq(webhookWindows.token, message.token)),
    )
    .returning();
  return window ?? null;
}

/** The `calendar.changed` delivery of a closed window. */
function windowDelivery(window: Window): DeliverMessage {
  const kinds: Partial<Record<ObjectKind, number>> = {};
  const counts: Array<[ObjectKind, number]> = [
    ["event", window.events],
    ["venue", window.venues],
    ["organizer", window.organizers],
    ["category", window.categories],
    ["tag", window.tags],
  ];
  for (const [kind, n] of counts) if (n > 0) kinds[kind] = n;
  return {
    kind: "deliver",
    webhookId: window.webhookId,
    messageId: randomMessageId(),
    type: CALENDAR_CHANGED,
    body: calendarBody({ sinceGmt: window.sinceGmt, untilGmt: window.untilGmt, kinds }, utcNow()),
  };
}

/**
 * Puts taken windows back when their deliveries could not be queued, so the retried flush finds
 * them again; a window opened meanwhile absorbs the counts instead (its own flush delivers them).
 */
const restoreWindow = (db: Db, w: Window) =>
  db
    .insert(webhookWindows)
    .values(w)
    .onConflictDoUpdate({
      target: webhookWindows.webhookId,
      set: {
        sinceGmt: sql`min(${webhookWindows.sinceGmt}, excluded.since_gmt)`,
        events: sql`${webhookWindows.events} + excluded.events`,
        venues: sql`${webhookWindows.venues} + excluded.venues`,
        organizers: sql`${webhookWindows.organizers} + excluded.organizers`,
        categories: sql`${webhookWindows.categories} + excluded.categories`,
        tags: sql`${webhookWindows.tags} + excluded.tags`,
      },
    });

/** One attempt of a `deliver` message: acknowledges or retries it, returns the log statements. */
async function deliver(
  db: Db,
  settings: Settings,
  hook: Hook | undefined,
  message: Message<WebhookMessage>,
  body: DeliverMessage,
): Promise<BatchQuery[]> {
  if (!hook || (hook.status !== "active" && body.type !== PING)) {
    message.ack();
    return [];
  }
  const attempt = message.attempts;
  let secret: string | null = null;
  try {
    secret = await decryptSecret(hook.secretCiphertext, settings.webhookSecretKey);
  } catch {
    // Logged as the attempt's error below.
  }
  const result = secret
    ? await attemptDelivery({
        url: hook.url,
        secret,
        messageId: body.messageId,
        body: body.body,
        allowPrivate: settings.webhookPrivateTargets,
      })
    : {
        statusCode: null,
        error: "the signing secret cannot be decrypted (was WEBHOOK_SECRET_KEY changed?)",
        durationMs: 0,
      };
  const now = utcNow();
  const log = {
    webhookId: hook.id,
    messageId: body.messageId,
    type: body.type,
    attempt,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    createdGmt: stamp(now),
  };
  if (result.error === null) {
    message.ack();
    return [
      db.insert(webhookDeliveries).values({ ...log, error: null, nextAttemptGmt: null }),
      db
        .update(webhooks)
        .set({ consecutiveFailures: 0 })
        .where(and(eq(webhooks.id, hook.id), sql`${webhooks.consecutiveFailures} <> 0`)),
    ];
  }
  if (attempt < MAX_ATTEMPTS) {
    const delaySeconds = retryDelay(settings.webhookRetryBaseSeconds, attempt);
    message.retry({ delaySeconds });
    return [
      db.insert(webhookDeliveries).values({
        ...log,
        error: result.error,
        nextAttemptGmt: stamp(now.plus({ seconds: delaySeconds })),
      }),
    ];
  }
  message.ack();
  console.warn(
    `webhook ${hook.id}: message ${body.messageId} (${body.type}) dropped after ${attempt} attempts: ${result.error}`,
  );
  return [
    db.insert(webhookDeliveries).values({
      ...log,
      error: `${result.error}; dropped after ${attempt} attempts`,
      nextAttemptGmt: null,
    }),
    db
      .update(webhooks)
      .set({
        consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
        status: sql`CASE WHEN ${webhooks.consecutiveFailures} + 1 >= ${DISABLE_AFTER} THEN 'disabled' ELSE ${webhooks.status} END`,
      })
      .where(eq(webhooks.id, hook.id)),
  ];
}

/** Keeps the newest `LOG_KEEP` attempts of a webhook. */
const trimLog = (db: Db, webhookId: number) =>
  db
    .delete(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        sql`${webhookDeliveries.id} <= (SELECT id FROM webhook_deliveries WHERE webhook_id = ${webhookId} ORDER BY id DESC LIMIT 1 OFFSET ${LOG_KEEP})`,
      ),
    );

/**
 * The queue handler.
 * @example export default { fetch, queue: (batch, env) => handleWebhookBatch(batch, env) }
 */
export async function handleWebhookBatch(
  batch: MessageBatch<WebhookMessage>,
  env: Bindings,
): Promise<void> {
  const settings = parseSettings(env);
  const db = drizzle(env.DB) as unknown as Db;
  const ids = [...new Set(batch.messages.map((m) => m.body.webhookId))];
  const hooks = new Map(
    (
      await db
        .select({
          id: webhooks.id,
          url: webhooks.url,
          status: webhooks.status,
          secretCiphertext: webhooks.secretCiphertext,
        })
        .from(webhooks)
        .where(inArray(webhooks.id, ids))
    ).map((h) => [h.id, h]),
  );
  const statements: BatchQuery[] = [];
  const flushes: Array<{ message: Message<WebhookMessage>; window: Window }> = [];
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = message.body;
      if (body.kind === "flush") {
        const window = await takeWindow(db, body);
        if (window) flushes.push({ message, window });
        else message.ack();
        return;
      }
      statements.push(...(await deliver(db, settings, hooks.get(body.webhookId), message, body)));
    }),
  );
  if (flushes.length) {
    try {
      if (!env.WEBHOOK_QUEUE) throw new Error("no WEBHOOK_QUEUE binding");
      await sendAll(
        env.WEBHOOK_QUEUE,
        flushes.map((f) => ({ body: windowDelivery(f.window) })),
      );
      for (const f of flushes) f.message.ack();
    } catch (err) {
      console.error("webhook: calendar.changed not queued; the window is kept for a retry", err);
      statements.push(...flushes.map((f) => restoreWindow(db, f.window)));
      for (const f of flushes) f.message.retry({ delaySeconds: settings.webhookRetryBaseSeconds });
    }
  }
  if (statements.length) {
    const touched = [...new Set(batch.messages.map((m) => m.body.webhookId))].filter((id) =>
      hooks.has(id),
    );
    await db.batch([...statements, ...touched.map((id) => trimLog(db, id))] as never);
  }
}
