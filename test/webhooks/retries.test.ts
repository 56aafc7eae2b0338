/**
 * Retries (contract §7.5): a non-2xx answer, a timeout or a network error is retried with exponential
 * backoff from `WEBHOOK_RETRY_BASE_SECONDS`, up to 8 attempts, each logged; after the last the
 * message is dropped and logged; 50 dropped messages in a row disable the webhook. The first test
 * runs through the real local queue (the test configuration sets the base to 1 s); the others hand
 * the worker's `queue()` handler one batch at a time, as Queues would for attempt n.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { MAX_ATTEMPTS, retryDelay } from "../../src/webhooks/consumer";
import type { WebhookMessage } from "../../src/webhooks/messages";
import { ADMIN, api, NS } from "../support/api";
import { type Respond, startReceiver, verify } from "./receiver";
import { eventually, pause, register } from "./support";

let receiver: ReturnType<typeof startReceiver>;
afterEach(() => receiver?.stop());

/** UTC `Y-m-d H:i:s` → Unix seconds. */
const seconds = (t: string) => Date.parse(`${t.replace(" ", "T")}Z`) / 1000;

/** The delivery log of a webhook, oldest first. */
async function log(id: number): Promise<any[]> {
  const res = await api(`${NS}/webhooks/${id}/deliveries?per_page=50`, { headers: ADMIN });
  return [...res.body.deliveries].reverse();
}

/** Runs attempt `attempt` of one message through the queue handler; returns what Queues is told. */
async function attemptOnce(body: WebhookMessage, attempt: number) {
  const batch = createMessageBatch<WebhookMessage>("tec-edge-webhooks", [
    { id: `queue-${attempt}`, timestamp: new Date(), attempts: attempt, body },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  return getQueueResult(batch, ctx);
}

const message = (webhookId: number, messageId = "msg_test"): WebhookMessage => ({
  kind: "deliver",
  webhookId,
  messageId,
  type: "event.updated",
  body: JSON.stringify({
    type: "event.updated",
    timestamp: "2026-11-22T11:02:12Z",
    data: { id: 8, type: "event", status: "publish", rest_url: "x", modified_utc: "y" },
  }),
});

describe("a receiver that fails, then recovers", () => {
  it("gets the same signed message again, with the same webhook-id, until it accepts it", async () => {
    const answers: Respond = (_, n) => (n === 1 ? 500 : n === 2 ? new TypeError("reset") : 200);
    receiver = startReceiver(answers);
    const hook = await register({ url: "https://hooks.test/flaky", events: ["tag.created"] });
    await api(`${NS}/tags`, { headers: ADMIN, json: { name: "Retried" } });
    await eventually(() => expect(receiver.received).toHaveLength(3), 20_000);
    await pause(2500);
    expect(receiver.received).toHaveLength(3);
    const ids = receiver.received.map((d) => d.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(receiver.received.map((d) => d.raw)).size).toBe(1);
    for (const d of receiver.received) expect(verify(hook.secret, d)).toEqual(d.body);

    await eventually(async () => expect(await log(hook.id)).toHaveLength(3));
    const attempts = await log(hook.id);
    expect(attempts.map((a) => [a.message_id, a.attempt, a.status_code, a.error])).toEqual([
      [ids[0], 1, 500, "HTTP 500"],
      [ids[0], 2, null, "network error: reset"],
      [ids[0], 3, 200, null],
    ]);
    // Backoff from the base (1 s here): the next attempt is due 1 s, then 2 s later.
    expect(seconds(attempts[0].next_attempt_utc) - seconds(attempts[0].created_utc)).toBe(1);
    expect(seconds(attempts[1].next_attempt_utc) - seconds(attempts[1].created_utc)).toBe(2);
    expect(attempts[2].next_attempt_utc).toBeNull();
  });
});

describe("the backoff and the last attempt", () => {
  it("doubles the delay from WEBHOOK_RETRY_BASE_SECONDS (default 10 s) on every failed attempt", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(10, n))).toEqual([
      10, 20, 40, 80, 160, 320, 640,
    ]);
    expect(retryDelay(3600, 8)).toBe(43_200);
  });

  it("retries attempts 1–7 through the queue, then drops and logs the message after attempt 8", async () => {
    receiver = startReceiver(() => 503);
    const hook = await register({ url: "https://hooks.test/down", events: ["*"] });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await attemptOnce(message(hook.id), attempt);
      if (attempt < MAX_ATTEMPTS) {
        // (getQueueResult does not report the delay: the log's next_attempt_utc shows it below.)
        expect(result.retryMessages, `attempt ${attempt}`).toEqual([{ msgId: `queue-${attempt}` }]);
        expect(result.explicitAcks).toEqual([]);
      } else {
        expect(result.retryMessages).toEqual([]);
        expect(result.explicitAcks).toEqual([`queue-${attempt}`]);
      }
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    const attempts = await log(hook.id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(
      attempts.slice(0, 7).map((a) => seconds(a.next_attempt_utc) - seconds(a.created_utc)),
    ).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(1, n)));
    expect(attempts[7]).toMatchObject({
      status_code: 503,
      error: "HTTP 503; dropped after 8 attempts",
      next_attempt_utc: null,
    });
    const row = await env.DB.prepare("SELECT consecutive_failures, status FROM webhooks").first();
    expect(row).toEqual({ consecutive_failures: 1, status: "active" });
  });

  it("counts a timeout and a redirect as failures", async () => {
    const timeout = new DOMException("The operation timed out.", "TimeoutError");
    receiver = startReceiver((_, n) => (n === 1 ? timeout : 302));
    const hook = await register({ url: "https://hooks.test/slow", events: ["*"] });
    expect((await attemptOnce(message(hook.id), 1)).retryMessages).toHaveLength(1);
    expect((await attemptOnce(message(hook.id), 2)).retryMessages).toHaveLength(1);
    expect((await log(hook.id)).map((a) => [a.status_code, a.error])).toEqual([
      [null, "timeout: no answer within 10 s"],
      [302, "HTTP 302"],
    ]);
  });
});

describe("50 failed messages in a row", () => {
  it("disable the webhook; a delivered message resets the count", async () => {
    receiver = startReceiver(() => 500);
    const hook = await register({ url: "https://hooks.test/dead", events: ["*"] });
    await env.DB.prepare("UPDATE webhooks SET consecutive_failures = 48").run();
    await attemptOnce(message(hook.id, "msg_49"), MAX_ATTEMPTS);
    expect((await api(`${NS}/webhooks/${hook.id}`, { headers: ADMIN })).body.status).toBe("active");
    await attemptOnce(message(hook.id, "msg_50"), MAX_ATTEMPTS);
    expect((await api(`${NS}/webhooks/${hook.id}`, { headers: ADMIN })).body.status).toBe(
      "disabled",
    );
    // A disabled webhook's pending messages are dropped unsent.
    const sent = receiver.received.length;
    const result = await attemptOnce(message(hook.id, "msg_51"), 1);
    expect(result.explicitAcks).toEqual(["queue-1"]);
    expect(receiver.received).toHaveLength(sent);

    receiver.stop();
    receiver = startReceiver(() => 200);
    await api(`${NS}/webhooks/${hook.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { status: "active" },
    });
    await env.DB.prepare("UPDATE webhooks SET consecutive_failures = 7").run();
    await attemptOnce(message(hook.id, "msg_ok"), 1);
    expect(await env.DB.prepare("SELECT consecutive_failures FROM webhooks").first()).toEqual({
      consecutive_failures: 0,
    });
  });

  it("messages of a deleted webhook are dropped unsent", async () => {
    receiver = startReceiver();
    const hook = await register({ url: "https://hooks.test/gone", events: ["*"] });
    await api(`${NS}/webhooks/${hook.id}`, { method: "DELETE", headers: ADMIN });
    const result = await attemptOnce(message(hook.id), 1);
    expect(result.explicitAcks).toEqual(["queue-1"]);
    expect(receiver.received).toEqual([]);
  });
});
