import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { resetRateLimits } from "../../src/http/rate-limit";
import worker from "../../src/index";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { freshIp, inOneWindow } from "../support/rate-window";

const wrong = { authorization: `Basic ${btoa("admin:wrong-password")}` };

beforeEach(() => resetRateLimits());

describe("failed authentication is rate limited per client IP (contract §3)", () => {
  it("answers 429 with Retry-After after ten failures, even for the right password, per IP only", async () => {
    await inOneWindow(async (client) => {
      const ip = { "cf-connecting-ip": client };
      for (let i = 0; i < 10; i++)
        expect((await api(`${NS}/events`, { headers: { ...wrong, ...ip } })).status).toBe(401);
      const blocked = await api(`${NS}/events`, { headers: { ...wrong, ...ip } });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe("too_many_requests");
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await api(`${NS}/events`, { headers: { ...ADMIN, ...ip } })).status).toBe(429);
      // Another client is not affected, and anonymous reads from the blocked one still work.
      expect(
        (await api(`${NS}/events`, { headers: { ...ADMIN, "cf-connecting-ip": freshIp() } }))
          .status,
      ).toBe(200);
      expect((await api(`${NS}/events`, { headers: ip })).status).toBe(200);
    });
  });

  it("counts in the isolate when the rate limiting binding is absent", async () => {
    const { AUTH_FAILURES: _, ...withoutBinding } = env as unknown as Record<string, unknown>;
    const call = async (headers: Record<string, string>) =>
      (
        await worker.fetch(
          new Request(`${ORIGIN}${NS}/events`, {
            headers: { ...headers, "cf-connecting-ip": "192.0.2.9" },
          }),
          withoutBinding as never,
          createExecutionContext(),
        )
      ).status;
    for (let i = 0; i < 10; i++) expect(await call(wrong)).toBe(401);
    expect(await call(wrong)).toBe(429);
    expect(await call(ADMIN)).toBe(429);
  });
});
