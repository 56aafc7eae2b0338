/**
 * The first start cannot race: `npm start` applied the migrations, seeded the demo and
 * loaded the strings at the same time, and one fresh clone in eight stopped with `database is
 * locked: SQLITE_BUSY`. Here the three steps are started at once on a fresh local state (a
 * temporary `--persist-to` folder, so the project's own `.wrangler/state` is not touched).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getPlatformProxy } from "wrangler";
import { applyMigrations } from "./migrations";
import { PATHS } from "./paths";
import { seedDemo } from "./seed";
import { putLanguageFiles, readLanguageFiles } from "./strings";
import { localRuns, localState, retryBusy, WranglerError } from "./wrangler";

describe("the local setup steps of npm start", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "tec-state-"));
    localState.persistTo = dir;
    localRuns.most = 0;
  });
  afterEach(() => {
    localState.persistTo = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("started together on a fresh state, run one after another and all succeed", async () => {
    const [applied, languages, seeded] = await Promise.all([
      applyMigrations(),
      putLanguageFiles(readLanguageFiles()),
      seedDemo({ justCreated: true, today: "2026-11-22" }),
    ]);
    expect(applied[0]).toMatch(/^0000_/);
    expect(languages).toEqual(["en", "de"]);
    expect(seeded.seeded).toBe(true);
    expect(localRuns.most).toBe(1);
    // What they left, read through the platform wrangler runs (one start for D1 and KV both).
    const platform = await getPlatformProxy<{ DB: D1Database; STRINGS: KVNamespace }>({
      configPath: PATHS.wranglerToml,
      persist: { path: path.join(dir, "v3") },
      envFiles: [],
      remoteBindings: false,
    });
    try {
      const row = await platform.env.DB.prepare("SELECT count(*) AS n FROM events").first<{
        n: number;
      }>();
      expect(row?.n).toBeGreaterThan(300);
      const strings = await platform.env.STRINGS.get<any>("strings:de", "json");
      expect(strings.params.invalid).toBeTruthy();
    } finally {
      await platform.dispose();
    }
  });
});

describe("retryBusy", () => {
  const busy = () => new WranglerError(["d1"], 1, "✘ [ERROR] database is locked: SQLITE_BUSY");

  it("tries a command that found the database locked again, with a bound", async () => {
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw busy();
      return "ok";
    };
    expect(await retryBusy(flaky, 5, 1)).toBe("ok");
    expect(calls).toBe(3);

    calls = 0;
    const locked = async () => {
      calls++;
      throw busy();
    };
    await expect(retryBusy(locked, 4, 1)).rejects.toThrow(/SQLITE_BUSY/);
    expect(calls).toBe(4);
  });

  it("does not retry other failures", async () => {
    let calls = 0;
    const broken = async () => {
      calls++;
      throw new WranglerError(["d1"], 1, "no such table: events");
    };
    await expect(retryBusy(broken, 5, 1)).rejects.toThrow(/no such table/);
    expect(calls).toBe(1);
  });
});
