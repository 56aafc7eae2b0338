/**
 * `npm run import -- <source> [options]`: one command for both importers, chosen by the source:
 *
 * - the namespace root of a running The Events Calendar site (a URL whose path ends in
 *   `/events/v1`, e.g. `https://example.org/wp-json/tribe/events/v1`): scripts/import-tec.ts;
 * - anything else (an `.ics` file, an http(s) or webcal URL of a calendar): scripts/import-ics.ts.
 *
 * Both write into the running instance through its REST API (`--url`, `--user`, `--password`) and
 * can run again: a second run creates nothing and updates what changed.
 */
const OPTIONS_WITH_VALUES = new Set([
  "--url",
  "--user",
  "--password",
  "--timezone",
  "--concurrency",
  "--source-user",
  "--source-password",
]);

/** The first argument that is neither an option nor an option's value. */
function sourceArgument(args: string[]): string | undefined {
  return args.find((a, i) => !a.startsWith("-") && !OPTIONS_WITH_VALUES.has(args[i - 1] ?? ""));
}

const source = sourceArgument(process.argv.slice(2));
const isTec =
  source !== undefined &&
  /^https?:\/\//i.test(source) &&
  /\/events\/v1\/?$/.test(new URL(source).pathname);
await import(isTec ? "./import-tec" : "./import-ics");

export {};
