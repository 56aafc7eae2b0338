/**
 * Rate-limit tests against the Workers binding (contract §3). The binding counts per window of
 * `PERIOD_SECONDS` aligned to the wall clock (as Cloudflare's does), so a run that crosses a window
 * boundary starts its count over and would see no 429, about once in fifty runs. And the binding's
 * counts outlive a test, so every run needs a client IP no other test has used.
 */
import { PERIOD_SECONDS } from "../../src/http/rate-limit";

/** Start of this module's IPs in 198.18.0.0/15 (benchmarking addresses): random per test file. */
let next = crypto.getRandomValues(new Uint16Array(1))[0];

/** A client IP that no other test of this run uses (in all likelihood: 65,536 of them). */
export function freshIp(): string {
  next = (next + 1) & 0xffff;
  return `198.18.${next >> 8}.${next & 0xff}`;
}

/**
 * Runs `attempt` with a fresh client IP; if it fails and the rate-limit window changed while it
 * ran, runs it once more with another IP (a failure within one window is a real failure).
 */
export async function inOneWindow(attempt: (ip: string) => Promise<void>): Promise<void> {
  const window = () => Math.floor(Date.now() / (PERIOD_SECONDS * 1000));
  const start = window();
  try {
    await attempt(freshIp());
  } catch (err) {
    if (window() === start) throw err;
    await attempt(freshIp());
  }
}
