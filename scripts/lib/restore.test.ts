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
import { moveVersionForward, RESTORE_STEP, readVersion, VERSIONS_PER_MS } from "./restore";
import { localState, runWrangler } from "./wrangler";

describe("moving the content version forward after a restore", () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tec-restore-"));
    localState.persistTo = dir;
    // The row as drizzle/0000_init.sql creates it, at a version a restore took back.
    const create =
      "CREATE TABLE content_version (id integer PRIMARY KEY NOT NULL, version integer NOT NULL); " +
      "INSERT INTO content_version VALUES (1, 41)";
    await runWrangler(["d1", "execute", "DB", "--local", "--command", create]);
  }, 60_000);
  afterAll(() => {
    localState.persistTo = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const NOW = Date.UTC(2026, 10, 29, 12); // Unix milliseconds

  it("sets it past the version read before the restore and the time floor, and reads it back", async () => {
    expect(await readVersion(false)).toBe(41);
    const before = 2e15; // above the time floor of NOW (about 1.8e15)
    expect(await moveVersionForward(false, before, NOW)).toBe(before + RESTORE_STEP);
    // Without the version before (--forward-only), already past the time floor: one more.
    expect(await moveVersionForward(false, undefined, NOW)).toBe(before + RESTORE_STEP + 1);
    expect(await readVersion(false)).toBe(before + RESTORE_STEP + 1);
    // The numbers stay exact for JavaScript (the worker reads the version as a number) for centuries.
    expect(Number.isSafeInteger(Date.UTC(2250, 0, 1) * VERSIONS_PER_MS + RESTORE_STEP)).toBe(true);
  });
});
