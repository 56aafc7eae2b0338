/**
 * Webhook targets in every IANA special-purpose and reserved range are refused (contract §7.5,
 * `WEBHOOK_PRIVATE_TARGETS=deny`, the deployed default): for each row of the one table
 * (src/lib/special-addresses.ts), addresses inside it — its first and last, and those people
 * write in examples — are refused by `POST /webhooks` as the administrator, 400 naming `url`, with
 * nothing stored; the public addresses just outside it are accepted. A row whose neighbours are
 * special-purpose or reserved too has no public address just outside it to try.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SPECIAL_PURPOSE_RANGES, specialRangeOf } from "../../src/lib/special-addresses";
import { isPrivateTarget } from "../../src/webhooks/targets";
import { ADMIN, api, NS } from "../support/api";

interface Case {
  inside: string[];
  /** Public addresses right next to the range (empty: its neighbours are special too). */
  outside: string[];
}

const only = (...inside: string[]): Case => ({ inside, outside: [] });

/** Each row of the table, by its range. */
const CASES: Record<string, Case> = {
  // IPv4 Special-Purpose Address Registry.
  "0.0.0.0/8": { inside: ["0.0.0.1", "0.255.255.255"], outside: ["1.0.0.0"] },
  "0.0.0.0/32": only("0.0.0.0"),
  "10.0.0.0/8": { inside: ["10.0.0.0", "10.255.255.255"], outside: ["9.255.255.255", "11.0.0.0"] },
  "100.64.0.0/10": {
    inside: ["100.64.0.0", "100.127.255.255"],
    outside: ["100.63.255.255", "100.128.0.0"],
  },
  "127.0.0.0/8": {
    inside: ["127.0.0.1", "127.255.255.255"],
    outside: ["126.255.255.255", "128.0.0.0"],
  },
  "169.254.0.0/16": {
    inside: ["169.254.0.0", "169.254.169.254", "169.254.255.255"],
    outside: ["169.253.255.255", "169.255.0.0"],
  },
  "172.16.0.0/12": {
    inside: ["172.16.0.0", "172.31.255.255"],
    outside: ["172.15.255.255", "172.32.0.0"],
  },
  "192.0.0.0/24": {
    inside: ["192.0.0.64", "192.0.0.255"],
    outside: ["191.255.255.255", "192.0.1.0"],
  },
  "192.0.0.0/29": only("192.0.0.0", "192.0.0.7"),
  "192.0.0.8/32": only("192.0.0.8"),
  "192.0.0.9/32": only("192.0.0.9"),
  "192.0.0.10/32": only("192.0.0.10"),
  "192.0.0.170/32": only("192.0.0.170"),
  "192.0.0.171/32": only("192.0.0.171"),
  "192.0.2.0/24": {
    inside: ["192.0.2.0", "192.0.2.1", "192.0.2.255"],
    outside: ["192.0.1.255", "192.0.3.0"],
  },
  "192.31.196.0/24": {
    inside: ["192.31.196.0", "192.31.196.255"],
    outside: ["192.31.195.255", "192.31.197.0"],
  },
  "192.52.193.0/24": {
    inside: ["192.52.193.0", "192.52.193.255"],
    outside: ["192.52.192.255", "192.52.194.0"],
  },
  "192.88.99.0/24": {
    inside: ["192.88.99.0", "192.88.99.1", "192.88.99.255"],
    outside: ["192.88.98.255", "192.88.100.0"],
  },
  "192.88.99.2/32": only("192.88.99.2"),
  "192.168.0.0/16": {
    inside: ["192.168.0.0", "192.168.255.255"],
    outside: ["192.167.255.255", "192.169.0.0"],
  },
  "192.175.48.0/24": {
    inside: ["192.175.48.0", "192.175.48.255"],
    outside: ["192.175.47.255", "192.175.49.0"],
  },
  "198.18.0.0/15": {
    inside: ["198.18.0.0", "198.19.255.255"],
    outside: ["198.17.255.255", "198.20.0.0"],
  },
  "198.51.100.0/24": {
    inside: ["198.51.100.0", "198.51.100.1", "198.51.100.255"],
    outside: ["198.51.99.255", "198.51.101.0"],
  },
  "203.0.113.0/24": {
    inside: ["203.0.113.0", "203.0.113.1", "203.0.113.255"],
    outside: ["203.0.112.255", "203.0.114.0"],
  },
  // Below it is multicast, above it nothing.
  "240.0.0.0/4": only("240.0.0.0", "255.255.255.254"),
  "255.255.255.255/32": only("255.255.255.255"),
  // IPv4 Address Space Registry: multicast (above it, 240.0.0.0/4).
  "224.0.0.0/4": {
    inside: ["224.0.0.0", "224.0.0.251", "239.255.255.255"],
    outside: ["223.255.255.255"],
  },

  // IPv6 Special-Purpose Address Registry; their neighbours outside 2000::/3 are reserved (::/8,
  // 100::/8, 4000::/3, …).
  "::1/128": only("::1"),
  "::/128": only("::"),
  "::ffff:0:0/96": only("::ffff:0.0.0.0", "::ffff:8.8.8.8", "::ffff:127.0.0.1", "::ffff:ffff:ffff"),
  "64:ff9b::/96": only("64:ff9b::", "64:ff9b::8.8.8.8", "64:ff9b::ffff:ffff"),
  "64:ff9b:1::/48": only("64:ff9b:1::", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff"),
  "100::/64": only("100::", "100::1", "100::ffff:ffff:ffff:ffff"),
  "100:0:0:1::/64": only("100:0:0:1::", "100::1:ffff:ffff:ffff:ffff"),
  "2001::/23": {
    inside: ["2001:100::1", "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff"],
    outside: ["2001:200::"],
  },
  // Inside 2001::/23: every neighbour is too.
  "2001::/32": only("2001::", "2001::1", "2001:0:ffff:ffff:ffff:ffff:ffff:ffff"),
  "2001:1::1/128": only("2001:1::1"),
  "2001:1::2/128": only("2001:1::2"),
  "2001:1::3/128": only("2001:1::3"),
  "2001:2::/48": only("2001:2::", "2001:2:0:ffff:ffff:ffff:ffff:ffff"),
  "2001:3::/32": only("2001:3::", "2001:3:ffff:ffff:ffff:ffff:ffff:ffff"),
  "2001:4:112::/48": only("2001:4:112::", "2001:4:112:ffff:ffff:ffff:ffff:ffff"),
  "2001:10::/28": only("2001:10::", "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff"),
  "2001:20::/28": only("2001:20::", "2001:2f:ffff:ffff:ffff:ffff:ffff:ffff"),
  "2001:30::/28": only("2001:30::", "2001:3f:ffff:ffff:ffff:ffff:ffff:ffff"),
  "2001:db8::/32": {
    inside: ["2001:db8::", "2001:db8::1", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"],
    outside: ["2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::"],
  },
  "2002::/16": {
    inside: [
      "2002::",
      "2002:5db8:d822::1",
      "2002:7f00:1::",
      "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    ],
    outside: ["2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2003::"],
  },
  "2620:4f:8000::/48": {
    inside: ["2620:4f:8000::", "2620:4f:8000:ffff:ffff:ffff:ffff:ffff"],
    outside: ["2620:4f:7fff:ffff:ffff:ffff:ffff:ffff", "2620:4f:8001::"],
  },
  "3fff::/20": {
    inside: ["3fff::", "3fff::1", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff"],
    outside: ["3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff:1000::"],
  },
  "5f00::/16": only("5f00::", "5f00::1", "5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "fc00::/7": only("fc00::", "fd00::1", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "fe80::/10": only("fe80::", "fe80::1", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),

  // IPv6 Address Space Registry: everything outside global unicast 2000::/3.
  "::/8": only("::2", "::127.0.0.1", "::ffff:0:7f00:1", "ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "100::/8": only("100:0:0:2::", "1ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "200::/7": only("200::", "3ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "400::/6": only("400::", "7ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "800::/5": only("800::", "fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "1000::/4": {
    inside: ["1000::", "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    outside: ["2000::"],
  },
  "4000::/3": {
    inside: ["4000::", "5fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    outside: ["3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  },
  "6000::/3": only("6000::", "7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "8000::/3": only("8000::", "9fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "a000::/3": only("a000::", "bfff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "c000::/3": only("c000::", "dfff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "e000::/4": only("e000::", "efff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "f000::/5": only("f000::", "f7ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "f800::/6": only("f800::", "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "fe00::/9": only("fe00::", "fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "fec0::/10": only("fec0::", "fec0::1", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
  "ff00::/8": only("ff00::", "ff02::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
};

const urlOf = (address: string) =>
  address.includes(":") ? `http://[${address}]/hook` : `http://${address}/hook`;

const stored = async () =>
  ((await env.DB.prepare("SELECT count(*) AS n FROM webhooks").first()) as { n: number }).n;

const REFUSED =
  "url points to a private, loopback or reserved address, which this site does not deliver to.";

const create = (url: string) =>
  api(`${NS}/webhooks`, { headers: ADMIN, json: { url, events: ["*"] } });

describe("the table of special-purpose ranges (src/lib/special-addresses.ts)", () => {
  it("has a case here for each of its rows, and no other", () => {
    expect(Object.keys(CASES).sort()).toEqual(SPECIAL_PURPOSE_RANGES.map((r) => r.range).sort());
  });

  it.each(Object.entries(CASES))("%s: the pure functions", (range, { inside, outside }) => {
    for (const address of inside) {
      expect(specialRangeOf(address), `${address} in ${range}`).not.toBeNull();
      expect(isPrivateTarget(urlOf(address)), address).toBe(true);
    }
    for (const address of outside) {
      expect(specialRangeOf(address), `${address} next to ${range}`).toBeNull();
      expect(isPrivateTarget(urlOf(address)), address).toBe(false);
    }
  });
});

describe("POST /webhooks as the administrator, WEBHOOK_PRIVATE_TARGETS=deny (contract §7.5)", () => {
  it.each(Object.entries(CASES))("%s: inside refused, just outside accepted", async (_, c) => {
    for (const address of c.inside) {
      const res = await create(urlOf(address));
      expect(res.status, `${address}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe("rest_invalid_param");
      expect(res.body.data.params, address).toEqual({ url: REFUSED });
    }
    expect(await stored()).toBe(0);
    for (const address of c.outside) {
      const res = await create(urlOf(address));
      expect(res.status, `${address}: ${res.text}`).toBe(201);
    }
    expect(await stored()).toBe(c.outside.length);
  });
});
