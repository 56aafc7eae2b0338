/**
 * IPv6 addresses that carry a private IPv4 address, or lead to one through a
 * translator, are private targets like the IPv4 address itself — 6to4 (`2002::/16` with a private
 * IPv4 inside), NAT64 (`64:ff9b::/96`), Teredo (`2001::/32`), IPv4-mapped, -compatible and
 * -translated forms — refused on create and on update unless `WEBHOOK_PRIVATE_TARGETS=allow`.
 * Names are not resolved here (README, Webhooks): `127.0.0.1.nip.io` is left to the platform.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { register } from "./support";

const count = async () =>
  ((await env.DB.prepare("SELECT count(*) AS n FROM webhooks").first()) as { n: number }).n;

const REFUSED = "url points to a private or loopback address, which this site does not deliver to.";

/** Private IPv4 addresses hidden in IPv6 forms. */
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
    "http://[2002:5db8:d822::1]/hook", // 6to4 of the public 93.184.216.34
    "http://[2606:4700::1111]/hook",
    "http://[::ffff:8.8.8.8]/hook",
    "https://127.0.0.1.nip.io/hook", // a name: checked by the platform, not here
  ])("accepts the public or name-based target %s", async (url) => {
    const res = await api(`${NS}/webhooks`, { headers: ADMIN, json: { url, events: ["*"] } });
    expect(res.status).toBe(201);
  });
});
