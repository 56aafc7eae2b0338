/**
 * Which hosts are not the public internet: the one judgement behind refused webhook targets
 * (contract §7.5, src/webhooks/targets.ts) and image URLs the worker will not request
 * (tec-reference §3 `is_image`, src/media/url-check.ts).
 *
 * An IP address is refused when it lies in any row of `SPECIAL_PURPOSE_RANGES`: every entry of
 * IANA's IPv4 and IPv6 Special-Purpose Address Registries (whatever their "globally reachable"
 * column says: none is a place a calendar delivers to or fetches images from), IPv4 multicast, and
 * every IPv6 block IANA's IPv6 Address Space Registry does not give to global unicast (reserved by
 * the IETF, multicast). So the IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:0:0/96`,
 * -compatible `::/96`, -translated `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`,
 * Teredo `2001::/32`) are refused whole, whatever IPv4 address they carry. Names are refused when
 * they mean this machine or a local network: `localhost` and `*.localhost`, `*.local`,
 * `*.internal`, `*.home.arpa`, and single-label names. A name is not resolved (a Worker cannot):
 * one that resolves to a private address passes here (README, Webhooks).
 *
 * CIDR matching is `ipaddr.js`'s; the rows are data, one per registry entry, with the registry
 * that lists them (`REGISTRIES`: its address and the date of the version copied here).
 */
import ipaddr from "ipaddr.js";

/** The IANA registries the rows come from, as last updated when they were copied (2026-11-29). */
export const REGISTRIES = {
  ipv4Special: {
    name: "IANA IPv4 Special-Purpose Address Registry",
    url: "https://www.iana.org/assignments/iana-ipv4-special-registry/iana-ipv4-special-registry.xhtml",
    updated: "2025-10-09",
  },
  ipv6Special: {
    name: "IANA IPv6 Special-Purpose Address Registry",
    url: "https://www.iana.org/assignments/iana-ipv6-special-registry/iana-ipv6-special-registry.xhtml",
    updated: "2025-10-09",
  },
  ipv4Space: {
    name: "IANA IPv4 Address Space Registry",
    url: "https://www.iana.org/assignments/ipv4-address-space/ipv4-address-space.xhtml",
    updated: "2025-10-10",
  },
  ipv6Space: {
    name: "IANA IPv6 Address Space Registry",
    url: "https://www.iana.org/assignments/ipv6-address-space/ipv6-address-space.xhtml",
    updated: "2025-10-23",
  },
} as const;

/** One refused range: a registry entry as the registry names it. */
export interface SpecialRange {
  /** The block in CIDR notation (a registry entry of two addresses is two rows). */
  range: string;
  /** The registry's name for it. */
  name: string;
  /** The documents the registry cites. */
  rfc: string;
  registry: keyof typeof REGISTRIES;
}

const row =
  (registry: keyof typeof REGISTRIES) =>
  (range: string, name: string, rfc: string): SpecialRange => ({ range, name, rfc, registry });
const v4Special = row("ipv4Special");
const v6Special = row("ipv6Special");
const v4Space = row("ipv4Space");
const v6Space = row("ipv6Space");

/** Every range a public host is not in (see the file comment), in the registries' order. */
export const SPECIAL_PURPOSE_RANGES: readonly SpecialRange[] = [
  v4Special("0.0.0.0/8", '"This network"', "RFC 791 §3.2"),
  v4Special("0.0.0.0/32", '"This host on this network"', "RFC 1122 §3.2.1.3"),
  v4Special("10.0.0.0/8", "Private-Use", "RFC 1918"),
  v4Special("100.64.0.0/10", "Shared Address Space", "RFC 6598"),
  v4Special("127.0.0.0/8", "Loopback", "RFC 1122 §3.2.1.3"),
  v4Special("169.254.0.0/16", "Link Local", "RFC 3927"),
  v4Special("172.16.0.0/12", "Private-Use", "RFC 1918"),
  v4Special("192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890 §2.1"),
  v4Special("192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335"),
  v4Special("192.0.0.8/32", "IPv4 dummy address", "RFC 7600"),
  v4Special("192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723"),
  v4Special("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155"),
  v4Special("192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2"),
  v4Special("192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2"),
  v4Special("192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737"),
  v4Special("192.31.196.0/24", "AS112-v4", "RFC 7535"),
  v4Special("192.52.193.0/24", "AMT", "RFC 7450"),
  v4Special("192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526"),
  v4Special("192.88.99.2/32", "6a44-relay anycast address", "RFC 6751"),
  v4Special("192.168.0.0/16", "Private-Use", "RFC 1918"),
  v4Special("192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534"),
  v4Special("198.18.0.0/15", "Benchmarking", "RFC 2544"),
  v4Special("198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737"),
  v4Special("203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737"),
  v4Special("240.0.0.0/4", "Reserved", "RFC 1112 §4"),
  v4Special("255.255.255.255/32", "Limited Broadcast", "RFC 8190, RFC 919 §7"),
  // 224/8 … 239/8 of the address space registry, each "Multicast".
  v4Space("224.0.0.0/4", "Multicast", "RFC 5771"),

  v6Special("::1/128", "Loopback Address", "RFC 4291"),
  v6Special("::/128", "Unspecified Address", "RFC 4291"),
  v6Special("::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291"),
  v6Special("64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC 6052"),
  v6Special("64:ff9b:1::/48", "IPv4-IPv6 Translat.", "RFC 8215"),
  v6Special("100::/64", "Discard-Only Address Block", "RFC 6666"),
  v6Special("100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC 9780"),
  v6Special("2001::/23", "IETF Protocol Assignments", "RFC 2928"),
  v6Special("2001::/32", "TEREDO", "RFC 4380, RFC 8190"),
  v6Special("2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723"),
  v6Special("2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155"),
  v6Special("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC 9665"),
  v6Special("2001:2::/48", "Benchmarking", "RFC 5180"),
  v6Special("2001:3::/32", "AMT", "RFC 7450"),
  v6Special("2001:4:112::/48", "AS112-v6", "RFC 7535"),
  v6Special("2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843"),
  v6Special("2001:20::/28", "ORCHIDv2", "RFC 7343"),
  v6Special("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374"),
  v6Special("2001:db8::/32", "Documentation", "RFC 3849"),
  v6Special("2002::/16", "6to4", "RFC 3056"),
  v6Special("2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534"),
  v6Special("3fff::/20", "Documentation", "RFC 9637"),
  v6Special("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602"),
  v6Special("fc00::/7", "Unique-Local", "RFC 4193, RFC 8190"),
  v6Special("fe80::/10", "Link-Local Unicast", "RFC 4291"),
  // The address space registry's blocks outside global unicast (2000::/3) that the rows above do
  // not already name: reserved by the IETF (IPv4-compatible ::/96 lies in ::/8), and multicast.
  v6Space("::/8", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("100::/8", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("200::/7", "Reserved by IETF", "RFC 4048"),
  v6Space("400::/6", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("800::/5", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("1000::/4", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("4000::/3", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("6000::/3", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("8000::/3", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("a000::/3", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("c000::/3", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("e000::/4", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("f000::/5", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("f800::/6", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("fe00::/9", "Reserved by IETF", "RFC 3513, RFC 4291"),
  v6Space("fec0::/10", "Reserved by IETF (deprecated site-local)", "RFC 3879"),
  v6Space("ff00::/8", "Multicast", "RFC 3513, RFC 4291"),
];

/** The rows parsed once, most specific first (so a match names the narrowest entry). */
const PARSED = SPECIAL_PURPOSE_RANGES.map((r) => ({
  row: r,
  cidr: ipaddr.parseCIDR(r.range),
})).sort((a, b) => b.cidr[1] - a.cidr[1]);

/** An IP literal as `URL.hostname` writes it (IPv6 in brackets), or null for a name. */
function addressOf(host: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (host.startsWith("[") && host.endsWith("]")) {
    const inner = host.slice(1, -1);
    return ipaddr.IPv6.isValid(inner) ? ipaddr.IPv6.parse(inner) : null;
  }
  return ipaddr.IPv4.isValidFourPartDecimal(host) ? ipaddr.IPv4.parse(host) : null;
}

/**
 * The narrowest row of `SPECIAL_PURPOSE_RANGES` an IP address lies in, or null for a public one.
 * @param address an IPv4 address in dotted decimal, or an IPv6 address with or without brackets.
 * @returns null too for text that is not an IP address.
 * @example specialRangeOf("192.0.2.1")?.name // "Documentation (TEST-NET-1)"
 * @example specialRangeOf("[2606:4700::1111]") // null
 */
export function specialRangeOf(address: string): SpecialRange | null {
  const parsed = addressOf(
    address.includes(":") && !address.startsWith("[") ? `[${address}]` : address,
  );
  if (!parsed) return null;
  const hit = PARSED.find(({ cidr }) => parsed.kind() === cidr[0].kind() && parsed.match(cidr));
  return hit?.row ?? null;
}

/**
 * Whether a URL's host is a public internet host (see the file comment for what is not).
 * @param hostname `URL.hostname`: lower case, IPv4 normalized to dotted decimal (`0x7f.1` is
 *   `127.0.0.1` by then), IPv6 in brackets.
 * @example isPublicHost(new URL("http://[2001:db8::1]/").hostname) // false
 * @example isPublicHost("hooks.example.com") // true
 */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host.startsWith("[")) {
    const address = addressOf(host);
    return address !== null && specialRangeOf(host) === null;
  }
  if (addressOf(host)) return specialRangeOf(host) === null;
  const name = host.replace(/\.$/, "");
  return (
    name.includes(".") &&
    name !== "localhost" &&
    !/\.(localhost|local|internal|home\.arpa)$/.test(name)
  );
}
