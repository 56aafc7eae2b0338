/**
 * Applying the D1 migrations in drizzle/ (the same command as `npm run db:migrate:local`).
 */
import { runWrangler, where } from "./wrangler";

/**
 * Runs `wrangler d1 migrations apply DB --local|--remote`. Wrangler's confirmation prompt is skipped
 * because its stdin is not a terminal (it then answers yes by itself).
 * @returns the migration files applied by this call ([] when the database was up to date).
 * @throws WranglerError when a migration fails (wrangler rolls that migration back).
 */
export async function applyMigrations(remote = false): Promise<string[]> {
  const out = await runWrangler(["d1", "migrations", "apply", "DB", where(remote)]);
  if (/No migrations to apply/i.test(out)) return [];
  // The "to be applied" table lists each pending file once, before anything runs.
  const pending = out.split(/Migrations to be applied:/)[1] ?? "";
  return [...new Set([...pending.matchAll(/│\s*([\w.-]+\.sql)\s*│/g)].map((m) => m[1]))];
}
