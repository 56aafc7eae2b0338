/**
 * A D1 Time Travel restore takes `content_version` back with the data; `npm run db:restore` moves it
 * forward right after (scripts/lib/restore.ts). Here the restore is played in the local D1 (the
 * rows and the version put back as they were), followed by the command's statement
 * (scripts/lib/restore-sql.ts), and the service is asked what a client of the undone timeline asks.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  RESTORE_STEP,
  SYNC_LOG_FORWARD_SQL,
  VERSIONS_PER_MS,
  versionForwardSql,
} from "../../scripts/lib/restore-sql";
import { api, NS } from "../support/api";
import { stopClock } from "../support/clock";
import { day } from "../support/dates";
import { seedEvent } from "../support/factories";

/** The isolate's TTL of the content version (wrangler.toml). */
const TTL = 1000;

const sql = (statement: string) => env.DB.prepare(statement).run();
const version = async () =>
  (await env.DB.prepare("SELECT version FROM content_version WHERE id = 1").first<{
    version: number;
  }>())!.version;

describe("after a Time Travel restore, the content version moves forward (contract §6)", () => {
  it("no answer of the undone writes is current again: an ETag of theirs is no 304 after a new write", async () => {
    const clock = stopClock();
    const id = await seedEvent({ title: "Concert", start: day(2) });
    await api(`${NS}/events/${id}`);
    const restorePoint = await version();
    // The timeline the restore undoes: a write, and its answer served with its ETag.
    await sql(`UPDATE events SET title = 'Renamed' WHERE id = ${id}`);
    clock.advance(TTL);
    const undone = await api(`${NS}/events/${id}`);
    expect(undone.body.title).toBe("Renamed");
    const before = await version(); // what `npm run db:restore` reads before restoring
    // The restore: the rows and the version as they were at the restore point.
    await sql(`UPDATE events SET title = 'Concert' WHERE id = ${id}`);
    await sql(`UPDATE content_version SET version = ${restorePoint} WHERE id = 1`);
    // Then the command's statement.
    const moved = await env.DB.prepare(versionForwardSql(before, Date.now())).first<{
      version: number;
    }>();
    expect(moved!.version).toBeGreaterThan(before);
    // A write after the restore, of the same kind as the undone one (it moves the version as much).
    await sql(`UPDATE events SET title = 'After the restore' WHERE id = ${id}`);
    clock.advance(TTL);
    const revalidated = await api(`${NS}/events/${id}`, {
      headers: { "if-none-match": undone.headers.get("etag")! },
    });
    expect(revalidated.status).toBe(200);
    expect(revalidated.body.title).toBe("After the restore");
    expect(revalidated.headers.get("etag")).not.toBe(undone.headers.get("etag"));
    // And anonymous answers are kept again under the new version.
    expect((await api(`${NS}/events/${id}`)).headers.get("x-cache")).toBe("HIT");
  });
});

describe("after a Time Travel restore, sync clients get the calendar as restored (contract §7.3)", () => {
  const clocks = async () =>
    (await env.DB.prepare("SELECT version, seq FROM content_version WHERE id = 1").first<{
      version: number;
      seq: number;
    }>())!;
  const cursorOf = (res: { headers: Headers }) => Number(res.headers.get("x-tec-sync-cursor"));
  const titles = (res: {
    status: number;
    text: string;
    body: { events?: Array<{ title: string }> };
  }) => {
    expect(res.body.events, `${res.status} ${res.text.slice(0, 300)}`).toBeDefined();
    return res.body.events!.map((e) => e.title).sort();
  };

  it("a client of the undone timeline gets the reverted event and the writes after the restore", async () => {
    const clock = stopClock();
    const id = await seedEvent({ title: "Concert", start: day(2) });
    const first = await api(`${NS}/events`);
    expect(first.status, first.text).toBe(200);
    expect(titles(first)).toEqual(["Concert"]);
    const point = await clocks();
    const logAtPoint = await env.DB.prepare("SELECT seq FROM sync_log WHERE id = ?")
      .bind(id)
      .first<{ seq: number }>();
    // The undone timeline: a rename (as the API writes it: with its change time), which the client syncs.
    await sql(
      `UPDATE events SET title = 'Renamed', changed_gmt = '2030-01-01 00:00:00' WHERE id = ${id}`,
    );
    clock.advance(TTL);
    const undone = await api(`${NS}/events?sync_cursor=${cursorOf(first)}`);
    expect(titles(undone)).toEqual(["Renamed"]);
    const cursor = cursorOf(undone);
    const before = await clocks(); // what `npm run db:restore` reads before restoring
    // The restore: rows, clocks and log as they were at the restore point.
    await sql(`UPDATE events SET title = 'Concert' WHERE id = ${id}`);
    await sql(
      `UPDATE content_version SET version = ${point.version}, seq = ${point.seq}, version_seq = ${point.seq} WHERE id = 1`,
    );
    await sql(`UPDATE sync_log SET seq = ${logAtPoint!.seq} WHERE id = ${id}`);
    // The command's statements.
    await env.DB.batch([
      env.DB.prepare(versionForwardSql(before, Date.now())),
      env.DB.prepare(SYNC_LOG_FORWARD_SQL),
    ]);
    // A write after the restore.
    await seedEvent({ title: "After the restore", start: day(3) });
    clock.advance(TTL);
    const next = await api(`${NS}/events?sync_cursor=${cursor}`);
    expect(next.status).toBe(200);
    expect(titles(next)).toEqual(["After the restore", "Concert"]);
    expect(cursorOf(next)).toBeGreaterThan(cursor);
  });
});

describe("the statement of `npm run db:restore`", () => {
  it("takes the largest of the version + 1, the version before + RESTORE_STEP and the time floor", async () => {
    const now = Date.UTC(2026, 10, 29, 12);
    const floor = now * VERSIONS_PER_MS;
    const forward = async (before?: number) =>
      (await env.DB.prepare(versionForwardSql(before, now)).first<{ version: number }>())!.version;
    await sql("UPDATE content_version SET version = 41 WHERE id = 1");
    expect(await forward(500)).toBe(floor); // the time floor
    await sql("UPDATE content_version SET version = 41 WHERE id = 1");
    expect(await forward(2e15)).toBe(2e15 + RESTORE_STEP); // the version before, with room for writes
    expect(await forward()).toBe(2e15 + RESTORE_STEP + 1); // already past both: one more
  });
});
