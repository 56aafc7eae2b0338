/**
 * The webhooks' clock: the time they stamp (`webhook-timestamp`, the delivery log's `created_utc`
 * and `next_attempt_utc`, the `timestamp` of a `calendar.changed` body) and measure the outbox's
 * leases and lost windows by. It is `Date.now()`; tests replace `now` to drive retries and
 * `calendar.changed` windows without waiting (test/webhooks/driven.ts), and get the real one back
 * after every test (test/setup.ts). The waits themselves are the queue's (`delaySeconds`); the
 * outbox's `created_gmt`, and so a window's `since_utc`/`until_utc`, are the database's time.
 */
import { DateTime } from "luxon";

/** Milliseconds since the epoch. */
export const clock = { now: (): number => Date.now() };

/**
 * The clock's time as a UTC `DateTime`.
 * @example utcNow().toFormat(WP_FORMAT) // "2026-11-22 11:02:12"
 */
export const utcNow = (): DateTime => DateTime.fromMillis(clock.now(), { zone: "utc" });
