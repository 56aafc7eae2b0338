/**
 * IPv6 addresses that carry an IPv4 address, or lead to one through a translator or tunnel, are
 * refused whole, whatever IPv4 address they carry (each form is a special-purpose or reserved range
 * of its own: src/lib/special-addresses.ts) — 6to4 (`2002::/16`), NAT64 (`64:ff9b::/96`,
 * `64:ff9b:1::/48`), Teredo (`2001::/32`), IPv4-mapped, -compatible and -translated forms — on
 * create and on update unless `WEBHOOK_PRIVATE_TARGETS=allow`, and at delivery time for a webhook
 * stored before. Names are not resolved here (README, Webhooks): `127.0.0.1.nip.io` is left to
 * the platform.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { network } from "../support/network";
import { drive } from "./driven";
import { deliveryLog, register } from "./support";

const count = async () =>
  ((await env.DB.prepare("SELECT count(*) AS n FROM webhooks").first()) as { n: number }).n;

const REFUSED =
  "url points to a private, loopback or reserved address, which this site does not deliver to.";

/** IPv4 addresses, private and public, hidden in IPv6 forms. */
const HIDDEN_PRIVATE = [
  "http://[2002:7f00:1::]/hook", // 6to4 of 127.0.0.1
  "http://[2002:a00:1::1]/hook", // 6to4 of 10.0.0.1
  "http://[2002:c0a8:101::]/hook", // 6to4 of 192.168.1.1
  "http://[2002:a9fe:a9fe::]/latest/meta-data", // 6to4 of 169.254.169.254
  "http://[64:ff9b::7f00:1]/hook", // NAT64 of 127.0.0.1
  "http://[64:ff9b::127.0.0.1]/hook",
  "http://[64:ff9b:1::a00:1]/hook", // local-use NAT64 (RFC 8215)
  "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook", // Teredo, client 127.0.0.1
  "http://[2001::1]/hook", // Teredo
  "http://[::ffff:127.0.0.1]/hook", // IPv4-mapped
  "http://[::ffff:a9fe:a9fe]/hook",
  "http://[::127.0.0.1]/hook", // IPv4-compatible
  "http://[::ffff:0:7f00:1]/hook", // IPv4-translated (SIIT)
  "http://[fec0::1]/hook", // site-local
  "http://[2002:5db8:d822::1]/hook", // 6to4 of the public 93.184.216.34
  "http://[::ffff:8.8.8.8]/hook", // IPv4-mapped public address
  "http://[64:ff9b::8.8.8.8]/hook", // NAT64 of a public address
];

describe("webhook targets hidden in IPv6 forms", () => {
  it.each(HIDDEN_PRIVATE)("refuses %s on create", async (url) => {
    const res = await api(`${NS}/webhooks`, { headers: ADMIN, json: { url, events: ["*"] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("rest_invalid_param");
    expect(res.body.data.params).toEqual({ url: REFUSED });
    expect(await count()).toBe(0);
  });

  it("refuses them on update and keeps the target it had", async () => {
    const hook = await register({ url: "https://hooks.example.com/build", events: ["*"] });
    for (const url of HIDDEN_PRIVATE) {
      const res = await api(`${NS}/webhooks/${hook.id}`, {
        method: "PATCH",
        headers: ADMIN,
        json: { url },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.data.params, url).toEqual({ url: REFUSED });
    }
    const kept = await api(`${NS}/webhooks/${hook.id}`, { headers: ADMIN });
    expect(kept.body.url).toBe("https://hooks.example.com/build");
  });

  it.each([
    "http://[2606:4700::1111]/hook",
    "http://93.184.216.34/hook",
    "https://127.0.0.1.nip.io/hook", // a name: checked by the platform, not here
  ])("accepts the public or name-based target %s", async (url) => {
    const res = await api(`${NS}/webhooks`, { headers: ADMIN, json: { url, events: ["*"] } });
    expect(res.status).toBe(201);
  });
});

describe("a target refused since it was stored", () => {
  it("fails at delivery without a request, and the log says why", async () => {
    const hooks = drive();
    // Stored while WEBHOOK_PRIVATE_TARGETS=allow (or before its range was refused).
    const stored = await api(
      `${NS}/webhooks`,
      { headers: ADMIN, json: { url: "http://192.0.2.1/hook", events: ["*"] } },
      { ...hooks.env, WEBHOOK_PRIVATE_TARGETS: "allow" },
    );
    expect(stored.status).toBe(201);
    const ping = await hooks.api(`${NS}/webhooks/${stored.body.id}/ping`, {
      method: "POST",
      headers: ADMIN,
    });
    expect(ping.status).toBe(202);
    await hooks.run();
    expect(network.requests).toEqual([]);
    expect(await deliveryLog(hooks, stored.body.id)).toMatchObject([
      {
        type: "ping",
        attempt: 1,
        status_code: null,
        error: "target refused: private, loopback or reserved address",
      },
    ]);
  });
});
