/**
 * Re-importing an iCalendar file reverts the overrides it no longer has (contract §7.9): an
 * occurrence the last import changed (a RECURRENCE-ID) shows its series again when the file drops
 * that RECURRENCE-ID — same id, the rule's dates, the series' fields —, and reaches sync clients
 * (`sync_cursor`) and webhooks as an update; an override changed through the API since is left
 * alone, and the report says so. The `revert` argument behind it (contract §7.8) through the API.
 */
import { SELF } from "cloudflare:test";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { FetchLike } from "../../tools/import/client";
import { parseIcs } from "../../tools/import/ics";
import { importEvents } from "../../tools/import/importer";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { drive } from "../webhooks/driven";

const client = {
  base: `${ORIGIN}${NS}`,
  authorization: ADMIN.authorization,
  fetch: ((url, init) => SELF.fetch(url, init)) as FetchLike,
};
const UNTIL = DateTime.fromISO("2027-12-31T23:59:59Z", { zone: "utc" });
const vevent = (...lines: string[]) => ["BEGIN:VEVENT", ...lines, "END:VEVENT"];
const calendar = (...events: string[][]) =>
  `${["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", ...events.flat(), "END:VCALENDAR"].join("\r\n")}\r\n`;

/** Choir, Tuesdays 19:00 in Berlin, six weeks; week 3 moved to Thursday, week 4 retitled. */
const SERIES = vevent(
  "UID:choir@import.test",
  "DTSTART;TZID=Europe/Berlin:20270302T190000",
  "DTEND;TZID=Europe/Berlin:20270302T210000",
  "SUMMARY:Choir",
  "RRULE:FREQ=WEEKLY;COUNT=6",
);
const MOVED = vevent(
  "UID:choir@import.test",
  "RECURRENCE-ID;TZID=Europe/Berlin:20270316T190000",
  "DTSTART;TZID=Europe/Berlin:20270318T180000",
  "DTEND;TZID=Europe/Berlin:20270318T200000",
  "SUMMARY:Choir (Thursday)",
);
const RETITLED = vevent(
  "UID:choir@import.test",
  "RECURRENCE-ID;TZID=Europe/Berlin:20270323T190000",
  "DTSTART;TZID=Europe/Berlin:20270323T190000",
  "DTEND;TZID=Europe/Berlin:20270323T210000",
  "SUMMARY:Choir (guest conductor)",
);

async function run(text: string) {
  const parsed = parseIcs(text, { until: UNTIL });
  return importEvents(client, parsed.events, { retryDelayMs: 1, series: parsed.series });
}

/** The series' events by week: id, title, local start. */
async function weeks(): Promise<Array<{ id: number; title: string; start_date: string }>> {
  const found = await api(`${NS}/events?uid=choir@import.test`, { headers: ADMIN });
  const id = found.body.events[0].series.id;
  const res = await api(`${NS}/events?series=${id}&start_date=2027-03-01&per_page=50`, {
    headers: ADMIN,
  });
  return res.body.events.map((e: any) => ({ id: e.id, title: e.title, start_date: e.start_date }));
}

const cursorOf = async () =>
  Number((await SELF.fetch(`${ORIGIN}${NS}/events?per_page=1`)).headers.get("x-tec-sync-cursor"));

describe("a re-import without a RECURRENCE-ID", () => {
  it("reverts the override the last import wrote; sync clients see it changed", async () => {
    await run(calendar(SERIES, MOVED, RETITLED));
    const before = await weeks();
    expect(before.map((w) => [w.title, w.start_date])).toEqual([
      ["Choir", "2027-03-02 19:00:00"],
      ["Choir", "2027-03-09 19:00:00"],
      ["Choir (Thursday)", "2027-03-18 18:00:00"],
      ["Choir (guest conductor)", "2027-03-23 19:00:00"],
      ["Choir", "2027-03-30 19:00:00"],
      ["Choir", "2027-04-06 19:00:00"],
    ]);
    const cursor = await cursorOf();
    const report = await run(calendar(SERIES, RETITLED));
    expect(report).toMatchObject({ created: 0, updated: 1, unchanged: 2, notes: [] });
    const after = await weeks();
    // Week 3 is the rule's again: its id, Tuesday 19:00, the series' title.
    expect(after[2]).toEqual({
      id: before[2].id,
      title: "Choir",
      start_date: "2027-03-16 19:00:00",
    });
    expect(after[3]).toEqual(before[3]);
    // Sync clients see it changed (not gone).
    const changed = await api(`${NS}/events?sync_cursor=${cursor}&start_date=2027-03-01`);
    expect(changed.body.events.map((e: any) => e.id)).toContain(before[2].id);
    const deleted = await api(`${NS}/deleted?sync_cursor=${cursor}`);
    expect(deleted.body.deleted.map((d: any) => d.id)).not.toContain(before[2].id);
    // The series' JSON-LD no longer excepts week 3.
    const ld = (await api(`${NS}/events/${after[0].id}`)).body.json_ld;
    expect(ld.eventSchedule.exceptDate).toBeUndefined();
    // Unchanged file, nothing more to do.
    expect(await run(calendar(SERIES, RETITLED))).toMatchObject({ updated: 0, unchanged: 2 });
    // No RECURRENCE-ID left at all: the last override goes back too.
    expect(await run(calendar(SERIES))).toMatchObject({ updated: 1, unchanged: 1, notes: [] });
    expect((await weeks()).map((w) => w.title)).toEqual(Array(6).fill("Choir"));
  });

  it("leaves an override changed through the API since, and says so", async () => {
    await run(calendar(SERIES, MOVED, RETITLED));
    const before = await weeks();
    const edited = await api(`${NS}/events/${before[2].id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { title: "Choir (Thursday, room 2)" },
    });
    expect(edited.status).toBe(200);
    const report = await run(calendar(SERIES, RETITLED));
    expect(report).toMatchObject({ updated: 0, skipped: 1 });
    expect(report.notes).toEqual([
      expect.objectContaining({
        uid: "choir@import.test",
        message: expect.stringContaining(`occurrence ${before[2].id} (2027-03-16 19:00:00)`),
      }),
    ]);
    expect((await weeks())[2]).toMatchObject({ title: "Choir (Thursday, room 2)" });
  });
});

describe("revert through the API (contract §7.8)", () => {
  it("makes any override its occurrence again; refuses it beside fields; a wrong uid is a 400", async () => {
    await run(calendar(SERIES, MOVED));
    const third = (await weeks())[2];
    const mixed = await api(`${NS}/events/${third.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { revert: true, title: "x" },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.data.params).toHaveProperty("revert");
    const other = await api(`${NS}/events/${third.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { revert: true, uid: "someone@else.test" },
    });
    expect(other.status).toBe(400);
    expect(other.body.data.params).toHaveProperty("uid");
    // An import's revert of an override changed since: 409, nothing changes.
    await api(`${NS}/events/${third.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { title: "Mine" },
    });
    const refused = await api(`/de${NS}/events/${third.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { revert: true, uid: "choir@import.test" },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: "rest_write_conflict",
      message: `Der Termin ${third.id} wurde geändert, seit der Import seiner Serie ihn geschrieben hat; er bleibt, wie er ist.`,
      data: { status: 409, params: ["revert"] },
    });
    // Without the uid (an editor's own revert): reverted, and webhooks get its event.updated.
    const hooks = drive();
    await hooks.register({ url: "https://hooks.test/a", events: ["*"] });
    const res = await hooks.api(`${NS}/events/${third.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { revert: true },
    });
    expect(res.status).toBe(200);
    const sent = hooks.queue.pending.flatMap((q) => ("body" in q.body ? [q.body] : []));
    expect(sent.map((m) => [m.type, JSON.parse(m.body).data.id])).toContainEqual([
      "event.updated",
      third.id,
    ]);
    expect(res.body).toMatchObject({
      id: third.id,
      title: "Choir",
      start_date: "2027-03-16 19:00:00",
    });
    // Reverting a plain occurrence changes nothing.
    const again = await api(`${NS}/events/${third.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { revert: true },
    });
    expect(again.status).toBe(200);
    expect(again.body.modified).toBe(res.body.modified);
  });
});
