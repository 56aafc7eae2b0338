/**
 * `calendar.changed` (contract §7.5): one delivery per burst of edits, at most one per
 * `coalesce_seconds` per webhook, counting the changes anonymous readers could see, by kind.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import worker from "../../src/index";
import type { WebhookMessage } from "../../src/webhooks/messages";
import { ADMIN, api, NS } from "../support/api";
import { startReceiver, verify } from "./receiver";
import { eventually, pause, register } from "./support";

let receiver: ReturnType<typeof startReceiver>;
beforeEach(() => {
  receiver = startReceiver();
});
afterEach(() => receiver.stop());

const event = (title: string, status = "publish") => ({
  title,
  status,
  start_date: "2026-12-06 10:00",
  end_date: "2026-12-06 11:00",
});

describe("calendar.changed", () => {
  it("coalesces a burst of writes into one signed delivery with the counts by kind", async () => {
    const hook = await register({
      url: "https://hooks.test/build",
      events: ["calendar.changed"],
      coalesce_seconds: 3,
    });
    const started = Date.now();
    const writes = [
      api(`${NS}/events`, { headers: ADMIN, json: { ...event("A"), tags: "new-tag" } }),
      api(`${NS}/events`, { headers: ADMIN, json: event("B") }),
      api(`${NS}/venues`, { headers: ADMIN, json: { venue: "Hall" } }),
      // A draft is not on the public calendar: it does not count.
      api(`${NS}/events`, { headers: ADMIN, json: event("Draft", "draft") }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBe(201);
    const { body: a } = await api(`${NS}/events`, { headers: ADMIN, json: event("C") });
    await api(`${NS}/events/${a.id}`, { headers: ADMIN, json: { title: "C2" } });

    await eventually(() => expect(receiver.ofType("calendar.changed")).toHaveLength(1));
    // Not before the window closed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    const [delivery] = receiver.ofType("calendar.changed");
    expect(verify(hook.secret, delivery)).toEqual({
      type: "calendar.changed",
      timestamp: expect.stringMatching(/Z$/),
      data: {
        changes: 6,
        since_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        until_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        kinds: { event: 4, venue: 1, tag: 1 },
      },
    });
    expect(delivery.body.data.since_utc <= delivery.body.data.until_utc).toBe(true);
    // Nothing else: the per-object types were not subscribed to.
    await pause(4000);
    expect(receiver.received).toHaveLength(1);
  });

  it("opens a new window for the next burst: at most one delivery per coalesce_seconds", async () => {
    await register({
      url: "https://hooks.test/build",
      events: ["calendar.changed", "*"],
      coalesce_seconds: 2,
    });
    await api(`${NS}/tags`, { headers: ADMIN, json: { name: "one" } });
    await eventually(() => expect(receiver.ofType("calendar.changed")).toHaveLength(1));
    const firstAt = Date.now();
    await api(`${NS}/tags`, { headers: ADMIN, json: { name: "two" } });
    await api(`${NS}/tags`, { headers: ADMIN, json: { name: "three" } });
    await eventually(() => expect(receiver.ofType("calendar.changed")).toHaveLength(2));
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual(1500);
    const [first, second] = receiver.ofType("calendar.changed");
    expect(first.body.data).toMatchObject({ changes: 1, kinds: { tag: 1 } });
    expect(second.body.data).toMatchObject({ changes: 2, kinds: { tag: 2 } });
    expect(first.headers["webhook-id"]).not.toBe(second.headers["webhook-id"]);
    // "*" brought the per-object deliveries as well, each at once.
    expect(receiver.ofType("tag.created")).toHaveLength(3);
  });

  it("sends nothing for changes nobody anonymous can see", async () => {
    await register({
      url: "https://hooks.test/build",
      events: ["calendar.changed"],
      coalesce_seconds: 1,
    });
    const { body } = await api(`${NS}/events`, { headers: ADMIN, json: event("Hidden", "draft") });
    await api(`${NS}/events/${body.id}`, { headers: ADMIN, json: { title: "Still hidden" } });
    await pause(3500);
    expect(receiver.received).toEqual([]);
  });
});

describe("closing a window", () => {
  it("keeps the window and retries when its delivery cannot be queued", async () => {
    const hook = await register({ url: "https://hooks.test/build", events: ["calendar.changed"] });
    await env.DB.prepare(
      "INSERT INTO webhook_windows (webhook_id, token, since_gmt, until_gmt, events) VALUES (?, 't1', '2026-11-22 10:00:00', '2026-11-22 10:00:05', 2)",
    )
      .bind(hook.id)
      .run();
    const flush = async (queueEnv: typeof env) => {
      const batch = createMessageBatch<WebhookMessage>("tec-edge-webhooks", [
        {
          id: "f1",
          timestamp: new Date(),
          attempts: 1,
          body: { kind: "flush", webhookId: hook.id, token: "t1" },
        },
      ]);
      await worker.queue(batch, queueEnv);
      return getQueueResult(batch, createExecutionContext());
    };
    const broken = {
      sendBatch: () => Promise.reject(new Error("queue unavailable")),
    } as unknown as Queue;
    expect((await flush({ ...env, WEBHOOK_QUEUE: broken })).retryMessages).toEqual([
      { msgId: "f1" },
    ]);
    expect(await env.DB.prepare("SELECT token, events FROM webhook_windows").all()).toMatchObject({
      results: [{ token: "t1", events: 2 }],
    });
    expect((await flush(env)).explicitAcks).toEqual(["f1"]);
    await eventually(() => expect(receiver.ofType("calendar.changed")).toHaveLength(1));
    expect(receiver.received[0].body.data).toEqual({
      changes: 2,
      since_utc: "2026-11-22 10:00:00",
      until_utc: "2026-11-22 10:00:05",
      kinds: { event: 2 },
    });
    // Closed once: the same flush again finds nothing to send.
    expect((await flush(env)).explicitAcks).toEqual(["f1"]);
    await pause(1500);
    expect(receiver.received).toHaveLength(1);
  });
});
