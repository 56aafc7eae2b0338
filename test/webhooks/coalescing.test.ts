/**
 * `calendar.changed` (contract §7.5): one delivery per burst of edits, at most one per
 * `coalesce_seconds` per webhook, counting the changes anonymous readers could see, by kind.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, NS } from "../support/api";
import { type Driven, drive } from "./driven";
import { startReceiver, verify } from "./receiver";

let receiver: ReturnType<typeof startReceiver>;
let hooks: Driven;
beforeEach(() => {
  receiver = startReceiver();
  hooks = drive();
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
    const hook = await hooks.register({
      url: "https://hooks.test/build",
      events: ["calendar.changed"],
      coalesce_seconds: 3,
    });
    const writes = [
      hooks.api(`${NS}/events`, { headers: ADMIN, json: { ...event("A"), tags: "new-tag" } }),
      hooks.api(`${NS}/events`, { headers: ADMIN, json: event("B") }),
      hooks.api(`${NS}/venues`, { headers: ADMIN, json: { venue: "Hall" } }),
      // A draft is not on the public calendar: it does not count.
      hooks.api(`${NS}/events`, { headers: ADMIN, json: event("Draft", "draft") }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBe(201);
    const { body: a } = await hooks.api(`${NS}/events`, { headers: ADMIN, json: event("C") });
    await hooks.api(`${NS}/events/${a.id}`, { headers: ADMIN, json: { title: "C2" } });

    // Not before the window closes, coalesce_seconds after the first change.
    await hooks.run();
    await hooks.advance(2);
    expect(receiver.received).toEqual([]);
    await hooks.advance(1);
    expect(receiver.ofType("calendar.changed")).toHaveLength(1);
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
    // Nothing else, ever: the per-object types were not subscribed to.
    expect(hooks.queue.pending).toEqual([]);
    await hooks.advance(60);
    expect(receiver.received).toHaveLength(1);
  });

  it("opens a new window for the next burst: at most one delivery per coalesce_seconds", async () => {
    await hooks.register({
      url: "https://hooks.test/build",
      events: ["calendar.changed", "*"],
      coalesce_seconds: 2,
    });
    await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "one" } });
    // "*" brings the per-object deliveries as well, each at once.
    await hooks.run();
    expect(receiver.ofType("tag.created")).toHaveLength(1);
    expect(receiver.ofType("calendar.changed")).toHaveLength(0);
    await hooks.advance(2);
    expect(receiver.ofType("calendar.changed")).toHaveLength(1);

    await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "two" } });
    await hooks.advance(1);
    await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "three" } });
    await hooks.run();
    expect(receiver.ofType("tag.created")).toHaveLength(3);
    // The window "two" opened closes 2 s after it, with "three" in it.
    expect(receiver.ofType("calendar.changed")).toHaveLength(1);
    await hooks.advance(1);
    expect(receiver.ofType("calendar.changed")).toHaveLength(2);
    const [first, second] = receiver.ofType("calendar.changed");
    expect(first.body.data).toMatchObject({ changes: 1, kinds: { tag: 1 } });
    expect(second.body.data).toMatchObject({ changes: 2, kinds: { tag: 2 } });
    expect(first.headers["webhook-id"]).not.toBe(second.headers["webhook-id"]);
    expect(hooks.queue.pending).toEqual([]);
  });

  it("sends nothing for changes nobody anonymous can see", async () => {
    await hooks.register({
      url: "https://hooks.test/build",
      events: ["calendar.changed"],
      coalesce_seconds: 1,
    });
    const { body } = await hooks.api(`${NS}/events`, {
      headers: ADMIN,
      json: event("Hidden", "draft"),
    });
    await hooks.api(`${NS}/events/${body.id}`, { headers: ADMIN, json: { title: "Still hidden" } });
    // No window was opened: nothing is even queued.
    expect(hooks.queue.pending).toEqual([]);
    await hooks.advance(5);
    expect(receiver.received).toEqual([]);
  });
});

describe("closing a window", () => {
  it("keeps the window and retries when its delivery cannot be queued", async () => {
    const hook = await hooks.register({
      url: "https://hooks.test/build",
      events: ["calendar.changed"],
    });
    await env.DB.prepare(
      "INSERT INTO webhook_windows (webhook_id, token, since_gmt, until_gmt, events) VALUES (?, 't1', '2026-11-22 10:00:00', '2026-11-22 10:00:05', 2)",
    )
      .bind(hook.id)
      .run();
    const flush = { kind: "flush", webhookId: hook.id, token: "t1" } as const;
    hooks.queue.put(flush);
    hooks.queue.refuse = new Error("queue unavailable");
    // Retried after WEBHOOK_RETRY_BASE_SECONDS (10 s deployed), the window kept.
    expect(await hooks.run()).toMatchObject([{ outcome: "retry", delaySeconds: 10 }]);
    expect(await env.DB.prepare("SELECT token, events FROM webhook_windows").all()).toMatchObject({
      results: [{ token: "t1", events: 2 }],
    });
    hooks.queue.refuse = null;
    await hooks.advance(10);
    expect(receiver.ofType("calendar.changed")).toHaveLength(1);
    expect(receiver.received[0].body.data).toEqual({
      changes: 2,
      since_utc: "2026-11-22 10:00:00",
      until_utc: "2026-11-22 10:00:05",
      kinds: { event: 2 },
    });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM webhook_windows").first()).toEqual({
      n: 0,
    });
    // Closed once: the same flush again finds nothing to send.
    hooks.queue.put(flush);
    expect(await hooks.run()).toMatchObject([{ outcome: "ack" }]);
    expect(hooks.queue.pending).toEqual([]);
    expect(receiver.received).toHaveLength(1);
  });
});
