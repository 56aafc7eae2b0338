/**
 * Only committed writes are delivered (contract §7.5). Changes reach the queue through the outbox, which
 * D1 triggers fill inside each write's own batch: a rolled-back batch leaves nothing, a write that
 * lost a race and ran again is delivered once, an update that changes nothing sends nothing, and a
 * drain that died is taken over with the same message ids.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dispatchChanges } from "../../src/webhooks/dispatch";
import { ADMIN, NS, ORIGIN } from "../support/api";
import { type Driven, drive } from "./driven";
import { startReceiver } from "./receiver";
import { outboxRows } from "./support";

let receiver: ReturnType<typeof startReceiver>;
let hooks: Driven;
beforeEach(() => {
  receiver = startReceiver();
  hooks = drive();
});
afterEach(() => receiver.stop());

/** Seconds a drain holds the rows it claimed (src/webhooks/dispatch.ts). */
const LEASE_SECONDS = 60;

/** Clock milliseconds → UTC `Y-m-d H:i:s`, as the outbox stores times. */
const wpTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

const event = (title: string, more: Record<string, unknown> = {}) => ({
  title,
  start_date: "2026-12-06 10:00",
  end_date: "2026-12-06 11:00",
  ...more,
});

describe("the outbox", () => {
  it("is filled by triggers on events, venues, organizers and terms (a recreated table drops them)", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'webhook_%' ORDER BY name",
    ).all();
    const expected = ["events", "organizers", "terms", "venues"].flatMap((table) =>
      ["ad", "ai", "au"].map((op) => ({ name: `webhook_${table}_${op}`, tbl_name: table })),
    );
    expect(results).toEqual(expected);
  });

  it("stays empty while no webhook is active, and is emptied by the drain after each write", async () => {
    await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "before" } });
    expect(await outboxRows()).toEqual([]);
    await hooks.register({ url: "https://hooks.test/a", events: ["*"] });
    await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "after" } });
    // The write's drain has run: its change is in the queue, the outbox empty again.
    expect(await outboxRows()).toEqual([]);
    expect(hooks.queue.pending).toMatchObject([{ body: { type: "tag.created" } }]);
    await hooks.run();
    expect(receiver.received).toHaveLength(1);
  });
});

describe("only committed writes are delivered", () => {
  it("a write whose batch is rolled back sends nothing", async () => {
    await hooks.register({ url: "https://hooks.test/a", events: ["*", "calendar.changed"] });
    // The version bump is the last statement of every write batch: failing it rolls the whole
    // batch back after the event, its venue and its tag were inserted (and the triggers fired).
    await env.DB.prepare(
      "CREATE TRIGGER doom BEFORE UPDATE ON content_version WHEN EXISTS (SELECT 1 FROM events WHERE title = 'Doomed') BEGIN SELECT RAISE(ABORT, 'doomed'); END",
    ).run();
    const res = await hooks.api(`${NS}/events`, {
      headers: ADMIN,
      json: event("Doomed", { venue: { venue: "Doomed Hall" }, tags: "doomed-tag" }),
    });
    expect(res.status).toBe(500);
    expect((await hooks.api(`${NS}/events?search=Doomed`, { headers: ADMIN })).body.total).toBe(0);
    expect(await outboxRows()).toEqual([]);
    expect(hooks.queue.pending).toEqual([]);

    // The next write that commits is delivered, and only it (its calendar.changed included).
    await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "fine" } });
    await hooks.advance(30);
    expect(receiver.received.map((d) => d.body.type).sort()).toEqual([
      "calendar.changed",
      "tag.created",
    ]);
    expect(receiver.ofType("calendar.changed")[0].body.data).toMatchObject({ changes: 1 });
  });

  it("parallel writes that race for one venue deliver its creation once", async () => {
    await hooks.register({
      url: "https://hooks.test/a",
      events: ["venue.created", "event.created"],
    });
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        hooks.api(`${NS}/events`, {
          headers: ADMIN,
          json: event(`Race ${n}`, { venue: { venue: "Same Hall" } }),
        }),
      ),
    );
    for (const res of results) expect(res.status).toBe(201);
    const venueIds = new Set(results.map((r) => r.body.venue.id));
    expect(venueIds.size).toBe(1);
    await hooks.run();
    expect(receiver.received).toHaveLength(5);
    expect(hooks.queue.pending).toEqual([]);
    expect(receiver.ofType("venue.created").map((d) => d.body.data.id)).toEqual([...venueIds]);
    expect(receiver.ofType("event.created")).toHaveLength(4);
  });

  it("an update that changes nothing sends nothing", async () => {
    const { body } = await hooks.api(`${NS}/events`, { headers: ADMIN, json: event("Same") });
    await hooks.register({ url: "https://hooks.test/a", events: ["*"] });
    const res = await hooks.api(`${NS}/events/${body.id}`, {
      headers: ADMIN,
      json: { title: "Same" },
    });
    expect(res.status).toBe(200);
    expect(hooks.queue.pending).toEqual([]);
    await hooks.run();
    expect(receiver.received).toEqual([]);
  });
});

describe("a drain that died", () => {
  it("is taken over once its claim lapses, with the same webhook-id (receivers de-duplicate)", async () => {
    await hooks.register({ url: "https://hooks.test/a", events: ["tag.created"] });
    await hooks.api(`${NS}/tags`, { headers: ADMIN, json: { name: "first" } });
    await hooks.run();
    expect(receiver.received).toHaveLength(1);
    const firstId = receiver.received[0].headers["webhook-id"];
    // Put the same row back as a drain that claimed it just now and died would have left it.
    await env.DB.prepare(
      `INSERT INTO webhook_outbox (id, kind, object_id, action, status, modified_gmt, created_gmt, claim, claimed_until)
       VALUES (?, 'tag', ?, 'created', 'publish', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'dead', ?)`,
    )
      .bind(
        Number(firstId.match(/^msg_o(\d+)w/)![1]),
        receiver.received[0].body.data.id,
        wpTime(hooks.now() + LEASE_SECONDS * 1000),
      )
      .run();
    // While the claim holds, other drains leave the row alone…
    await dispatchChanges(hooks.env, `${ORIGIN}${NS}/`);
    expect(hooks.queue.pending).toEqual([]);
    expect(await outboxRows()).toHaveLength(1);
    // …once it lapsed, the next drain takes it over.
    await hooks.advance(LEASE_SECONDS + 1);
    await dispatchChanges(hooks.env, `${ORIGIN}${NS}/`);
    await hooks.run();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers["webhook-id"]).toBe(firstId);
    expect(await outboxRows()).toEqual([]);
  });
});
