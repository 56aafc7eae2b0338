/**
 * Child process of `npm run bench` for `--seeder proxy`: inserts the benchmark calendar into a
 * migrated state directory through one `getPlatformProxy()` workerd (see ./seed.ts). Runs in its own
 * process group, so that stopping the group also stops that workerd.
 *
 * Argument: one JSON object `{ dir, configPath, size, today, siteTimezone, chunkEvents }`.
 * Progress lines go to stderr as `progress: …`; the result (InsertResult) is the last stdout line.
 */
import { type InsertOptions, insertDataset, proxyExecutor } from "./seed";

const args = JSON.parse(process.argv[2] ?? "{}") as InsertOptions & {
  dir: string;
  configPath: string;
};
const exec = await proxyExecutor(args.dir, args.configPath);
try {
  const result = await insertDataset(exec, args, (line) =>
    process.stderr.write(`progress: ${line}\n`),
  );
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
} finally {
  await exec.close();
}
