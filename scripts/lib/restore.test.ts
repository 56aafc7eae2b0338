/**
 * `npm run db:restore`'s step after the restore (scripts/lib/restore.ts) through wrangler, against a
 * local D1 (a temporary `--persist-to` folder) holding a version smaller than one served before:
 * what a restore leaves. The restore itself needs Cloudflare; what the moved version does to the
 * service's answers is test/db/time-travel.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveVersionForward, RESTORE_STEP, readClocks, VERSIONS_PER_MS } from "./restore";
import { localState, runWrangler } from "./wrangler";

describe("moving the content version forward after a restore", () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tec-restore-"));
    localState.persistTo = dir;
    // The row and the sync log as the migrations leave them, at positions a restore took back.
    const create =
      "CREATE TABLE content_version (id integer PRIMARY KEY NOT NULL, version integer NOT NULL, seq integer DEFAULT 0 NOT NULL); " +
      "CREATE TABLE sync_log (type text NOT NULL, id integer NOT NULL, seq integer NOT NULL, public_seq integer, editor_seq integer); " +
      "INSERT INTO content_version VALUES (1, 41, 17); " +
      "INSERT INTO sync_log VALUES ('event', 5, 12, NULL, NULL), ('venue', 6, 17, 17, NULL)";
    await runWrangler(["d1", "execute", "DB", "--local", "--command", create]);
  }, 60_000);
  afterAll(() => {
    localState.persistTo = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const NOW = Date.UTC(2026, 10, 29, 12); // Unix milliseconds

  it("sets both clocks past the positions read before the restore and the time floor, and marks the sync log", async () => {
    expect(await readClocks(false)).toEqual({ version: 41, seq: 17 });
    const before = { version: 2e15, seq: 2.1e15 }; // above the time floor of NOW (about 1.8e15)
    expect(await moveVersionForward(false, before, NOW)).toBe(before.version + RESTORE_STEP);
    expect(await readClocks(false)).toEqual({
      version: before.version + RESTORE_STEP,
      seq: before.seq + RESTORE_STEP,
    });
    const log = JSON.parse(
      await runWrangler([
        ...["d1", "execute", "DB", "--local", "--json", "--command"],
        "SELECT type, id, seq, public_seq, editor_seq FROM sync_log ORDER BY id",
      ]),
    )[0].results;
    const seq = before.seq + RESTORE_STEP;
    expect(log).toEqual([
      { type: "event", id: 5, seq, public_seq: null, editor_seq: null },
      { type: "venue", id: 6, seq, public_seq: seq, editor_seq: null },
    ]);
    // Without the clocks before (--forward-only), already past the time floor: one more.
    expect(await moveVersionForward(false, undefined, NOW)).toBe(before.version + RESTORE_STEP + 1);
    expect((await readClocks(false)).seq).toBe(seq + 1);
    // The numbers stay exact for JavaScript (the worker reads the version as a number) for centuries.
    expect(Number.isSafeInteger(Date.UTC(2250, 0, 1) * VERSIONS_PER_MS + RESTORE_STEP)).toBe(true);
  });
});
