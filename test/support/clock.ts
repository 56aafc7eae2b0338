/**
 * The clock in tests: answers whose defaults read it, and the read cache's clock.
 *
 * - The argument defaults that read the clock (the default `end_date` is "now + 24 months" to the
 *   second, tec-reference §2.1) differ between two requests that straddle a second: compare answers
 *   with those replaced (`withoutClock`).
 * - The read cache's clock (src/read-cache/version.ts `clock`) decides how long the isolate trusts the
 *   content version it read (`CONTENT_VERSION_TTL_MS`): `stopClock` drives it without waiting. The
 *   real clock comes back after every test (test/setup.ts).
 */
import { clock } from "../../src/read-cache/version";

const CLOCK_DEFAULT = /"default":"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}"/g;

/** `value` (any JSON) with every `Y-m-d H:i:s` default replaced by `<now>`. */
export function withoutClock<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(CLOCK_DEFAULT, '"default":"<now>"')) as T;
}

/** Stops the read cache's clock at the current time; `advance` moves it on. */
export function stopClock(): { advance: (ms: number) => void } {
  let now = Date.now();
  clock.now = () => now;
  return {
    advance: (ms) => {
      now += ms;
    },
  };
}
