/**
 * `wrangler dev` for `npm start`: started in its own process group, its start-up chatter held back
 * until the worker answers (and shown only if it fails), its request log passed through afterwards.
 */
import type { ChildProcess } from "node:child_process";
import { exited, sleep } from "./processes";
import { spawnWrangler, stripAnsi } from "./wrangler";

/** A running `wrangler dev` and how it first answered. */
export interface DevServer {
  child: ChildProcess;
  /** HTTP status of the first answer that ended the wait (200 when healthy). */
  status: number;
  /** Body of that answer when it was not 200, for the warning. */
  body: string;
}

/**
 * Starts `wrangler dev --ip host --port port [--persist-to dir] [--var NAME:VALUE …]` and waits until `probeUrl` answers
 * 200, or keeps answering something else for `settleMs` milliseconds after its first answer. The
 * server keeps running in that case, so that a developer can fix the code while wrangler reloads it.
 * @throws Error with wrangler's output (colours and the bindings table removed) when the worker
 *   does not build, wrangler exits, or nothing answers within `timeoutMs` (default 90 000 ms).
 */
export async function startDevServer(options: {
  host: string;
  port: number;
  probeUrl: string;
  /** Folder of the local D1/KV state (wrangler's `--persist-to`); default `.wrangler/state`. */
  persistTo?: string;
  /** Settings over wrangler.toml and `.dev.vars` (wrangler's `--var NAME:VALUE`). */
  vars?: Record<string, string>;
  timeoutMs?: number;
  settleMs?: number;
}): Promise<DevServer> {
  const child = spawnWrangler(
    [
      "dev",
      "--ip",
      options.host,
      "--port",
      String(options.port),
      "--show-interactive-dev-session=false",
      // The Cron Trigger on request (`/cdn-cgi/handler/scheduled`): it is not run by the clock locally.
      "--test-scheduled",
      ...(options.persistTo ? ["--persist-to", options.persistTo] : []),
      ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => [
        "--var",
        `${name}:${value}`,
      ]),
    ],
    process.stdout.isTTY ? { FORCE_COLOR: "1" } : {},
  );
  let held = "";
  let live = false;
  const relay = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
    if (live) to.write(chunk);
    else held += chunk.toString();
  };
  child.stdout?.on("data", relay(process.stdout));
  child.stderr?.on("data", relay(process.stderr));
  let gone = false;
  void exited(child).then(() => (gone = true));

  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  let firstAnswer = 0;
  let last: { status: number; body: string } | null = null;
  while (!gone && Date.now() < deadline) {
    // wrangler 4.155 keeps running after a failed first build, but even once a fix builds, its
    // requests hang (seen here): stop at once rather than wait for nothing.
    if (/Build failed/.test(held)) break;
    try {
      const res = await fetch(options.probeUrl, { signal: AbortSignal.timeout(5000) });
      const body = await res.text();
      if (res.status === 200) {
        live = true;
        return { child, status: 200, body: "" };
      }
      last = { status: res.status, body };
      firstAnswer ||= Date.now();
      if (Date.now() - firstAnswer > (options.settleMs ?? 5000)) {
        live = true;
        process.stdout.write(held);
        return { child, ...last };
      }
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  const built = !/Build failed/.test(held);
  const why = !built
    ? "The worker does not build; fix the error and start again"
    : gone
      ? "wrangler dev exited"
      : `Nothing answered ${options.probeUrl} in time`;
  const output = stripAnsi(held)
    .replace(/^env\.[^\n]*\n/gm, "")
    .trim();
  throw new Error(`${why}. wrangler said:\n${output.split("\n").slice(-40).join("\n")}`);
}
