/**
 * The statements `npm run db:restore` runs after a D1 Time Travel restore (./restore.ts), apart from
 * the wrangler calls so that the worker's tests run them against the real schema in workerd
 * (test/db/time-travel.test.ts).
 */

/** Positions the clocks before the restore are moved past by: writes during the restore's seconds. */
export const RESTORE_STEP = 1_000_000;

/**
 * Positions per millisecond of the time floor: a clock after the forward step is at least the Unix
 * time in milliseconds × this (about 1.8e15 in 2026, below 2^53 until the year 2255), so a database
 * whose clocks never grew faster than 1,000 a millisecond on average between two restores passes
 * every position it served even when the positions before the restore are unknown (`--forward-only`
 * after a restore made by hand or in the dashboard).
 */
export const VERSIONS_PER_MS = 1000;

/** The two clocks of `content_version` (read just before a restore). */
export interface Clocks {
  /** The content version (contract §6: the read cache's keys). */
  version: number;
  /** The sync clock (contract §7.3: the lists' `sync_cursor`). */
  seq: number;
}

/** `max(column + 1, before + RESTORE_STEP, the time floor)` as SQL. */
function forward(column: string, before: number | undefined, nowMs: number): string {
  const floors = [`${column} + 1`, String(Math.floor(nowMs) * VERSIONS_PER_MS)];
  if (before !== undefined) floors.push(String(Math.floor(before) + RESTORE_STEP));
  return `max(${floors.join(", ")})`;
}

/**
 * The statement that moves the content version forward: to the largest of the version + 1, the
 * version before + `RESTORE_STEP` and the time floor of `nowMs`, in one statement (D1 runs one write
 * at a time, so a concurrent write's +1 lands before or after it, never lost). The sync clock moves
 * the same way in the same statement (its trigger sets the anonymous cursor `version_seq` to it).
 * @param before the clocks read just before the restore, if known (a number: the version only).
 * @param nowMs the time in Unix milliseconds.
 */
export function versionForwardSql(before: Clocks | number | undefined, nowMs: number): string {
  const clocks = typeof before === "number" ? { version: before, seq: undefined } : before;
  return `UPDATE content_version SET version = ${forward("version", clocks?.version, nowMs)}, seq = ${forward("seq", clocks?.seq, nowMs)} WHERE id = 1 RETURNING version`;
}

/**
 * After the clocks moved: every entry of the sync log is marked changed at the new position, so
 * that every sync client — whatever cursor it holds, also one of the undone timeline — gets every
 * post and term as the restore left it, and every one readers can no longer see in `/deleted`
 * again (contract §7.3). A client whose cursor is past the restore point saw writes the restore
 * undid: without this it would keep their results, and it would never see the writes after the
 * restore that land on positions at or below its cursor.
 */
export const SYNC_LOG_FORWARD_SQL = `UPDATE sync_log SET seq = (SELECT seq FROM content_version WHERE id = 1), public_seq = CASE WHEN public_seq IS NULL THEN NULL ELSE (SELECT seq FROM content_version WHERE id = 1) END, editor_seq = CASE WHEN editor_seq IS NULL THEN NULL ELSE (SELECT seq FROM content_version WHERE id = 1) END`;
