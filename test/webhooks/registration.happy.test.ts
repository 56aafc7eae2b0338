/**
 * Registering and managing webhooks (contract §7.5): `POST /webhooks` answers the secret once; list,
 * read, change and remove; the secret is stored encrypted, never as sent, and never shown again.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { register } from "./support";

describe("POST /webhooks", () => {
  it("answers 201 with the webhook, its Location and a one-time whsec_ secret", async () => {
    const res = await api(`${NS}/webhooks`, {
      headers: ADMIN,
      json: {
        url: "https://hooks.test/build",
        events: ["calendar.changed"],
        description: "Site build",
        coalesce_seconds: 60,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      url: "https://hooks.test/build",
      events: ["calendar.changed"],
      description: "Site build",
      coalesce_seconds: 60,
      status: "active",
      created_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    expect(res.headers.get("location")).toBe(`${ORIGIN}${NS}/webhooks/${res.body.id}`);
    // At least 24 random bytes behind the prefix.
    expect(atob(res.body.secret.slice(6)).length).toBeGreaterThanOrEqual(24);
  });

  it("defaults: no description, coalesce_seconds 30; takes events as a comma list too", async () => {
    const hook = await register({
      url: "http://hooks.test/x",
      events: "event.created,tag.deleted",
    });
    expect(hook).toMatchObject({
      events: ["event.created", "tag.deleted"],
      description: "",
      coalesce_seconds: 30,
    });
  });

  it("stores the secret encrypted, not as sent, and gives every webhook its own", async () => {
    const a = await register({ url: "https://hooks.test/a", events: ["*"] });
    const b = await register({ url: "https://hooks.test/b", events: ["*"] });
    expect(a.secret).not.toBe(b.secret);
    const rows = (await env.DB.prepare("SELECT * FROM webhooks").all()).results;
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(a.secret.slice(6));
    expect(stored).not.toContain(b.secret.slice(6));
    expect(rows.map((r) => String(r.secret_ciphertext).slice(0, 3))).toEqual(["v1.", "v1."]);
  });
});

describe("reading webhooks", () => {
  it("GET /webhooks lists them newest first, paged like every archive, without secrets", async () => {
    for (const n of [1, 2, 3]) await register({ url: `https://hooks.test/${n}`, events: ["*"] });
    const first = await api(`${NS}/webhooks?per_page=2`, { headers: ADMIN });
    expect(first.status).toBe(200);
    expect(first.body.webhooks.map((w: any) => w.url)).toEqual([
      "https://hooks.test/3",
      "https://hooks.test/2",
    ]);
    expect(first.body).toMatchObject({
      total: 3,
      total_pages: 2,
      rest_url: `${ORIGIN}${NS}/webhooks/?page=1&per_page=2`,
      next_rest_url: `${ORIGIN}${NS}/webhooks/?per_page=2&page=2`,
    });
    expect(first.headers.get("x-wp-total")).toBe("3");
    expect(first.headers.get("x-wp-totalpages")).toBe("2");
    expect(first.headers.get("link")).toContain('rel="next"');
    expect(first.headers.get("cache-control")).toContain("no-store");
    const second = await api(first.body.next_rest_url.replace(ORIGIN, ""), { headers: ADMIN });
    expect(second.body.webhooks.map((w: any) => w.url)).toEqual(["https://hooks.test/1"]);
    expect(first.text + second.text).not.toContain("secret");
  });

  it("GET /webhooks/{id} answers the webhook without its secret", async () => {
    const hook = await register({ url: "https://hooks.test/a", events: ["venue.created"] });
    const res = await api(`${NS}/webhooks/${hook.id}`, { headers: ADMIN });
    const { secret, ...rest } = hook;
    expect(res.status).toBe(200);
    expect(res.body).toEqual(rest);
    expect(res.text).not.toContain(secret.slice(6));
  });
});

describe("changing and removing webhooks", () => {
  it("PATCH changes exactly the fields sent", async () => {
    const hook = await register({
      url: "https://hooks.test/a",
      events: ["*"],
      description: "keep me",
    });
    const res = await api(`${NS}/webhooks/${hook.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { url: "https://hooks.test/b", events: ["calendar.changed", "*"], coalesce_seconds: 5 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      url: "https://hooks.test/b",
      events: ["calendar.changed", "*"],
      coalesce_seconds: 5,
      description: "keep me",
      status: "active",
    });
    const same = await api(`${NS}/webhooks/${hook.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: {},
    });
    expect(same.body).toEqual(res.body);
  });

  it("disables and enables again; enabling forgets the failed messages that disabled it", async () => {
    const hook = await register({ url: "https://hooks.test/a", events: ["*"] });
    await env.DB.prepare(
      "UPDATE webhooks SET consecutive_failures = 50, status = 'disabled'",
    ).run();
    const disabled = await api(`${NS}/webhooks/${hook.id}`, { headers: ADMIN });
    expect(disabled.body.status).toBe("disabled");
    const res = await api(`${NS}/webhooks/${hook.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { status: "active" },
    });
    expect(res.body.status).toBe("active");
    const row = await env.DB.prepare("SELECT consecutive_failures FROM webhooks").first();
    expect(row).toEqual({ consecutive_failures: 0 });
  });

  it("DELETE removes the webhook and its log: {deleted: true, previous}, then 404", async () => {
    const hook = await register({ url: "https://hooks.test/a", events: ["*"] });
    await env.DB.prepare(
      "INSERT INTO webhook_deliveries (webhook_id, message_id, type, attempt, duration_ms, created_gmt) VALUES (?, 'msg_1', 'ping', 1, 5, '2026-01-01 00:00:00')",
    )
      .bind(hook.id)
      .run();
    const res = await api(`${NS}/webhooks/${hook.id}`, { method: "DELETE", headers: ADMIN });
    const { secret, ...previous } = hook;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, previous });
    expect((await api(`${NS}/webhooks/${hook.id}`, { headers: ADMIN })).status).toBe(404);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries").first()).toEqual({
      n: 0,
    });
  });
});

describe("discovery", () => {
  it("the namespace index and /doc list the webhook routes", async () => {
    const index = await api(`${NS}/`, { headers: ADMIN });
    for (const route of [
      "/tribe/events/v1/webhooks",
      "/tribe/events/v1/webhooks/(?P<id>\\d+)",
      "/tribe/events/v1/webhooks/(?P<id>\\d+)/ping",
      "/tribe/events/v1/webhooks/(?P<id>\\d+)/deliveries",
    ])
      expect(index.body.routes[route], route).toBeDefined();
    const doc = await api(`${NS}/doc`);
    expect(Object.keys(doc.body.paths["/webhooks"])).toEqual(["get", "post"]);
    expect(doc.body.paths["/webhooks/{id}/ping"].post.responses["202"]).toBeDefined();
    expect(doc.body.components.schemas.NewWebhook.required).toContain("secret");
  });
});
