/**
 * The worker with its webhook queue and clock driven by the test: nothing waits on a timer.
 *
 * - Requests go to the worker as `api` sends them (test/support/api.ts), so when `api` resolves the
 *   write has answered *and* its outbox drain (`waitUntil`) has put its messages in the queue.
 * - The queue (`DrivenQueue`, the `WEBHOOK_QUEUE` binding of those requests) keeps every message
 *   with the time it falls due (`delaySeconds`) and hands due messages to the worker's `queue()`
 *   handler in batches of up to 10 (wrangler.toml `max_batch_size`), as Queues does: a message the
 *   handler retries comes back one attempt later, when its `delaySeconds` have passed; one it acks,
 *   or leaves alone when the handler returns, is gone.
 * - The webhooks' clock (src/webhooks/clock.ts) stands still until `advance` moves it; test/setup.ts
 *   gives the real one back after every test.
 */
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import type { Bindings } from "../../src/settings";
import { clock } from "../../src/webhooks/clock";
import type { WebhookMessage } from "../../src/webhooks/messages";
import { type ApiInit, type ApiResponse, api } from "../support/api";
import { register } from "./support";

/** Messages per batch (wrangler.toml `[[queues.consumers]]` `max_batch_size`). */
const BATCH_SIZE = 10;

/** A message in the driven queue. */
export interface Queued {
  id: string;
  body: WebhookMessage;
  /** Deliveries so far, this one included once it is handed out (Queues' `attempts`). */
  attempts: number;
  /** Clock time (ms) it was sent at. */
  sentAt: number;
  /** Clock time (ms) from which it may be delivered. */
  dueAt: number;
}

/** What the handler did with one message of one batch. */
export interface Outcome {
  id: string;
  body: WebhookMessage;
  attempts: number;
  /** Clock time (ms) of the batch. */
  at: number;
  /** Acknowledged (explicitly, or left alone by a handler that returned), or retried. */
  outcome: "ack" | "retry";
  /** The delay a retry asked for, in seconds (undefined: none given, Queues' default of 0). */
  delaySeconds?: number;
}

/** The `WEBHOOK_QUEUE` binding in tests (see the file comment). */
export class DrivenQueue implements Queue<WebhookMessage> {
  /** Messages not yet acknowledged: as sent, a retried one at the end again. */
  readonly pending: Queued[] = [];
  /** Every handled message, in order. */
  readonly outcomes: Outcome[] = [];
  /** While set, sends fail with it (a queue that is unavailable). */
  refuse: Error | null = null;
  private sent = 0;

  constructor(private readonly now: () => number) {}

  async send(body: WebhookMessage, options?: QueueSendOptions): Promise<QueueSendResponse> {
    return this.sendBatch([{ body, ...options }]);
  }

  async sendBatch(
    messages: Iterable<MessageSendRequest<WebhookMessage>>,
    options?: QueueSendBatchOptions,
  ): Promise<QueueSendBatchResponse> {
    if (this.refuse) throw this.refuse;
    for (const m of messages)
      this.put(m.body, { delaySeconds: m.delaySeconds ?? options?.delaySeconds ?? 0 });
    return this.metrics().then((metrics) => ({ metadata: { metrics } }));
  }

  async metrics(): Promise<QueueMetrics> {
    return { backlogCount: this.pending.length, backlogBytes: 0 };
  }

  /**
   * Puts a message in the queue as if sent now; `attempts` is how many deliveries it already had
   * (to start a message at its n-th attempt).
   */
  put(body: WebhookMessage, options: { delaySeconds?: number; attempts?: number } = {}): Queued {
    // Structured as the `json` content type carries it: a body that does not survive JSON fails here.
    const copy = JSON.parse(JSON.stringify(body)) as WebhookMessage;
    const now = this.now();
    const queued: Queued = {
      id: `m${++this.sent}`,
      body: copy,
      attempts: options.attempts ?? 0,
      sentAt: now,
      dueAt: now + (options.delaySeconds ?? 0) * 1000,
    };
    this.pending.push(queued);
    return queued;
  }

  /** Clock time (ms) the next pending message falls due, or null when the queue is empty. */
  nextDue(): number | null {
    return this.pending.reduce<number | null>(
      (m, q) => (m === null || q.dueAt < m ? q.dueAt : m),
      null,
    );
  }

  /** Takes the next batch of messages due at `now` (earliest first), or null when none is. */
  take(now: number): Queued[] | null {
    const due = this.pending
      .filter((q) => q.dueAt <= now)
      .sort((a, b) => a.dueAt - b.dueAt)
      .slice(0, BATCH_SIZE);
    if (!due.length) return null;
    for (const q of due) this.pending.splice(this.pending.indexOf(q), 1);
    return due;
  }
}

/** A hand-made `MessageBatch` that records what the handler does with each message. */
function messageBatch(messages: Queued[], now: number) {
  const decided = new Map<string, { outcome: "ack" | "retry"; delaySeconds?: number }>();
  const decide = (id: string, outcome: "ack" | "retry", delaySeconds?: number) => {
    if (!decided.has(id)) decided.set(id, { outcome, delaySeconds });
  };
  const batch: MessageBatch<WebhookMessage> = {
    queue: "tec-edge-webhooks",
    metadata: { metrics: { backlogCount: messages.length, backlogBytes: 0 } },
    messages: messages.map((q) => ({
      id: q.id,
      timestamp: new Date(q.sentAt),
      body: q.body,
      attempts: q.attempts,
      ack: () => decide(q.id, "ack"),
      retry: (options?: QueueRetryOptions) => decide(q.id, "retry", options?.delaySeconds),
    })),
    ackAll: () => {
      for (const q of messages) decide(q.id, "ack");
    },
    retryAll: (options?: QueueRetryOptions) => {
      for (const q of messages) decide(q.id, "retry", options?.delaySeconds);
    },
  };
  // Queues acknowledges what the handler left alone once it returns.
  const outcomes = (): Outcome[] =>
    messages.map((q) => {
      const d = decided.get(q.id) ?? { outcome: "ack" as const };
      return { id: q.id, body: q.body, attempts: q.attempts, at: now, ...d };
    });
  return { batch, outcomes };
}

/** The driven worker of one test (see the file comment). */
export interface Driven {
  /** The bindings the worker gets: the test's, with the driven queue. */
  env: Bindings;
  queue: DrivenQueue;
  /** The webhooks' clock, in ms (it moves only with `advance`). */
  now(): number;
  /** A request to the worker (as `api`), returning once its `waitUntil` work is done too. */
  api<T = any>(path: string, init?: ApiInit): Promise<ApiResponse<T>>;
  /** Registers a webhook as the administrator; returns the answer body (with `secret`). */
  register(body: Record<string, unknown>): Promise<any>;
  /** Delivers every message due now, and what that queues for now, until none is due. */
  run(): Promise<Outcome[]>;
  /**
   * Moves the clock on by `seconds`, delivering each message at the time it falls due (so a retry
   * that falls due on the way is delivered on the way, at its time).
   */
  advance(seconds: number): Promise<Outcome[]>;
}

/**
 * Drives the worker for one test: stops the webhooks' clock at the current time and gives the
 * worker a `DrivenQueue`.
 * @example const hooks = drive(); await hooks.api(path, { json }); await hooks.run();
 */
export function drive(): Driven {
  let now = Date.now();
  clock.now = () => now;
  const queue = new DrivenQueue(() => now);
  const driven: Bindings = { ...(env as Bindings), WEBHOOK_QUEUE: queue };

  async function deliverDue(): Promise<Outcome[]> {
    const done: Outcome[] = [];
    for (let batch = queue.take(now); batch; batch = queue.take(now)) {
      for (const q of batch) q.attempts++;
      const { batch: messages, outcomes } = messageBatch(batch, now);
      await worker.queue(messages, driven);
      for (const o of outcomes()) {
        const q = batch.find((m) => m.id === o.id)!;
        if (o.outcome === "retry") {
          q.dueAt = now + (o.delaySeconds ?? 0) * 1000;
          queue.pending.push(q);
        }
        queue.outcomes.push(o);
        done.push(o);
      }
    }
    return done;
  }

  return {
    env: driven,
    queue,
    now: () => now,
    api: (path, init) => api(path, init, driven),
    register(body) {
      return register(body, this.api);
    },
    run: deliverDue,
    async advance(seconds) {
      const target = now + seconds * 1000;
      const done = await deliverDue();
      for (let due = queue.nextDue(); due !== null && due <= target; due = queue.nextDue()) {
        now = Math.max(now, due);
        done.push(...(await deliverDue()));
      }
      now = target;
      done.push(...(await deliverDue()));
      return done;
    },
  };
}
