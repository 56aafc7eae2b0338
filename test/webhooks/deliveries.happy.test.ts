/**
 * What receivers get (contract §7.5): per change and subscribed webhook one `POST` with the Standard
 * Webhooks headers, verified here on the receiving side with the `standardwebhooks` library; bodies
 * with ids and links only, never content; pings; the delivery log, newest first.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, NS, ORIGIN } from "../support/api";
import { type Driven, drive } from "./driven";
import { type Received, startReceiver, verify } from "./receiver";

let receiver: ReturnType<typeof startReceiver>;
let hooks: Driven;
beforeEach(() => {
  receiver = startReceiver();
  hooks = drive();
});
afterEach(() => receiver.stop());

/** Content written in the tests: none of it may appear in any delivery. */
const CONTENT = [
  "Midnight Jazz",
  "Bring earplugs",
  "Blue Hall",
  "Springfield",
  "Ann Organa",
  "ann@",
];

const EVENT = {
  title: "Midnight Jazz",
  description: "Bring earplugs",
  start_date: "2026-12-06 23:00:00",
  end_date: "2026-12-07 01:00:00",
  venue: { venue: "Blue Hall", city: "Springfield" },
  organizer: { organizer: "Ann Organa", email: "ann@example.com" },
  categories: "Concerts",
  tags: "Late",
};

/** Asserts the body is exactly the id-and-link shape of contract §7.5. */
function expectIdsOnly(d: Received, type: string, id: number, route: string) {
  expect(d.body).toEqual({
    type,
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    data: {
      id,
      type: type.split(".")[0],
      status: expect.any(String),
      rest_url: `${ORIGIN}${NS}/${route}/${id}`,
      modified_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    },
  });
}

describe("deliveries of changes", () => {
  it("sends one signed delivery per change of an event write, nested creations included", async () => {
    const hook = await hooks.register({ url: "https://hooks.test/all", events: ["*"] });
    const res = await hooks.api(`${NS}/events`, { headers: ADMIN, json: EVENT });
    expect(res.status).toBe(201);
    const event = res.body;
    await hooks.run();
    expect(receiver.received).toHaveLength(5);
    // All delivered at the first attempt: nothing more is on its way.
    expect(hooks.queue.pending).toEqual([]);

    const byType = Object.fromEntries(receiver.received.map((d) => [d.body.type, d]));
    expect(Object.keys(byType).sort()).toEqual([
      "category.created",
      "event.created",
      "organizer.created",
      "tag.created",
      "venue.created",
    ]);
    expectIdsOnly(byType["event.created"], "event.created", event.id, "events");
    expectIdsOnly(byType["venue.created"], "venue.created", event.venue.id, "venues");
    expectIdsOnly(
      byType["organizer.created"],
      "organizer.created",
      event.organizer[0].id,
      "organizers",
    );
    expectIdsOnly(
      byType["category.created"],
      "category.created",
      event.categories[0].id,
      "categories",
    );
    expectIdsOnly(byType["tag.created"], "tag.created", event.tags[0].id, "tags");
    expect(byType["event.created"].body.data).toMatchObject({
      status: "publish",
      modified_utc: event.modified_utc,
    });

    for (const d of receiver.received) {
      expect(d.url).toBe("https://hooks.test/all");
      expect(d.headers["content-type"]).toBe("application/json");
      expect(d.headers["webhook-id"]).toMatch(/^msg_/);
      // The attempt's time, in Unix seconds.
      expect(d.headers["webhook-timestamp"]).toBe(String(Math.floor(hooks.now() / 1000)));
      expect(d.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      // The receiver's side: the library accepts the signature made with the secret…
      expect(verify(hook.secret, d)).toEqual(d.body);
      // …and refuses a tampered body or another secret.
      expect(() =>
        verify(hook.secret, { ...d, raw: d.raw.replace("created", "updated") }),
      ).toThrow();
      const other = `whsec_${btoa("another secret, 32 bytes long!!!")}`;
      expect(() => verify(other, d)).toThrow();
      for (const text of CONTENT) expect(d.raw).not.toContain(text);
    }
    expect(new Set(receiver.received.map((d) => d.headers["webhook-id"])).size).toBe(5);
  });

  it("tells updated, trashed and deleted apart, for posts and terms", async () => {
    const { body: event } = await hooks.api(`${NS}/events`, {
      headers: ADMIN,
      json: { title: "Quiet", start_date: "2026-12-06 10:00", end_date: "2026-12-06 11:00" },
    });
    const { body: venue } = await hooks.api(`${NS}/venues`, {
      headers: ADMIN,
      json: { venue: "Loft" },
    });
    const { body: tag } = await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "Old" } });
    await hooks.register({ url: "https://hooks.test/all", events: ["*"] });
    const step = async (method: string, path: string, json?: unknown) =>
      expect((await hooks.api(`${NS}${path}`, { method, headers: ADMIN, json })).status).toBe(200);
    await step("POST", `/events/${event.id}`, { title: "Loud" });
    await step("DELETE", `/events/${event.id}`);
    await step("DELETE", `/events/${event.id}?force=true`);
    await step("DELETE", `/venues/${venue.id}?force=true`);
    await step("POST", `/tags/${tag.id}`, { name: "Older" });
    await step("DELETE", `/tags/${tag.id}`);
    await hooks.run();
    expect(receiver.received).toHaveLength(6);
    expect(hooks.queue.pending).toEqual([]);
    const seen = receiver.received
      .map((d) => [d.body.type, d.body.data.id, d.body.data.status])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1]));
    expect(seen).toEqual([
      ["event.deleted", event.id, "deleted"],
      ["event.trashed", event.id, "trash"],
      ["event.updated", event.id, "publish"],
      ["tag.deleted", tag.id, "deleted"],
      ["tag.updated", tag.id, "publish"],
      ["venue.deleted", venue.id, "deleted"],
    ]);
  });

  it("sends each webhook only the types it subscribed to, signed with its own secret", async () => {
    const creations = await hooks.register({
      url: "https://hooks.test/a",
      events: ["event.created"],
    });
    const removals = await hooks.register({ url: "https://hooks.test/b", events: ["tag.deleted"] });
    const { body: event } = await hooks.api(`${NS}/events`, {
      headers: ADMIN,
      json: {
        title: "One",
        start_date: "2026-12-06 10:00",
        end_date: "2026-12-06 11:00",
        tags: "t",
      },
    });
    await hooks.api(`${NS}/tags/${event.tags[0].id}`, { method: "DELETE", headers: ADMIN });
    await hooks.run();
    expect(receiver.received).toHaveLength(2);
    expect(hooks.queue.pending).toEqual([]);
    const [a] = receiver.received.filter((d) => d.url.endsWith("/a"));
    const [b] = receiver.received.filter((d) => d.url.endsWith("/b"));
    expect(a.body.type).toBe("event.created");
    expect(b.body.type).toBe("tag.deleted");
    expect(verify(creations.secret, a)).toBeTruthy();
    expect(verify(removals.secret, b)).toBeTruthy();
    expect(() => verify(removals.secret, a)).toThrow();
  });

  it("a failing receiver never changes the answer to the write", async () => {
    receiver.stop();
    receiver = startReceiver(() => new TypeError("connection refused"));
    await hooks.register({ url: "https://hooks.test/down", events: ["*"] });
    const res = await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "Still here" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Still here" });
    await hooks.run();
    expect(receiver.received).toHaveLength(1);
    expect((await hooks.api(`${NS}/tags/${res.body.id}`)).body.name).toBe("Still here");
  });

  it("sends nothing to a disabled webhook, and nothing when no webhook is active", async () => {
    const hook = await hooks.register({ url: "https://hooks.test/a", events: ["*"] });
    await hooks.api(`${NS}/webhooks/${hook.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { status: "disabled" },
    });
    await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "Unheard" } });
    // Nothing was even queued.
    expect(hooks.queue.pending).toEqual([]);
    await hooks.run();
    expect(receiver.received).toEqual([]);
    const outbox = await env.DB.prepare("SELECT count(*) AS n FROM webhook_outbox").first();
    expect(outbox).toEqual({ n: 0 });
  });
});

describe("POST /webhooks/{id}/ping", () => {
  it("queues a signed ping at once, and logs the attempt", async () => {
    const hook = await hooks.register({
      url: "https://hooks.test/ping",
      events: ["calendar.changed"],
    });
    const res = await hooks.api(`${NS}/webhooks/${hook.id}/ping`, {
      method: "POST",
      headers: ADMIN,
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message_id: expect.stringMatching(/^msg_/), type: "ping" });
    // Queued at once, not delayed.
    expect(hooks.queue.pending).toMatchObject([{ body: { type: "ping" }, dueAt: hooks.now() }]);
    await hooks.run();
    expect(receiver.ofType("ping")).toHaveLength(1);
    const [ping] = receiver.ofType("ping");
    expect(ping.headers["webhook-id"]).toBe(res.body.message_id);
    expect(verify(hook.secret, ping)).toEqual({
      type: "ping",
      timestamp: expect.any(String),
      data: {
        id: hook.id,
        type: "webhook",
        status: "active",
        rest_url: `${ORIGIN}${NS}/webhooks/${hook.id}`,
        modified_utc: hook.created_utc,
      },
    });
    const log = await hooks.api(`${NS}/webhooks/${hook.id}/deliveries`, { headers: ADMIN });
    expect(log.body.deliveries).toEqual([
      {
        id: expect.any(Number),
        message_id: res.body.message_id,
        type: "ping",
        attempt: 1,
        status_code: 204,
        error: null,
        duration_ms: expect.any(Number),
        created_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        next_attempt_utc: null,
      },
    ]);
  });
});

describe("GET /webhooks/{id}/deliveries", () => {
  it("lists the attempts newest first, paged like every archive", async () => {
    const hook = await hooks.register({ url: "https://hooks.test/log", events: ["*"] });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await hooks.api(`${NS}/webhooks/${hook.id}/ping`, {
        method: "POST",
        headers: ADMIN,
      });
      ids.push(res.body.message_id);
      await hooks.run();
      expect(receiver.received).toHaveLength(i + 1);
    }
    const path = `${NS}/webhooks/${hook.id}/deliveries`;
    expect((await hooks.api(path, { headers: ADMIN })).body.total).toBe(3);
    const page1 = await hooks.api(`${path}?per_page=2`, { headers: ADMIN });
    expect(page1.body.deliveries.map((d: any) => d.message_id)).toEqual([ids[2], ids[1]]);
    expect(page1.body).toMatchObject({
      total: 3,
      total_pages: 2,
      next_rest_url: `${ORIGIN}${path}/?per_page=2&page=2`,
    });
    expect(page1.headers.get("x-wp-total")).toBe("3");
    const page2 = await hooks.api(`${path}?per_page=2&page=2`, { headers: ADMIN });
    expect(page2.body.deliveries.map((d: any) => d.message_id)).toEqual([ids[0]]);
  });
});
