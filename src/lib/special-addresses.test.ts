import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import {
  isPublicHost,
  REGISTRIES,
  SPECIAL_PURPOSE_RANGES,
  specialRangeOf,
} from "./special-addresses";

describe("SPECIAL_PURPOSE_RANGES", () => {
  it("holds each row once, as a network address and prefix, from a named registry", () => {
    const ranges = SPECIAL_PURPOSE_RANGES.map((r) => r.range);
    expect(new Set(ranges).size).toBe(ranges.length);
    for (const r of SPECIAL_PURPOSE_RANGES) {
      const [address, bits] = ipaddr.parseCIDR(r.range);
      const network =
        address.kind() === "ipv4"
          ? ipaddr.IPv4.networkAddressFromCIDR(r.range)
          : ipaddr.IPv6.networkAddressFromCIDR(r.range);
      expect(address.toString(), r.range).toBe(network.toString());
      expect(bits, r.range).toBeGreaterThan(0);
      expect(REGISTRIES[r.registry].url).toMatch(/^https:\/\/www\.iana\.org\/assignments\//);
      expect(r.rfc).toMatch(/^RFC \d+/);
    }
    // Both special-purpose registries whole (25 entries each; 192.0.0.170 and .171 are one entry).
    expect(SPECIAL_PURPOSE_RANGES.filter((r) => r.registry === "ipv4Special")).toHaveLength(26);
    expect(SPECIAL_PURPOSE_RANGES.filter((r) => r.registry === "ipv6Special")).toHaveLength(25);
  });

  it("leaves nothing of IPv6 outside global unicast 2000::/3 public", () => {
    for (let first = 0; first < 0x10000; first += 0x40)
      if (first < 0x2000 || first >= 0x4000)
        expect(specialRangeOf(`${first.toString(16)}::1`), first.toString(16)).not.toBeNull();
  });
});

describe("specialRangeOf", () => {
  it("names the narrowest row an address lies in", () => {
    expect(specialRangeOf("192.0.0.9")?.name).toBe("Port Control Protocol Anycast");
    expect(specialRangeOf("192.0.0.200")?.name).toBe("IETF Protocol Assignments");
    expect(specialRangeOf("2001::1")?.name).toBe("TEREDO");
    expect(specialRangeOf("2001:1::1")?.range).toBe("2001:1::1/128");
    expect(specialRangeOf("[::1]")?.name).toBe("Loopback Address");
    expect(specialRangeOf("64:ff9b::1")?.range).toBe("64:ff9b::/96");
    expect(specialRangeOf("::")?.range).toBe("::/128");
  });

  it("is null for public addresses and for what is not an address", () => {
    for (const text of ["8.8.8.8", "2606:4700::1111", "[2a00:1450::1]", "example.com", "1.2.3", ""])
      expect(specialRangeOf(text), text).toBeNull();
  });
});

describe("isPublicHost (URL.hostname)", () => {
  it.each([
    ["[::ffff:a00:1]", false],
    ["[fe80::1]", false],
    ["[not:an:address]", false],
    ["127.0.0.1", false],
    ["198.18.0.1", false],
    ["localhost", false],
    ["localhost.", false],
    ["api.localhost", false],
    ["printer.local", false],
    ["db.internal", false],
    ["router.home.arpa", false],
    ["intranet", false],
    ["", false],
    ["hooks.example.com", true],
    ["hooks.example.com.", true],
    ["8.8.8.8", true],
    ["[2606:4700::1111]", true],
  ])("%s → %s", (host, expected) => {
    expect(isPublicHost(host)).toBe(expected);
  });
});
