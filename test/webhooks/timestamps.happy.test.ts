/**
 * Every webhook type says `timestamp` the same way (contract §7.5): ISO 8601 in UTC to the second,
 * with `Z` — object changes, `calendar.changed` and pings alike, whatever the clock's milliseconds.
 */
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { calendarBody, isoOf, pingBody } from "../../src/webhooks/messages";

const SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe("webhook timestamps", () => {
  it("are ISO 8601 to the second for every type", () => {
    const now = DateTime.fromISO("2026-11-22T11:02:12.345+01:00");
    const calendar = JSON.parse(
      calendarBody(
        { kinds: { event: 1 }, sinceGmt: "2026-11-22 10:01:00", untilGmt: "2026-11-22 10:02:12" },
        now,
      ),
    );
    const ping = JSON.parse(
      pingBody({ id: 1, status: "active", modifiedGmt: "2026-11-22 10:00:00" }, "https://x/", now),
    );
    expect(calendar.timestamp).toBe("2026-11-22T10:02:12Z");
    expect(ping.timestamp).toBe("2026-11-22T10:02:12Z");
    // Object changes stamp their outbox time, stored to the second.
    expect(isoOf("2026-11-22 10:02:12")).toBe("2026-11-22T10:02:12Z");
    for (const t of [calendar.timestamp, ping.timestamp]) expect(t).toMatch(SECONDS);
  });
});
