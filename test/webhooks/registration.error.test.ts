/**
 * Bad input to the webhook routes: every bad value is a 400 naming the parameter and
 * stores nothing; private and loopback targets are refused unless `WEBHOOK_PRIVATE_TARGETS=allow`;
 * unknown ids are 404 `rest_webhook_invalid_id`; without `WEBHOOK_SECRET_KEY` nothing is created.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { register } from "./support";

const count = async () =>
  ((await env.DB.prepare("SELECT count(*) AS n FROM webhooks").first()) as { n: number }).n;

async function expectInvalid(json: Record<string, unknown>, param: string, message?: string) {
  const res = await api(`${NS}/webhooks`, { headers: ADMIN, json });
  expect(res.status, JSON.stringify(json)).toBe(400);
  expect(res.body.code).toBe("rest_invalid_param");
  expect(Object.keys(res.body.data.params)).toEqual([param]);
  if (message) expect(res.body.data.params[param]).toBe(message);
  expect(await count()).toBe(0);
}

/** Calls the worker with other settings than the test configuration's. */
async function withSettings(vars: Record<string, string>, path: string, init: RequestInit) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${ORIGIN}${path}`, init),
    { ...env, ...vars } as typeof env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any };
}

describe("POST /webhooks with bad input", () => {
  it("needs url and events (rest_missing_callback_param)", async () => {
    const res = await api(`${NS}/webhooks`, { headers: ADMIN, json: { description: "x" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "rest_missing_callback_param",
      data: { params: ["url", "events"] },
    });
    expect(await count()).toBe(0);
  });

  it.each([
    ["a relative path", "/hooks/build"],
    ["no scheme", "hooks.test/build"],
    ["ftp", "ftp://hooks.test/build"],
    ["javascript", "javascript:alert(1)"],
    ["blanks", "https://hooks.test/a b"],
    ["a number", 42],
  ])("refuses a url that is not absolute http(s): %s", async (_, url) => {
    await expectInvalid(
      { url, events: ["*"] },
      "url",
      typeof url === "string" ? "url must be an absolute http or https URL." : undefined,
    );
  });

  it.each([
    [["event.published"]],
    [["calendar.changed", "tag.moved"]],
    [[]],
    ["*,nope"],
    [[{ type: "event.created" }]],
  ])("refuses unknown event types: %j", async (events) => {
    await expectInvalid({ url: "https://hooks.test/a", events }, "events");
  });

  it.each([0, 3601, -5, 2.5, "soon"])("refuses coalesce_seconds %j outside 1–3600", async (n) => {
    await expectInvalid(
      { url: "https://hooks.test/a", events: ["*"], coalesce_seconds: n },
      "coalesce_seconds",
      "coalesce_seconds must be between 1 and 3600.",
    );
  });

  it("refuses a description over 1000 characters", async () => {
    await expectInvalid(
      { url: "https://hooks.test/a", events: ["*"], description: "x".repeat(1001) },
      "description",
    );
  });

  it.each([
    "http://127.0.0.1:9000/hook",
    "http://localhost/hook",
    "http://app.localhost/hook",
    "http://10.1.2.3/hook",
    "http://172.20.0.1/hook",
    "http://192.168.1.10/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]:8080/hook",
    "http://[fd00::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://0x7f.1/hook",
    "http://2130706433/hook",
    "http://intranet/hook",
  ])("refuses the private or loopback target %s", async (url) => {
    await expectInvalid(
      { url, events: ["*"] },
      "url",
      "url points to a private, loopback or reserved address, which this site does not deliver to.",
    );
  });

  it("accepts private targets when WEBHOOK_PRIVATE_TARGETS=allow (as npm start does)", async () => {
    const res = await withSettings({ WEBHOOK_PRIVATE_TARGETS: "allow" }, `${NS}/webhooks`, {
      method: "POST",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:9000/hook", events: ["*"] }),
    });
    expect(res.status).toBe(201);
    expect(res.body.url).toBe("http://127.0.0.1:9000/hook");
  });

  it("answers 500 rest_webhooks_unavailable and stores nothing without WEBHOOK_SECRET_KEY", async () => {
    const res = await withSettings({ WEBHOOK_SECRET_KEY: "" }, `${NS}/webhooks`, {
      method: "POST",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://hooks.test/a", events: ["*"] }),
    });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe("rest_webhooks_unavailable");
    expect(await count()).toBe(0);
  });

  it("answers in the request's language", async () => {
    const res = await api(`/de${NS}/webhooks`, {
      headers: ADMIN,
      json: { url: "https://hooks.test/a", events: ["*"], coalesce_seconds: 0 },
    });
    expect(res.body.data.params.coalesce_seconds).toBe(
      "coalesce_seconds muss zwischen 1 und 3600 liegen.",
    );
  });
});

describe("PATCH /webhooks/{id} with bad input", () => {
  it("changes nothing when one field is bad", async () => {
    const hook = await register({ url: "https://hooks.test/a", events: ["*"] });
    for (const [json, param] of [
      [{ url: "https://hooks.test/b", status: "paused" }, "status"],
      [{ url: "http://127.0.0.1/x" }, "url"],
      [{ events: ["event.created"], coalesce_seconds: 0 }, "coalesce_seconds"],
      [{ events: "nope" }, "events"],
    ] as const) {
      const res = await api(`${NS}/webhooks/${hook.id}`, { method: "PATCH", headers: ADMIN, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(Object.keys(res.body.data.params)).toEqual([param]);
    }
    const { secret, ...unchanged } = hook;
    expect((await api(`${NS}/webhooks/${hook.id}`, { headers: ADMIN })).body).toEqual(unchanged);
  });
});

describe("unknown webhooks", () => {
  it("are 404 rest_webhook_invalid_id on every route", async () => {
    for (const [method, path] of [
      ["GET", "/webhooks/999"],
      ["PATCH", "/webhooks/999"],
      ["DELETE", "/webhooks/999"],
      ["POST", "/webhooks/999/ping"],
      ["GET", "/webhooks/999/deliveries"],
    ]) {
      const json = method === "GET" ? undefined : {};
      const res = await api(`${NS}${path}`, { method, headers: ADMIN, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({
        code: "rest_webhook_invalid_id",
        message: "Invalid webhook ID.",
        data: { status: 404 },
      });
    }
  });

  it("bad paging of the lists is a 400 naming the parameter", async () => {
    const hook = await register({ url: "https://hooks.test/a", events: ["*"] });
    for (const path of ["/webhooks?page=0", `/webhooks/${hook.id}/deliveries?per_page=x`]) {
      const res = await api(`${NS}${path}`, { headers: ADMIN });
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe("rest_invalid_param");
    }
  });
});
