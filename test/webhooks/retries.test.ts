/**
 * Retries (contract §7.5): a non-2xx answer, a timeout or a network error is retried with exponential
 * backoff from `WEBHOOK_RETRY_BASE_SECONDS` (10 s, the deployed default), up to 8 attempts, each
 * logged; after the last the message is dropped and logged; 50 dropped messages in a row disable
 * the webhook. The queue and the clock are driven (driven.ts): each test moves time on by the
 * backoff and sees the next attempt arrive then, not earlier.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, retryDelay } from "../../src/webhooks/consumer";
import type { WebhookMessage } from "../../src/webhooks/messages";
import { ADMIN, NS } from "../support/api";
import { type Driven, drive } from "./driven";
import { type Respond, startReceiver, verify } from "./receiver";
import { deliveryLog, seconds } from "./support";

/** The deployed `WEBHOOK_RETRY_BASE_SECONDS` (wrangler.toml), which the tests run with. */
const BASE = 10;
/** Seconds before attempts 2–8 with that base (README, Webhooks). */
const SCHEDULE = [10, 20, 40, 80, 160, 320, 640];

let receiver: ReturnType<typeof startReceiver>;
let hooks: Driven;
beforeEach(() => {
  hooks = drive();
});
afterEach(() => receiver?.stop());

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
    const hook = await hooks.register({ url: "https://hooks.test/flaky", events: ["tag.created"] });
    await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "Retried" } });
    const start = hooks.now();
    await hooks.run();
    expect(receiver.received).toHaveLength(1);
    // The second attempt comes BASE seconds after the first, the third twice that after the second.
    await hooks.advance(BASE - 1);
    expect(receiver.received).toHaveLength(1);
    await hooks.advance(1);
    expect(receiver.received).toHaveLength(2);
    await hooks.advance(2 * BASE - 1);
    expect(receiver.received).toHaveLength(2);
    await hooks.advance(1);
    expect(receiver.received).toHaveLength(3);
    // Accepted: nothing more comes.
    expect(hooks.queue.pending).toEqual([]);

    const ids = receiver.received.map((d) => d.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(receiver.received.map((d) => d.raw)).size).toBe(1);
    for (const d of receiver.received) expect(verify(hook.secret, d)).toEqual(d.body);
    // Each attempt is signed at its own time.
    expect(receiver.received.map((d) => Number(d.headers["webhook-timestamp"]))).toEqual(
      [0, BASE, 3 * BASE].map((s) => Math.floor(start / 1000) + s),
    );

    const attempts = await deliveryLog(hooks, hook.id);
    expect(attempts.map((a) => [a.message_id, a.attempt, a.status_code, a.error])).toEqual([
      [ids[0], 1, 500, "HTTP 500"],
      [ids[0], 2, null, "network error: reset"],
      [ids[0], 3, 200, null],
    ]);
    // The log says when the next attempt is due, and it came then.
    expect(seconds(attempts[0].next_attempt_utc) - seconds(attempts[0].created_utc)).toBe(BASE);
    expect(seconds(attempts[1].next_attempt_utc) - seconds(attempts[1].created_utc)).toBe(2 * BASE);
    expect(attempts[1].created_utc).toBe(attempts[0].next_attempt_utc);
    expect(attempts[2].created_utc).toBe(attempts[1].next_attempt_utc);
    expect(attempts[2].next_attempt_utc).toBeNull();
  });
});

describe("the backoff and the last attempt", () => {
  it("doubles the delay from WEBHOOK_RETRY_BASE_SECONDS (default 10 s) on every failed attempt", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(BASE, n))).toEqual(SCHEDULE);
    expect(retryDelay(3600, 8)).toBe(43_200);
  });

  it("retries attempts 1–7 through the queue, then drops and logs the message after attempt 8", async () => {
    receiver = startReceiver(() => 503);
    const hook = await hooks.register({ url: "https://hooks.test/down", events: ["*"] });
    hooks.queue.put(message(hook.id));
    await hooks.run();
    for (const wait of SCHEDULE) {
      await hooks.advance(wait - 1);
      const before = receiver.received.length;
      await hooks.advance(1);
      expect(receiver.received, `${wait} s after the last attempt`).toHaveLength(before + 1);
    }
    // What Queues was told after each attempt: retry after the backoff, and drop after the last.
    expect(hooks.queue.outcomes.map((o) => [o.attempts, o.outcome, o.delaySeconds])).toEqual([
      ...SCHEDULE.map((wait, i) => [i + 1, "retry", wait]),
      [8, "ack", undefined],
    ]);
    expect(hooks.queue.pending).toEqual([]);
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    const attempts = await deliveryLog(hooks, hook.id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(
      attempts.slice(0, 7).map((a) => seconds(a.next_attempt_utc) - seconds(a.created_utc)),
    ).toEqual(SCHEDULE);
    for (let i = 1; i < 8; i++)
      expect(attempts[i].created_utc).toBe(attempts[i - 1].next_attempt_utc);
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
    const hook = await hooks.register({ url: "https://hooks.test/slow", events: ["*"] });
    hooks.queue.put(message(hook.id));
    await hooks.run();
    await hooks.advance(BASE);
    expect(hooks.queue.outcomes.map((o) => o.outcome)).toEqual(["retry", "retry"]);
    expect((await deliveryLog(hooks, hook.id)).map((a) => [a.status_code, a.error])).toEqual([
      [null, "timeout: no answer within 10 s"],
      [302, "HTTP 302"],
    ]);
  });
});

describe("50 failed messages in a row", () => {
  it("disable the webhook; a delivered message resets the count", async () => {
    receiver = startReceiver(() => 500);
    const hook = await hooks.register({ url: "https://hooks.test/dead", events: ["*"] });
    const status = async () =>
      (await hooks.api(`${NS}/webhooks/${hook.id}`, { headers: ADMIN })).body.status;
    await env.DB.prepare("UPDATE webhooks SET consecutive_failures = 48").run();
    // Messages at their last attempt.
    hooks.queue.put(message(hook.id, "msg_49"), { attempts: MAX_ATTEMPTS - 1 });
    await hooks.run();
    expect(await status()).toBe("active");
    hooks.queue.put(message(hook.id, "msg_50"), { attempts: MAX_ATTEMPTS - 1 });
    await hooks.run();
    expect(await status()).toBe("disabled");
    // A disabled webhook's pending messages are dropped unsent.
    const sent = receiver.received.length;
    hooks.queue.put(message(hook.id, "msg_51"));
    expect(await hooks.run()).toMatchObject([{ attempts: 1, outcome: "ack" }]);
    expect(receiver.received).toHaveLength(sent);

    receiver.stop();
    receiver = startReceiver(() => 200);
    await hooks.api(`${NS}/webhooks/${hook.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { status: "active" },
    });
    await env.DB.prepare("UPDATE webhooks SET consecutive_failures = 7").run();
    hooks.queue.put(message(hook.id, "msg_ok"));
    await hooks.run();
    expect(await env.DB.prepare("SELECT consecutive_failures FROM webhooks").first()).toEqual({
      consecutive_failures: 0,
    });
  });

  it("messages of a deleted webhook are dropped unsent", async () => {
    receiver = startReceiver();
    const hook = await hooks.register({ url: "https://hooks.test/gone", events: ["*"] });
    await hooks.api(`${NS}/webhooks/${hook.id}`, { method: "DELETE", headers: ADMIN });
    hooks.queue.put(message(hook.id));
    expect(await hooks.run()).toMatchObject([{ outcome: "ack" }]);
    expect(receiver.received).toEqual([]);
    expect(hooks.queue.pending).toEqual([]);
  });
});
