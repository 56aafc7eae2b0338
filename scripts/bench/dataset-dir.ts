/**
 * The directory of a bench dataset (`.wrangler/bench/<name>`, a `--persist-to` folder), shared by
 * the demo calendar (demo.ts) and the generated datasets (seed.ts): its marker, the migrations, and
 * starting it over.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { runWranglerTracked as runWrangler } from "./procs";

/** The marker a finished seed wrote, or null when it is missing or unreadable. */
export function readMarker<T>(file: string): T | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}

/**
 * Applies the migrations the directory does not have yet (all of them on an empty one; those added
 * since a reused dataset was seeded backfill what they add). Returns the seconds it took.
 * @throws WranglerError when a migration fails.
 */
export async function migrate(dir: string): Promise<number> {
  const t0 = performance.now();
  await runWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", dir]);
  return (performance.now() - t0) / 1000;
}

/** Why a reused dataset failed its check, for the log line. */
export const unusable = (dir: string, err: unknown) =>
  `${dir} is not usable (${err instanceof Error ? err.message.split("\n")[0] : String(err)}): seeding anew`;

/**
 * Empties the directory and applies every migration; returns the seconds the migrations took.
 * @param explained whether the log already said why the dataset goes (else this says it).
 */
export async function startOver(
  o: { dir: string; reseed?: boolean; log: (line: string) => void },
  explained: boolean,
): Promise<number> {
  if (!explained && existsSync(o.dir))
    o.log(
      o.reseed ? `--reseed: wiping ${o.dir}` : `${o.dir} has no complete dataset: seeding anew`,
    );
  rmSync(o.dir, { recursive: true, force: true });
  mkdirSync(o.dir, { recursive: true });
  const seconds = await migrate(o.dir);
  o.log(`migrations applied (${seconds.toFixed(1)} s)`);
  return seconds;
}
