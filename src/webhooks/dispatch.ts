/**
 * From committed changes to queue messages. Writes do not enqueue anything themselves:
 * D1 triggers record every change of an event, venue, organizer, category or tag in
 * `webhook_outbox` inside the write's own batch (drizzle/0007_webhooks.sql), so only committed
 * changes exist there — a rolled-back batch, or a round `withWriteRetry` runs again, leaves nothing.
 * After every successful write the app drains the outbox in the background
 * (`executionCtx.waitUntil`, src/app.ts), so the answer is never delayed and a failing receiver
 * never changes it:
 *
 * 1. claim up to `CHUNK` rows (a lease of `LEASE_SECONDS`: parallel drains never take the same rows,
 *    and rows of a drain that died are taken again once the lease lapses);
 * 2. per row and subscribed webhook, one `deliver` message whose id is derived from the row and the
 *    webhook, so a row sent twice after a lapsed lease carries the same `webhook-id` (receivers
 *    de-duplicate on it, as Standard Webhooks advises);
 * 3. `calendar.changed`: the changes anonymous readers could see are added to the webhook's open
 *    window (`webhook_windows`); whoever opens a window sends one `flush` message delayed by
 *    `coalesce_seconds`, which closes it and delivers the counts — one delivery per burst;
 * 4. the claimed rows are deleted once their messages are in the queue.
 */
import { eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { DateTime } from "luxon";
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { webhookOutbox, webhooks, webhookWindows } from "../db/schema";
import type { Bindings } from "../settings";
import { WP_FORMAT } from "../time/format";
import { utcNow } from "./clock";
import { CALENDAR_CHANGED, type ObjectKind, subscribes } from "./events";
import { type ObjectChange, objectBody, sendAll, type WebhookMessage } from "./messages";

/** Outbox rows taken per round. */
export const CHUNK = 100;
/** Rounds per drain (so one drain sends at most `CHUNK * ROUNDS` changes; the next write takes the rest). */
const ROUNDS = 10;
/** Seconds a drain holds the rows it claimed. */
const LEASE_SECONDS = 60;
/** A window older than its `coalesce_seconds` by this much lost its flush message: send another. */
const STALE_WINDOW_SECONDS = 120;

/** The `webhook_windows` count column of each kind. */
const WINDOW_COLUMN: Record<ObjectKind, keyof typeof webhookWindows.$inferInsert> = {
  event: "events",
  venue: "venues",
  organizer: "organizers",
  category: "categories",
  tag: "tags",
};

type OutboxRow = typeof webhookOutbox.$inferSelect;
type ActiveHook = { id: number; events: string[]; coalesceSeconds: number };
type Outgoing = { body: WebhookMessage; delaySeconds?: number };

/**
 * Drops repeats within a chunk: one write that touched a row twice (same kind, id and modification
 * time) is one change, and a creation covers an update made by the same write.
 */
export function collapse(rows: OutboxRow[]): OutboxRow[] {
  const seen = new Map<string, OutboxRow>();
  const out: OutboxRow[] = [];
  for (const row of rows) {
    const key = `${row.kind}:${row.objectId}:${row.modifiedGmt}`;
    const prev = seen.get(key);
    if (
      prev &&
      (prev.action === row.action || (prev.action === "created" && row.action === "updated"))
    )
      continue;
    seen.set(key, row);
    out.push(row);
  }
  return out;
}

/**
 * Whether anonymous readers could see the change (the calendar a static site builds from): terms
 * always; posts when published before or after it.
 */
export const publicChange = (row: OutboxRow) =>
  row.kind === "category" ||
  row.kind === "tag" ||
  row.status === "publish" ||
  row.oldStatus === "publish";

/** `deliver` messages for every change and every webhook subscribed to its type. */
function deliveries(changes: OutboxRow[], hooks: ActiveHook[], root: string): Outgoing[] {
  const out: Outgoing[] = [];
  for (const change of changes) {
    const type = `${change.kind}.${change.action}`;
    const body = objectBody(change as ObjectChange, root);
    for (const hook of hooks) {
      if (!subscribes(hook.events, type)) continue;
      out.push({
        body: {
          kind: "deliver",
          webhookId: hook.id,
          messageId: `msg_o${change.id}w${hook.id}`,
          type,
          body,
        },
      });
    }
  }
  return out;
}

/**
 * Adds the public changes to the open window of every webhook subscribed to `calendar.changed`;
 * returns the `flush` messages this drain must send (for windows it opened, and for windows whose
 * flush was lost).
 */
async function coalesce(db: Db, changes: OutboxRow[], hooks: ActiveHook[], now: DateTime) {
  const seen = changes.filter(publicChange);
  const builders = hooks.filter((h) => subscribes(h.events, CALENDAR_CHANGED));
  if (!seen.length || !builders.length) return [];
  const counts: Partial<Record<string, number>> = {};
  for (const row of seen) {
    const column = WINDOW_COLUMN[row.kind as ObjectKind];
    counts[column] = (counts[column] ?? 0) + 1;
  }
  const since = seen.reduce((m, r) => (r.createdGmt < m ? r.createdGmt : m), seen[0].createdGmt);
  const until = seen.reduce((m, r) => (r.createdGmt > m ? r.createdGmt : m), seen[0].createdGmt);
  const token = crypto.randomUUID();
  const add = (column: string) => sql`${sql.identifier(column)} + ${sql.raw(`excluded.${column}`)}`;
  const upserts = builders.map((hook) =>
    db
      .insert(webhookWindows)
      .values({ webhookId: hook.id, token, sinceGmt: since, untilGmt: until, ...counts })
      .onConflictDoUpdate({
        target: webhookWindows.webhookId,
        set: {
          untilGmt: sql`max(${webhookWindows.untilGmt}, excluded.until_gmt)`,
          ...Object.fromEntries(Object.keys(counts).map((column) => [column, add(column)])),
        },
      })
      .returning({
        webhookId: webhookWindows.webhookId,
        token: webhookWindows.token,
        sinceGmt: webhookWindows.sinceGmt,
      }),
  );
  const { results } = await runBatch(db, { results: upserts });
  const flushes: Outgoing[] = [];
  for (const [i, hook] of builders.entries()) {
    const window = results[i][0];
    if (!window) continue;
    const stale =
      window.sinceGmt <
      now.minus({ seconds: hook.coalesceSeconds + STALE_WINDOW_SECONDS }).toFormat(WP_FORMAT);
    if (window.token === token || stale)
      flushes.push({
        body: { kind: "flush", webhookId: hook.id, token: window.token },
        delaySeconds: window.token === token ? hook.coalesceSeconds : 0,
      });
  }
  return flushes;
}

/**
 * Drains the outbox into the queue (see the module comment). Safe to run concurrently and at any
 * time; does nothing without the `WEBHOOK_QUEUE` binding.
 * @param namespaceRoot the namespace URL the `rest_url`s of the deliveries start with.
 * @example c.executionCtx.waitUntil(dispatchChanges(c.env, c.get("urls").namespaceRoot))
 */
export async function dispatchChanges(env: Bindings, namespaceRoot: string): Promise<void> {
  const queue = env.WEBHOOK_QUEUE;
  if (!queue) return;
  const db = drizzle(env.DB) as unknown as Db;
  for (let round = 0; round < ROUNDS; round++) {
    const now = utcNow();
    const claim = crypto.randomUUID();
    const free = or(
      isNull(webhookOutbox.claimedUntil),
      lt(webhookOutbox.claimedUntil, now.toFormat(WP_FORMAT)),
    );
    const [claimed, hooks] = await db.batch([
      db
        .update(webhookOutbox)
        .set({
          claim,
          claimedUntil: now.plus({ seconds: LEASE_SECONDS }).toFormat(WP_FORMAT),
        })
        .where(
          inArray(
            webhookOutbox.id,
            db
              .select({ id: webhookOutbox.id })
              .from(webhookOutbox)
              .where(free)
              .orderBy(webhookOutbox.id)
              .limit(CHUNK),
          ),
        )
        .returning(),
      db
        .select({
          id: webhooks.id,
          events: webhooks.events,
          coalesceSeconds: webhooks.coalesceSeconds,
        })
        .from(webhooks)
        .where(eq(webhooks.status, "active")),
    ]);
    if (!claimed.length) return;
    const changes = collapse(claimed.sort((a, b) => a.id - b.id));
    const messages = [
      ...deliveries(changes, hooks, namespaceRoot),
      ...(await coalesce(db, changes, hooks, now)),
    ];
    await sendAll(queue, messages);
    await db.delete(webhookOutbox).where(eq(webhookOutbox.claim, claim));
    if (claimed.length < CHUNK) return;
  }
}
