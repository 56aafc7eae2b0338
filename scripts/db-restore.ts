/**
 * `npm run db:restore -- --timestamp=<Unix seconds | RFC 3339> | --bookmark=<id> --remote [--yes]`:
 * a D1 Time Travel restore of the deployed database, then the content version and the sync clock
 * moved past every position served before it and every sync log entry marked changed
 * (scripts/lib/restore.ts), so that no cached answer of the undone writes is served as current and
 * every sync client gets the calendar as restored. `--forward-only [--remote]`: only the second step, after a restore made by
 * hand (`wrangler d1 time-travel restore`, the dashboard), or locally.
 *
 * Asks before restoring unless `--yes` (a restore overwrites the whole database and cancels queries
 * in flight); without a terminal, `--yes` is required. Prints the bookmark that undoes the restore.
 * Exit codes: 0 done; 1 wrangler failed (when the restore succeeded but the version step failed, it
 * says so: run `--forward-only --remote` then); 2 bad arguments or not confirmed.
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { info, step } from "./lib/log";
import { exitOnSignals } from "./lib/processes";
import {
  moveVersionForward,
  type RestorePoint,
  readClocks,
  timeTravelRestore,
} from "./lib/restore";

const USAGE =
  "Usage: npm run db:restore -- (--timestamp=<Unix seconds|RFC 3339> | --bookmark=<id>) --remote [--yes]\n" +
  "       npm run db:restore -- --forward-only [--remote]";

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`);
  process.exit(2);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      timestamp: { type: "string" },
      bookmark: { type: "string" },
      remote: { type: "boolean", default: false },
      yes: { type: "boolean", default: false },
      "forward-only": { type: "boolean", default: false },
    },
  }));
} catch (err) {
  usage(err instanceof Error ? err.message : String(err));
}
const remote = values.remote === true;
const forwardOnly = values["forward-only"] === true;
const { timestamp, bookmark } = values as { timestamp?: string; bookmark?: string };
exitOnSignals();

/** Whether the operator confirms the restore (`--yes`, or "y" at the terminal's prompt). */
async function confirmed(to: string): Promise<boolean> {
  if (values.yes === true) return true;
  if (!process.stdin.isTTY) usage("Not a terminal: add --yes to restore without asking.");
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(
    `This overwrites the whole deployed database with its state at ${to}, cancelling queries in flight. Proceed? (y/N) `,
  );
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}

try {
  if (forwardOnly) {
    if (timestamp || bookmark)
      usage("--forward-only restores nothing: leave out --timestamp and --bookmark.");
    const version = await step(
      `Moving the content version and the sync clock forward (${remote ? "remote" : "local"})`,
      () => moveVersionForward(remote, undefined),
    );
    info(`content version ${version}`);
  } else {
    if (!timestamp === !bookmark) usage("Give exactly one of --timestamp and --bookmark.");
    if (!remote) usage("Time Travel restores the deployed database only: add --remote.");
    const point: RestorePoint = timestamp ? { timestamp } : { bookmark: bookmark as string };
    const to = timestamp ? `timestamp ${timestamp}` : `bookmark ${bookmark}`;
    if (!(await confirmed(to))) usage("Not restored.");
    const before = await step("Reading the clocks", () => readClocks(true));
    const restored = await step(`Restoring to ${to}`, () => timeTravelRestore(point));
    info(
      `restored to bookmark ${restored.bookmark}; to undo: npm run db:restore -- --bookmark=${restored.previous_bookmark} --remote`,
    );
    try {
      const version = await step("Moving the content version and the sync clock forward", () =>
        moveVersionForward(true, before),
      );
      info(`content version ${before.version} before the restore, ${version} now`);
    } catch (err) {
      console.error(
        "The database is restored, but its content version was not moved forward: run `npm run db:restore -- --forward-only --remote` now.",
      );
      throw err;
    }
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
