/**
 * Who may manage webhooks: administrators (`manage_options`) only. Anonymous callers get
 * 401 and every other role 403 `rest_forbidden` on every route, nothing is created, changed, pinged
 * or revealed, and the `Allow` header offers the methods to administrators only.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Role } from "../../src/access/roles";
import { ADMIN, api, NS } from "../support/api";
import { seedUser } from "../support/factories";
import { drive } from "./driven";
import { register } from "./support";

const OTHERS: Role[] = ["editor", "author", "contributor", "subscriber"];

describe("the role matrix of the webhook routes", () => {
  it("lets administrators do everything and everyone else nothing", async () => {
    // Driven: a ping would wait in its queue, where the test sees it.
    const hooks = drive();
    const hook = await hooks.register({ url: "https://hooks.test/a", events: ["*"] });
    const callers: Array<[string, Record<string, string>, number]> = [
      ["anonymous", {}, 401],
      ...(await Promise.all(
        OTHERS.map(
          async (role): Promise<[string, Record<string, string>, number]> => [
            role,
            (await seedUser(role)).headers,
            403,
          ],
        ),
      )),
    ];
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/webhooks"],
      ["POST", "/webhooks", { url: "https://hooks.test/evil", events: ["*"] }],
      ["GET", `/webhooks/${hook.id}`],
      ["PATCH", `/webhooks/${hook.id}`, { url: "https://hooks.test/evil" }],
      ["PUT", `/webhooks/${hook.id}`, { status: "disabled" }],
      ["POST", `/webhooks/${hook.id}/ping`],
      ["GET", `/webhooks/${hook.id}/deliveries`],
      ["DELETE", `/webhooks/${hook.id}`],
      // An id that does not exist is no different: permission comes first.
      ["GET", "/webhooks/999"],
      ["DELETE", "/webhooks/999"],
    ];
    for (const [who, headers, status] of callers) {
      for (const [method, path, json] of calls) {
        const res = await hooks.api(`${NS}${path}`, { method, headers, json });
        expect(res.status, `${who} ${method} ${path}`).toBe(status);
        expect(res.body.code).toBe("rest_forbidden");
        expect(res.text).not.toContain("hooks.test");
      }
    }
    // Nothing changed, nothing was sent.
    const rows = (await env.DB.prepare("SELECT url, status FROM webhooks").all()).results;
    expect(rows).toEqual([{ url: "https://hooks.test/a", status: "active" }]);
    expect(hooks.queue.pending).toEqual([]);

    // The administrator can do each of them.
    for (const [method, path, json] of calls.slice(0, 8)) {
      const res = await hooks.api(`${NS}${path}`, { method, headers: ADMIN, json });
      expect(res.status, `administrator ${method} ${path}`).toBeLessThan(300);
    }
    expect(hooks.queue.pending).toMatchObject([{ body: { type: "ping", webhookId: hook.id } }]);
  });

  it("offers the methods in the Allow header to administrators only", async () => {
    const hook = await register({ url: "https://hooks.test/a", events: ["*"] });
    const editor = await seedUser("editor");
    const path = `${NS}/webhooks/${hook.id}`;
    expect((await api(path, { headers: ADMIN })).headers.get("allow")).toBe(
      "GET, POST, PUT, PATCH, DELETE",
    );
    expect((await api(path, { headers: editor.headers })).headers.get("allow") ?? "").toBe("");
    expect((await api(path)).headers.get("allow") ?? "").toBe("");
  });

  it("never shows the secret again, to anyone", async () => {
    const hook = await register({ url: "https://hooks.test/a", events: ["*"] });
    const key = hook.secret.slice(6);
    for (const path of [
      "/webhooks",
      `/webhooks/${hook.id}`,
      `/webhooks/${hook.id}/deliveries`,
      "/doc",
      "/",
    ])
      expect((await api(`${NS}${path}`, { headers: ADMIN })).text, path).not.toContain(key);
  });
});
