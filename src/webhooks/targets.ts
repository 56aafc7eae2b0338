/**
 * Which webhook targets are refused unless `WEBHOOK_PRIVATE_TARGETS=allow`: URLs whose
 * host is a loopback, private, link-local, shared (CGNAT), unspecified, multicast or reserved
 * address, or a name that means this machine (`localhost`, `*.localhost`) or an internal one
 * (`*.local`, `*.internal`, single-label names). IPv6 forms that carry an IPv4 address (mapped,
 * compatible, translated, 6to4) are judged by it; translators and tunnels to IPv4 (NAT64, Teredo)
 * are refused. The check reads the URL only (a Worker cannot resolve names): a
 * name that resolves to a private address (`127.0.0.1.nip.io`, `localtest.me`) is not caught here —
 * on Cloudflare such a fetch leaves through Cloudflare's network and cannot reach a private network;
 * under `wrangler dev` it can (README, Webhooks).
 */

/** Dotted IPv4 → 32-bit number, or null. The URL parser already normalized `0x7f.1` forms. */
function ipv4(host: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

/** IPv4 ranges that are not the public internet: [network, prefix length]. */
const PRIVATE_V4: Array<[string, number]> = [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // shared address space (CGNAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata endpoints)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function privateV4(address: number): boolean {
  return PRIVATE_V4.some(([net, bits]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (address & mask) >>> 0 === (ipv4(net)! & mask) >>> 0;
  });
}

/** Expands an IPv6 address (no brackets) to eight 16-bit groups, or null. */
function ipv6Groups(host: string): number[] | null {
  if (!host.includes(":")) return null;
  let text = host;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = ipv4(tail[1]);
    if (v4 === null) return null;
    text = `${text.slice(0, -tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const after = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - after.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill("0"), ...after];
  const numbers = all.map((g) =>
    /^[0-9a-f]{1,4}$/i.test(g) ? Number.parseInt(g, 16) : Number.NaN,
  );
  return numbers.some(Number.isNaN) ? null : numbers;
}

/** The IPv4 address in two 16-bit groups. */
const v4Of = (high: number, low: number) => ((high << 16) | low) >>> 0;

/**
 * Whether an IPv6 address is not a public target, including the forms that carry an IPv4 address or
 * lead to one through a translator, judged by that IPv4 address or refused whole.
 */
function privateV6(g: number[]): boolean {
  if (g.slice(0, 7).every((x) => x === 0) && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judged as the IPv4 address.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0))
    return privateV4(v4Of(g[6], g[7]));
  // IPv4-translated (::ffff:0:a.b.c.d, SIIT): the same.
  if (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0)
    return privateV4(v4Of(g[6], g[7]));
  // 6to4 (2002:aabb:ccdd::/48): relays deliver to the IPv4 address in groups 1 and 2.
  if (g[0] === 0x2002) return privateV4(v4Of(g[1], g[2]));
  // Teredo (2001:0::/32): a tunnel to an IPv4 client behind NAT, never a webhook receiver.
  if (g[0] === 0x2001 && g[1] === 0) return true;
  // NAT64 (64:ff9b::/96, and the local-use 64:ff9b:1::/48): a translator to any IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b) return true;
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return true; // site-local fec0::/10 (deprecated, private)
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/**
 * Whether the URL's host is private, loopback or otherwise not a public internet host.
 * @example isPrivateTarget("http://127.0.0.1:9000/hook") // true
 * @example isPrivateTarget("https://hooks.example.com/build") // false
 */
export function isPrivateTarget(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return true;
  }
  if (host.startsWith("[") && host.endsWith("]")) {
    const groups = ipv6Groups(host.slice(1, -1));
    return groups === null || privateV6(groups);
  }
  const v4 = ipv4(host);
  if (v4 !== null) return privateV4(v4);
  const name = host.replace(/\.$/, "");
  return (
    !name.includes(".") ||
    name === "localhost" ||
    /\.(localhost|local|internal|home\.arpa)$/.test(name)
  );
}
