/**
 * Sync tells everything (contract §7.3): an anonymous mirror and an editor's, kept by cursors alone
 * (test/sync/mirror.ts), equal a fresh walk of the lists after every kind of change — and
 * `/deleted` says, for each audience, exactly what left its lists and why.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { forgetVersion } from "../../src/read-cache/version";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { comparable, fullWalk, incremental, type Mirror } from "./mirror";

/** A write as the administrator; fails the test unless it succeeded. */
async function write(method: string, path: string, json?: unknown) {
  const res = await api(`${NS}${path}`, { method, json, headers: ADMIN });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** A write straight into D1, as another isolate's (or a script's) would: the triggers log it. */
async function elsewhere(sql: string, ...values: unknown[]) {
  await env.DB.prepare(sql)
    .bind(...values)
    .run();
  forgetVersion();
}

let anonymous: Mirror;
let editor: Mirror;
let cal: Record<string, number>;

beforeEach(async () => {
  const v1 = await write("POST", "/venues", { venue: "Blue Hall" });
  const v2 = await write("POST", "/venues", { venue: "Red Barn" });
  const o1 = await write("POST", "/organizers", { organizer: "Jazz Club" });
  const c1 = await write("POST", "/categories", { name: "Music" });
  const c2 = await write("POST", "/categories", { name: "Food" });
  const t1 = await write("POST", "/tags", { name: "Jazz" });
  const event = (title: string, extra: Record<string, unknown> = {}) =>
    write("POST", "/events", {
      title,
      start_date: `${day(10)}`,
      end_date: `${day(10, "12:00:00")}`,
      ...extra,
    });
  const e1 = await event("Concert", {
    venue: v1.id,
    organizer: [o1.id],
    categories: [c1.id, c2.id],
    tags: [t1.id],
  });
  const e2 = await event("Market", { venue: v2.id });
  const e3 = await event("Plans", { status: "draft" });
  const s = await event("Weekly", { recurrence: ["RRULE:FREQ=WEEKLY;COUNT=4"] });
  const weeks = await api(`${NS}/events?series=${s.id}&start_date=1970-01-01&end_date=2999-12-31`);
  const [, w2, w3] = weeks.body.events.map((e: any) => e.id);
  cal = { v1: v1.id, v2: v2.id, o1: o1.id, c1: c1.id, c2: c2.id, t1: t1.id };
  Object.assign(cal, { e1: e1.id, e2: e2.id, e3: e3.id, s: s.id, w2, w3 });
  anonymous = await fullWalk();
  editor = await fullWalk(ADMIN);
});

/** One incremental run of both mirrors, each compared with a fresh walk; what each run saw. */
async function syncBoth() {
  const runs = { anonymous: await incremental(anonymous), editor: await incremental(editor) };
  expect(comparable(anonymous.items)).toEqual(comparable((await fullWalk()).items));
  expect(comparable(editor.items)).toEqual(comparable((await fullWalk(ADMIN)).items));
  /** `[type, id, status]` of the log entries each audience got. */
  const log = (run: Awaited<ReturnType<typeof incremental>>) =>
    run.deleted.map((d: any) => [d.type, d.id, d.status]);
  return { anonymous: log(runs.anonymous), editor: log(runs.editor), runs };
}

describe("an anonymous mirror and an editor's follow every kind of change by cursors alone", () => {
  it("events: edited, trashed, restored, unpublished, made private or scheduled, hidden, protected, deleted", async () => {
    await write("PATCH", `/events/${cal.e1}`, { title: "Concert, moved" });
    let r = await syncBoth();
    expect(r.runs.anonymous.upserted.events).toEqual([cal.e1]);
    expect(r.anonymous).toEqual([]);

    await write("DELETE", `/events/${cal.e2}`);
    r = await syncBoth();
    expect(r.anonymous).toEqual([["event", cal.e2, "trash"]]);
    expect(r.editor).toEqual([["event", cal.e2, "trash"]]);

    await write("PATCH", `/events/${cal.e2}`, { status: "publish" });
    r = await syncBoth();
    expect(r.runs.anonymous.upserted.events).toEqual([cal.e2]);
    expect(r.anonymous).toEqual([]);

    // Unpublished: gone for the public; editors still list it (no entry for them).
    await write("PATCH", `/events/${cal.e1}`, { status: "draft" });
    r = await syncBoth();
    expect(r.anonymous).toEqual([["event", cal.e1, "unpublished"]]);
    expect(r.editor).toEqual([]);
    expect(r.runs.editor.upserted.events).toEqual([cal.e1]);

    await write("PATCH", `/events/${cal.e1}`, { status: "private" });
    r = await syncBoth();
    // The public mirror dropped it already: nothing new to tell, the entry now says why.
    expect(r.anonymous).toEqual([]);
    const log = await api(`${NS}/deleted?type=event`);
    expect(log.body.deleted.map((d: any) => [d.id, d.status])).toEqual([[cal.e1, "private"]]);

    await write("PATCH", `/events/${cal.e1}`, { status: "publish" });
    await write("PATCH", `/events/${cal.e2}`, { status: "future" });
    r = await syncBoth();
    expect(r.anonymous).toEqual([["event", cal.e2, "unpublished"]]);
    expect(r.runs.anonymous.upserted.events).toEqual([cal.e1]);

    // Hidden: editors lose it now; the public mirror lost it when it was scheduled.
    await write("PATCH", `/events/${cal.e2}`, { status: "publish", hide_from_listings: true });
    r = await syncBoth();
    expect(r.anonymous).toEqual([]);
    expect(r.editor).toEqual([["event", cal.e2, "hidden"]]);
    // The public log says why now (e1, published again, has left it).
    expect((await api(`${NS}/deleted?type=event`)).body.deleted).toMatchObject([
      { id: cal.e2, status: "hidden" },
    ]);

    await write("PATCH", `/events/${cal.e2}`, { hide_from_listings: false });
    r = await syncBoth();
    expect(r.anonymous).toEqual([]);
    expect(r.runs.anonymous.upserted.events).toEqual([cal.e2]);

    // Protected: still listed, blanked; the mirrors hold the blanked copy, not the old content.
    await write("PATCH", `/events/${cal.e1}`, { password: "s3cret" });
    r = await syncBoth();
    expect(r.anonymous).toEqual([["event", cal.e1, "protected"]]);
    expect(r.editor).toEqual([["event", cal.e1, "protected"]]);
    expect((anonymous.items.events.get(cal.e1) as any).description).toBe("");

    await write("PATCH", `/events/${cal.e1}`, { password: "" });
    r = await syncBoth();
    expect(r.anonymous).toEqual([]);

    await write("DELETE", `/events/${cal.e2}?force=true`);
    await write("DELETE", `/events/${cal.e3}?force=true`);
    r = await syncBoth();
    expect(r.anonymous).toEqual([["event", cal.e2, "deleted"]]);
    // A draft never was public: only editors learn of it.
    expect(r.editor).toEqual([
      ["event", cal.e2, "deleted"],
      ["event", cal.e3, "deleted"],
    ]);
  });

  it("venues, organizers, categories and tags; and what events show of them", async () => {
    await write("PATCH", `/venues/${cal.v1}`, { city: "Springfield" });
    let r = await syncBoth();
    expect(r.runs.anonymous.upserted.venues).toEqual([cal.v1]);
    expect(r.runs.anonymous.upserted.events).toEqual([cal.e1]);

    await write("PATCH", `/venues/${cal.v2}`, { status: "draft" });
    r = await syncBoth();
    expect(r.anonymous).toEqual([["venue", cal.v2, "unpublished"]]);
    expect(r.editor).toEqual([]);

    await write("DELETE", `/venues/${cal.v2}`);
    r = await syncBoth();
    // Editors lose it now; the public mirror lost it before.
    expect(r.editor).toEqual([["venue", cal.v2, "trash"]]);
    expect(r.anonymous).toEqual([]);

    // A password set elsewhere (there is no API for linked posts' passwords): blanked for all.
    await elsewhere("UPDATE organizers SET password_digest = 'x' WHERE id = ?", cal.o1);
    r = await syncBoth();
    expect(r.anonymous).toEqual([["organizer", cal.o1, "protected"]]);

    await write("DELETE", `/categories/${cal.c2}`);
    await write("PATCH", `/tags/${cal.t1}`, { name: "Smooth Jazz" });
    r = await syncBoth();
    expect(r.anonymous).toEqual([["category", cal.c2, "deleted"]]);
    expect(r.editor).toEqual([["category", cal.c2, "deleted"]]);
    expect(r.runs.anonymous.upserted.tags).toEqual([cal.t1]);
    expect(r.runs.anonymous.upserted.events).toEqual([cal.e1]);
  });

  it("recurring series: cancelled occurrences and removed overrides, as Google reports them", async () => {
    // One occurrence cancelled (an EXDATE), another changed on its own (an override), then removed.
    await write("DELETE", `/events/${cal.w2}`);
    await write("PATCH", `/events/${cal.w3}`, { title: "Weekly, special" });
    let r = await syncBoth();
    expect(r.anonymous).toEqual([["event", cal.w2, "cancelled"]]);
    expect(r.editor).toEqual([["event", cal.w2, "cancelled"]]);
    expect(r.runs.anonymous.deleted[0].series).toEqual({
      id: cal.s,
      occurrence_start: expect.stringMatching(/^\d{4}-\d{2}-\d{2} 10:00:00$/),
    });
    expect(r.runs.anonymous.upserted.events).toContain(cal.w3);

    await write("DELETE", `/events/${cal.w3}`);
    r = await syncBoth();
    expect(r.anonymous).toEqual([["event", cal.w3, "cancelled"]]);

    // The series unpublished: every occurrence with it; back again, all listed again.
    await write("PATCH", `/events/${cal.s}`, { status: "draft" });
    r = await syncBoth();
    expect(r.anonymous.map(([, , status]) => status)).toEqual(["unpublished", "unpublished"]);
    expect(r.editor).toEqual([]);
    await write("PATCH", `/events/${cal.s}`, { status: "publish" });
    r = await syncBoth();
    expect(r.anonymous).toEqual([]);
    expect(r.runs.anonymous.upserted.events).toHaveLength(2);

    // Repetition ended: the series stays, alone; its last occurrence is cancelled.
    await write("PATCH", `/events/${cal.s}`, { recurrence: [] });
    r = await syncBoth();
    expect(r.anonymous.map(([, , status]) => status)).toEqual(["cancelled"]);
    expect(r.runs.anonymous.upserted.events).toEqual([cal.s]);
  });

  it("a series deleted for good: it and its occurrences are deleted, a date cancelled before too", async () => {
    await write("DELETE", `/events/${cal.w2}`);
    await syncBoth();
    await write("DELETE", `/events/${cal.s}?force=true`);
    const r = await syncBoth();
    // The cancelled date was told before; the others now, all as deleted.
    expect(r.anonymous.map(([, , status]) => status)).toEqual(["deleted", "deleted", "deleted"]);
    const log = await api(`${NS}/deleted?type=event`);
    expect(log.body.deleted.map((d: any) => d.status)).toEqual(Array(4).fill("deleted"));
    expect(log.body.deleted.some((d: any) => d.series)).toBe(false);
  });

  it("a restore before the removal is read: the list, newer than the log entry, wins", async () => {
    await write("DELETE", `/events/${cal.e2}`);
    // The log says trash, but the list (read after the restore) shows it: the mirror keeps it.
    await write("PATCH", `/events/${cal.e2}`, { status: "publish" });
    const r = await syncBoth();
    expect(r.anonymous).toEqual([]);
    expect(anonymous.items.events.has(cal.e2)).toBe(true);
  });
});
