/**
 * `npm run seed:demo [-- --remote] [--force] [--today yyyy-MM-dd]`: seeds the deterministic demo
 * calendar (about 300 events over the coming 12 months) into D1, local by default.
 *
 * Does nothing (exit 0) when the calendar already has content; `--force` replaces the local content
 * (events, venues, organizers, categories, tags; users and media stay). `--today` builds the calendar
 * around another day (the same day always gives the same calendar).
 * Exit code 1 on bad settings, an unmigrated database or a wrangler failure; 2 on bad arguments.
 */
import { parseArgs } from "node:util";
import { info, step } from "./lib/log";
import { exitOnSignals } from "./lib/processes";
import { describeSeed, seedDemo } from "./lib/seed";

let args: { remote?: boolean; force?: boolean; today?: string };
try {
  args = parseArgs({
    options: { remote: { type: "boolean" }, force: { type: "boolean" }, today: { type: "string" } },
    strict: true,
  }).values;
} catch (err) {
  console.error(
    `${err instanceof Error ? err.message : String(err)}\nUsage: npm run seed:demo [-- --remote] [--force] [--today yyyy-MM-dd]`,
  );
  process.exit(2);
}
exitOnSignals();

try {
  const result = await step(`Seeding the demo calendar (${args.remote ? "remote" : "local"})`, () =>
    seedDemo(args),
  );
  for (const line of describeSeed(result)) info(line);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
