/**
 * The statement `npm run db:restore` runs after a D1 Time Travel restore (./restore.ts), apart from
 * the wrangler calls so that the worker's tests run it against the real schema in workerd
 * (test/db/time-travel.test.ts).
 */

/** Versions the version before the restore is moved past by: writes during the restore's seconds. */
export const RESTORE_STEP = 1_000_000;

/**
 * Versions per millisecond of the time floor: the version after `moveVersionForward` is at least
 * the Unix time in milliseconds × this (about 1.8e15 in 2026, below 2^53 until the year 2255), so
 * a database whose version never grew faster than 1,000 a millisecond on average between two
 * restores passes every version it served even when the version before the restore is unknown
 * (`--forward-only` after a restore made by hand or in the dashboard).
 */
export const VERSIONS_PER_MS = 1000;

/**
 * The statement that moves the version forward: to the largest of the version + 1, `before` +
 * `RESTORE_STEP` and the time floor of `nowMs`, in one statement (D1 runs one write at a time, so a
 * concurrent write's +1 lands before or after it, never lost).
 * @param before the version read just before the restore, if known.
 * @param nowMs the time in Unix milliseconds.
 */
export function versionForwardSql(before: number | undefined, nowMs: number): string {
  const floors = [`version + 1`, String(Math.floor(nowMs) * VERSIONS_PER_MS)];
  if (before !== undefined) floors.push(String(Math.floor(before) + RESTORE_STEP));
  return `UPDATE content_version SET version = max(${floors.join(", ")}) WHERE id = 1 RETURNING version`;
}
