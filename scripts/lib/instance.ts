/**
 * A throwaway `npm start` for the suites that test the service as users run it (the end-to-end
 * suite, the acceptance suite, the reference page check): a free port on 127.0.0.1, a fresh
 * temporary `--persist-to` folder (the developer's own `.wrangler/state` is never touched), its
 * output in a log file, and a stop that leaves nothing running or on disk.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { readDevVars } from "./config";
import { ROOT } from "./paths";
import { exited, sleep, spawnGroup, stopGroup } from "./processes";

const HOST = "127.0.0.1";

/** A running `npm start` of this clone. */
export interface Instance {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Its `--persist-to` folder (removed by `stop`). */
  persistTo: string;
  /** `ADMIN_APP_PASSWORD` from `.dev.vars`: the application password of user 1, `admin`. */
  adminPassword: string;
  /** Stops npm start's process group (SIGTERM, SIGKILL after 20 s) and removes the folder. */
  stop(): Promise<void>;
}

/** A TCP port nothing listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `npm start -- --port <free> --persist-to <fresh folder> [--no-demo] [--var NAME:VALUE …]`
 * and waits until `probePath` (default: the default language's events list) answers 200.
 * @param options.logFile where npm start's output goes (its folder is created).
 * @param options.demo seed the demo calendar (default true); false starts an empty calendar.
 * @param options.vars settings for this run only (`npm start -- --var`).
 * @param options.timeoutMs how long to wait for the first 200 (default 240 000 ms).
 * @throws Error naming the log when npm start exits or does not answer in time (it is stopped).
 */
export async function startInstance(options: {
  logFile: string;
  demo?: boolean;
  vars?: Record<string, string>;
  probePath?: string;
  timeoutMs?: number;
}): Promise<Instance> {
  const persistTo = mkdtempSync(path.join(tmpdir(), "tec-instance-state-"));
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile);
  const args = ["start", "--", "--port", String(port), "--persist-to", persistTo];
  if (options.demo === false) args.push("--no-demo");
  for (const [name, value] of Object.entries(options.vars ?? {}))
    args.push("--var", `${name}:${value}`);
  // Its own process group: npm start stops wrangler and workerd when that group gets SIGTERM.
  const server = spawnGroup("npm", args, { cwd: ROOT });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  let gone = false;
  void exited(server).then(() => (gone = true));

  // Should the caller exit without stopping it (Ctrl-C), npm start still gets its SIGTERM: not a
  // SIGKILL, which would leave its wrangler and workerd running.
  const lastResort = () => {
    try {
      if (server.pid) process.kill(-server.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    rmSync(persistTo, { recursive: true, force: true });
  };
  process.once("exit", lastResort);
  const stop = async () => {
    await stopGroup(server, 20_000);
    process.off("exit", lastResort);
    log.end();
    rmSync(persistTo, { recursive: true, force: true });
  };

  const probe = `${origin}${options.probePath ?? "/wp-json/tribe/events/v1/events?per_page=1"}`;
  const deadline = Date.now() + (options.timeoutMs ?? 240_000);
  const where = path.relative(ROOT, options.logFile);
  try {
    for (;;) {
      if (gone) throw new Error(`npm start exited before answering (log: ${where})`);
      if (Date.now() > deadline)
        throw new Error(`npm start did not answer ${probe} (log: ${where})`);
      try {
        const res = await fetch(probe, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        if (res.status === 200) break;
      } catch {
        // Not listening yet.
      }
      await sleep(250);
    }
    const adminPassword = readDevVars().ADMIN_APP_PASSWORD;
    if (!adminPassword) throw new Error("npm start wrote no ADMIN_APP_PASSWORD into .dev.vars");
    return { origin, persistTo, adminPassword, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
