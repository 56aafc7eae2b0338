/**
 * `npm run import -- <source> [options]`: one command for both importers, chosen by the source:
 *
 * - the namespace root of a running The Events Calendar site (a URL whose path ends in
 *   `/events/v1`, e.g. `https://example.org/wp-json/tribe/events/v1`): scripts/import-tec.ts;
 * - anything else (an `.ics` file, an http(s) or webcal URL of a calendar): scripts/import-ics.ts.
 *
 * Both write into the running instance through its REST API (`--url`, `--user`, `--password`) and
 * can run again: a second run creates nothing and updates what changed. `--help` without a source
 * shows the options of both.
 */
const OPTIONS_WITH_VALUES = new Set([
  "--url",
  "--user",
  "--password",
  "--timezone",
  "--until",
  "--concurrency",
  "--source-user",
  "--source-password",
  "--event-password",
]);

/** The first argument that is neither an option nor an option's value. */
function sourceArgument(args: string[]): string | undefined {
  return args.find((a, i) => !a.startsWith("-") && !OPTIONS_WITH_VALUES.has(args[i - 1] ?? ""));
}

const args = process.argv.slice(2);
const source = sourceArgument(args);
if (source === undefined && (args.includes("--help") || args.includes("-h"))) {
  const { ICS_USAGE, TEC_USAGE } = await import("./lib/import-usage");
  console.log(`usage: ${ICS_USAGE}\n\nor: ${TEC_USAGE}`);
  process.exit(0);
}
const isTec =
  source !== undefined &&
  /^https?:\/\//i.test(source) &&
  /\/events\/v1\/?$/.test(new URL(source).pathname);
await import(isTec ? "./import-tec" : "./import-ics");

export {};
