/**
 * The two servers of the benchmark, both `wrangler dev` (workerd) on 127.0.0.1 and a free port:
 * the real worker (a snapshot bundle of src/, so that edits by others during a run do not reload it)
 * over a bench state directory, and the static worker of bench/static.
 *
 * Each wrangler runs in its own process group (scripts/lib/processes.ts); stopping it stops the
 * workerd processes it started. Their output goes to a log file, shown when they fail.
 */
import type { ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { ROOT } from "../lib/paths";
import { exited, sleep, stopGroup } from "../lib/processes";
import { runWranglerTracked, spawnWranglerTracked } from "./procs";

export const HOST = "127.0.0.1";

/**
 * Environment of both dev servers, besides no telemetry and no `Request.cf` download:
 * - `X_LOCAL_OBSERVABILITY=false`: wrangler 4.155 otherwise attaches a trace collector to the worker
 *   and writes every request's trace events into a SQLite store under the persist directory (tens of
 *   MB per run): work that a deployed worker does not do, on the same 2 cores as the worker.
 * - `X_LOCAL_EXPLORER=false`: no local resource explorer.
 * - `WRANGLER_CI_DISABLE_CONFIG_WATCHING=true`: an edit of wrangler.toml during a run does not reload.
 */
const DEV_ENV = {
  X_LOCAL_OBSERVABILITY: "false",
  X_LOCAL_EXPLORER: "false",
  WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true",
};

/** A port nothing listens on right now (the kernel's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen({ host: HOST, port: 0, exclusive: true }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface DevServer {
  name: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Port of wrangler's inspector proxy (Chrome DevTools Protocol, `/json` lists the targets). */
  inspectorPort: number;
  child: ChildProcess;
  logFile: string;
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no output)";
  }
}

/**
 * Starts `wrangler dev <args> --ip 127.0.0.1 --port <free> --inspector-port <free>` and waits until
 * `probePath` answers (any HTTP status).
 * @throws Error with the tail of the log when wrangler exits or nothing answers within `timeoutMs`.
 */
export async function startDev(options: {
  name: string;
  args: string[];
  logDir: string;
  probePath: string;
  timeoutMs?: number;
  logLevel?: string;
}): Promise<DevServer> {
  const port = await freePort();
  const inspector = await freePort();
  mkdirSync(options.logDir, { recursive: true });
  const logFile = path.join(options.logDir, `${options.name}.log`);
  const log = createWriteStream(logFile);
  const args = [
    ...options.args,
    "--ip",
    HOST,
    "--port",
    String(port),
    "--inspector-port",
    String(inspector),
  ];
  args.push("--show-interactive-dev-session=false", "--log-level", options.logLevel ?? "warn");
  const child = spawnWranglerTracked(["dev", ...args], DEV_ENV);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let gone = false;
  void exited(child).then(() => {
    gone = true;
  });
  const origin = `http://${HOST}:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (!gone && Date.now() < deadline) {
    try {
      const res = await fetch(origin + options.probePath, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      return { name: options.name, origin, port, inspectorPort: inspector, child, logFile };
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  await stopGroup(child);
  throw new Error(
    `${options.name}: ${gone ? "wrangler dev exited" : "no answer in time"}. Log ${path.relative(ROOT, logFile)}:\n${tail(logFile)}`,
  );
}

/** Stops a server's whole process group (SIGTERM, then SIGKILL after 5 s). */
export async function stopDev(server: DevServer | undefined): Promise<void> {
  if (server) await stopGroup(server.child);
}

/**
 * Bundles the worker as it is now (`wrangler deploy --dry-run --outdir`), so that the benchmark runs
 * one fixed build even while src/ is being edited (`wrangler dev` on src/ would rebuild and reload).
 * @returns the bundle's entry file.
 */
export async function buildSnapshot(outDir: string): Promise<string> {
  await runWranglerTracked(["deploy", "--dry-run", "--outdir", outDir]);
  return path.join(outDir, "index.js");
}
