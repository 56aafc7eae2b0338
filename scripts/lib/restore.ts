/**
 * A D1 Time Travel restore that keeps the read cache honest (`npm run db:restore`, README: Deploy to
 * Cloudflare). Every cached anonymous answer is keyed by the content version its data was read at
 * (contract §6, src/read-cache/version.ts), and the version only grows — SQL triggers add 1 with
 * every visible write (drizzle/0011_content_version_triggers.sql). A restore takes the database,
 * `content_version` row included, back to an earlier state: the next writes would then reach
 * version numbers that answers of the abandoned timeline are already stored under (in isolates'
 * memory, the Cache API, totals kept by version, clients' ETags), and those answers would be served
 * as current. So the restore is followed at once by `moveVersionForward`, which sets the version
 * past every number the abandoned timeline can have used.
 */
import { type Clocks, SYNC_LOG_FORWARD_SQL, versionForwardSql } from "./restore-sql";
import { runWrangler, where } from "./wrangler";

export {
  type Clocks,
  RESTORE_STEP,
  SYNC_LOG_FORWARD_SQL,
  VERSIONS_PER_MS,
  versionForwardSql,
} from "./restore-sql";

/**
 * Runs SQL on the `DB` binding's database through wrangler and returns the first row of the last
 * statement. @throws WranglerError when wrangler fails.
 */
async function firstRow(
  sql: string,
  remote: boolean,
): Promise<Record<string, unknown> | undefined> {
  const out = await runWrangler(["d1", "execute", "DB", where(remote), "--json", "--command", sql]);
  const parsed = JSON.parse(out) as Array<{ results?: Array<Record<string, unknown>> }>;
  return parsed.at(-1)?.results?.[0];
}

/**
 * The clocks now (`content_version.version` and `.seq`).
 * @throws Error when the database has no `content_version` row (not migrated).
 */
export async function readClocks(remote: boolean): Promise<Clocks> {
  const row = await firstRow("SELECT version, seq FROM content_version WHERE id = 1", remote);
  if (typeof row?.version !== "number" || typeof row.seq !== "number")
    throw new Error("content_version has no row 1: apply the migrations first.");
  return { version: row.version, seq: row.seq };
}

/**
 * Moves the content version and the sync clock past every position served before a restore
 * (`versionForwardSql`), then marks every sync log entry changed at the new position
 * (`SYNC_LOG_FORWARD_SQL`). Isolates learn the new version with their next miss
 * (`CONTENT_VERSION_TTL_MS`), and every answer from then on has a key no earlier answer had; every
 * sync client gets the whole calendar as restored with its next run.
 * @returns the new version.
 * @throws Error when the database has no `content_version` row; WranglerError when wrangler fails.
 */
export async function moveVersionForward(
  remote: boolean,
  before: Clocks | undefined,
  nowMs = Date.now(),
): Promise<number> {
  const row = await firstRow(versionForwardSql(before, nowMs), remote);
  if (typeof row?.version !== "number")
    throw new Error("content_version has no row 1: apply the migrations first.");
  await firstRow(SYNC_LOG_FORWARD_SQL, remote);
  return row.version;
}

/** Where to restore to: wrangler's `--timestamp` (Unix seconds or RFC 3339) or `--bookmark`. */
export type RestorePoint = { timestamp: string } | { bookmark: string };

/**
 * `wrangler d1 time-travel restore DB` to `point` (the deployed database: Time Travel has no local
 * counterpart), with `--json`, which restores without wrangler's own prompt (the command asks first).
 * @returns the bookmark restored to and the one before, which undoes the restore.
 * @throws WranglerError when wrangler fails (nothing restored).
 */
export async function timeTravelRestore(
  point: RestorePoint,
): Promise<{ bookmark?: string; previous_bookmark?: string }> {
  const to =
    "timestamp" in point ? `--timestamp=${point.timestamp}` : `--bookmark=${point.bookmark}`;
  const out = await runWrangler(["d1", "time-travel", "restore", "DB", to, "--json"]);
  return JSON.parse(out.slice(out.indexOf("{"))) as {
    bookmark?: string;
    previous_bookmark?: string;
  };
}
