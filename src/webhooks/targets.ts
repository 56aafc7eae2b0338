/**
 * Which webhook targets are refused unless `WEBHOOK_PRIVATE_TARGETS=allow` (contract §7.5): URLs
 * whose host is not a public internet host as src/lib/special-addresses.ts judges it — an address
 * in any IANA special-purpose or reserved range (its one table, which the image URL check shares),
 * or a name that means this machine or a local network. Checked when a webhook is created or
 * changed, and again before each delivery (the setting may have changed since). The check reads
 * the URL only (a Worker cannot resolve names): a name that resolves to a private address
 * (`127.0.0.1.nip.io`, `localtest.me`) is not caught here — on Cloudflare such a fetch leaves
 * through Cloudflare's network and cannot reach a private network; under `wrangler dev` it can
 * (README, Webhooks).
 */
import { isPublicHost } from "../lib/special-addresses";

/**
 * Whether the URL's host is private, loopback, reserved or otherwise not a public internet host.
 * @returns true too for text that is not a URL.
 * @example isPrivateTarget("http://127.0.0.1:9000/hook") // true
 * @example isPrivateTarget("http://198.51.100.7/hook") // true (documentation, TEST-NET-2)
 * @example isPrivateTarget("https://hooks.example.com/build") // false
 */
export function isPrivateTarget(url: string): boolean {
  try {
    return !isPublicHost(new URL(url).hostname);
  } catch {
    return true;
  }
}
