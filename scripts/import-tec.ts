/**
 * `npm run import -- https://example.org/wp-json/tribe/events/v1 [options]`: copies a running The
 * Events Calendar site's categories, tags, venues, organizers and events into the running instance
 * through its REST API (contract §7.9), keeping the links between them.
 *
 *   --url <origin or namespace root>  this instance, default http://127.0.0.1:8787
 *   --user <name>                     default admin
 *   --password <application password> default $ADMIN_APP_PASSWORD, else ADMIN_APP_PASSWORD of .dev.vars
 *   --source-user <name>              a user of the source site; with --source-password (or
 *   --source-password <app password>  $TEC_SOURCE_PASSWORD) drafts, pending, scheduled and private
 *                                     posts come too; without, the public data
 *   --event-password <password>       a password of the source's protected events (repeatable)
 *   --concurrency <n>                 event requests in flight, default 4
 *
 * Posts keep the source's post dates, costs with their currency, and global ids (in
 * `global_id_lineage`). Events, venues and organizers are matched by the source's global id, terms
 * by slug or name: running it again creates nothing and updates what changed. Password-protected
 * events come whole with their password when the source gives it (tools/import/tec/protected.ts),
 * else as drafts, with a note saying what is missing. Exit code 0 on success.
 */
process.env.TZ = "UTC";

const { parseArgs } = await import("node:util");
const { readDevVars } = await import("./lib/config");
const { TEC_USAGE: USAGE } = await import("./lib/import-usage");
const { seconds } = await import("./lib/log");
const { ImportError } = await import("../tools/import/errors");
const { importTec } = await import("../tools/import/tec/importer");

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

async function main(argv: string[]): Promise<number> {
  const { values: opts, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: "string", default: "http://127.0.0.1:8787" },
      user: { type: "string", default: "admin" },
      password: { type: "string" },
      "source-user": { type: "string" },
      "source-password": { type: "string" },
      "event-password": { type: "string", multiple: true },
      concurrency: { type: "string", default: "4" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (opts.help || positionals.length !== 1) {
    console.log(`usage: ${USAGE}`);
    return opts.help ? 0 : 1;
  }
  const sourceRoot = positionals[0].replace(/\/+$/, "");
  const concurrency = Number(opts.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)
    throw new Error("--concurrency must be a whole number from 1 to 32");
  const parsed = new URL(opts.url);
  const base =
    parsed.pathname === "/"
      ? `${parsed.origin}/wp-json/tribe/events/v1`
      : opts.url.replace(/\/+$/, "");
  const password =
    opts.password ?? process.env.ADMIN_APP_PASSWORD ?? readDevVars().ADMIN_APP_PASSWORD;
  if (!password)
    throw new Error(
      "no password: pass --password, or set ADMIN_APP_PASSWORD (environment or .dev.vars)",
    );
  const sourcePassword = opts["source-password"] ?? process.env.TEC_SOURCE_PASSWORD;
  if ((opts["source-user"] === undefined) !== (sourcePassword === undefined))
    throw new Error("--source-user and --source-password go together");

  const t0 = performance.now();
  console.log(
    `▸ Importing ${sourceRoot}${opts["source-user"] ? ` as ${opts["source-user"]}` : " (public data)"} into ${base} as ${opts.user}…`,
  );
  const fetcher = (
    url: string,
    init: { method: string; headers: Record<string, string>; body?: string },
  ) => fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  try {
    const report = await importTec(
      {
        base: sourceRoot,
        authorization: opts["source-user"]
          ? basic(opts["source-user"], sourcePassword!)
          : undefined,
        eventPasswords: opts["event-password"],
        fetch: fetcher,
      },
      { base, authorization: basic(opts.user, password), fetch: fetcher },
      { concurrency },
    );
    for (const note of report.notes) console.log(`  · ${note}`);
    for (const [kind, c] of Object.entries(report.counts)) {
      const incomplete =
        kind === "events" && report.incomplete
          ? `; ${report.incomplete} password-protected ones not copied whole (see the notes)`
          : "";
      console.log(
        `  ${kind}: ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged${c.skipped ? `, ${c.skipped} skipped` : ""}${incomplete}`,
      );
    }
    console.log(
      `✓ done in ${seconds(performance.now() - t0)} (${report.requests} requests to this instance)`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof ImportError)) throw err;
    console.error(`✗ ${err.message}`);
    console.error(
      "  What was written stays; run the import again to finish (everything is matched again).",
    );
    return 1;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.error(`✗ ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}

export {};
