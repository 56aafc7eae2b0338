/**
 * An occurrence's single GET from its series' stored `occurrenceSingle` text (src/events/rendering/format.ts,
 * contract §7.8): byte for byte what the full path serializes, `json_ld` dates included — offsets on
 * either side of a DST change, fixed offsets, UTC, all-day series — in one round trip; a protected
 * series' occurrences still answer 403; and the stored text is what the answer is made of.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/db/client";
import { renderStale } from "../../src/events/rendering/store";
import { parseSettings } from "../../src/settings";
import { api, NS, ORIGIN, roundTrips } from "../support/api";
import { createEvent, listed } from "./support";

const OFF = { ...env, READ_CACHE: "off" };
const settings = parseSettings(env);

/** Renders everything that is stale (what writes do after their answer). */
async function renderAll(): Promise<void> {
  while ((await renderStale(openDb(env.DB, { write: true }).db, settings)) > 0);
}

/** Weekly series across the spring and autumn DST changes, in zones of every kind. */
async function calendar() {
  const weekly = (title: string, timezone: string, more: Record<string, unknown> = {}) =>
    createEvent({
      title,
      timezone,
      start_date: "2027-03-20 19:00:00",
      end_date: "2027-03-20 21:30:00",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3", "RDATE:20271030T190000,20271113T190000"],
      cost: "10",
      venue: { venue: "Hall" },
      ...more,
    });
  return [
    await weekly("Berlin", "Europe/Berlin"),
    await weekly("New York", "America/New_York"),
    await weekly("Kolkata", "Asia/Kolkata"),
    // Zero offset in a zone that is not fixed: "+00:00", not "Z".
    await weekly("London", "Europe/London"),
    await weekly("Fixed", "UTC-5:30"),
    await weekly("Utc", "UTC"),
    await weekly("All day", "Europe/Berlin", {
      all_day: true,
      start_date: "2027-03-20 00:00:00",
      end_date: "2027-03-21 23:59:59",
    }),
  ];
}

describe("an occurrence's single GET from the stored rendering", () => {
  it("answers byte for byte as the full path, json_ld's dates in each occurrence's offset", async () => {
    const series = await calendar();
    await renderAll();
    const occurrences = (await listed()).filter((e) => !series.some((s) => s.id === e.id));
    expect(occurrences.length).toBe(series.length * 4);
    const offsets = new Set<string>();
    for (const e of occurrences) {
      for (const pass of [1, 2]) {
        const res = await api(`${NS}/events/${e.id}?pass=${pass}`);
        expect(res.status, `${e.title} ${e.start_date}`).toBe(200);
        expect(roundTrips(res)).toBe(1);
        const full = await api(`${NS}/events/${e.id}?pass=${pass}`, {}, OFF);
        expect(res.text, `${e.title} ${e.start_date} (${pass})`).toBe(full.text);
      }
      const { json_ld } = (await api(`${NS}/events/${e.id}`)).body;
      expect(json_ld.url).toBe(e.url);
      offsets.add(`${e.title} ${json_ld.startDate.slice(10)}`);
    }
    // Each kind of zone wrote what `isoIn` writes (read here from the full path's answers).
    expect([...offsets].sort()).toEqual([
      "All day ",
      "Berlin T19:00:00+01:00",
      "Berlin T19:00:00+02:00",
      "Fixed T19:00:00-05:30",
      "Kolkata T19:00:00+05:30",
      "London T19:00:00+00:00",
      "London T19:00:00+01:00",
      "New York T19:00:00-04:00",
      "New York T19:00:00-05:00",
      "Utc T19:00:00Z",
    ]);
  });

  it("is what the answer is made of, and a protected series' occurrences still answer 403", async () => {
    const [berlin] = await calendar();
    const locked = await createEvent({
      title: "Locked",
      start_date: "2027-03-21 19:00:00",
      end_date: "2027-03-21 20:00:00",
      password: "s3cret",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=2"],
    });
    await renderAll();
    const [, second] = await listed(`series=${berlin.id}`);
    await env.DB.prepare(
      'UPDATE event_renderings SET occurrence_single = \'{"forged":"\u0001S \u0001OI \u0001OP"}\' WHERE event_id = ?',
    )
      .bind(berlin.id)
      .run();
    const forged = await api(`${NS}/events/${second.id}?pass=forged`);
    expect(forged.body).toEqual({ forged: `${ORIGIN} ${second.id} 2027-03-27T19:00:00+01:00` });
    // The series' own single GET is its own text, not its occurrences'.
    expect((await api(`${NS}/events/${berlin.id}?pass=forged`)).body.forged).toBeUndefined();
    const [, lockedSecond] = await listed(`series=${locked.id}`);
    const refused = await api(`${NS}/events/${lockedSecond.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("event-password-protected");
    expect(refused.text).toBe((await api(`${NS}/events/${lockedSecond.id}`, {}, OFF)).text);
    const opened = await api(`${NS}/events/${lockedSecond.id}?password=s3cret`);
    expect(opened.status).toBe(200);
    expect(opened.body.json_ld.startDate).toBe("2027-03-28T19:00:00Z");
  });
});
