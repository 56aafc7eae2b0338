/**
 * Child processes that never outlive the script: each runs in its own process group (so a Ctrl-C in
 * the terminal reaches only this script, which then stops the whole group: wrangler and the workerd it
 * started), and SIGINT/SIGTERM/SIGHUP stop every live group before the script exits.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import net from "node:net";

/** Ids of the process groups we started and have not yet seen empty. */
const groups = new Set<number>();

// Last resort (an uncaught error, a plain process.exit): nothing we started may outlive us.
process.on("exit", () => {
  for (const pgid of groups) signalGroup(pgid, "SIGKILL");
});

/**
 * Spawns `command` as the leader of a new process group (its group id is its pid), tracked until
 * the whole group is gone, not just the leader: a crashed wrangler may leave its workerd behind.
 * Output is piped unless `options.stdio` says otherwise; stdin is closed.
 */
export function spawnGroup(
  command: string,
  args: string[],
  options: SpawnOptions = {},
): ChildProcess {
  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
    detached: true,
  });
  const pgid = child.pid;
  if (pgid !== undefined) {
    groups.add(pgid);
    child.once("exit", () => {
      if (!groupAlive(pgid)) groups.delete(pgid);
    });
  }
  return child;
}

/** True while any process of the group led by `pgid` is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Stops a process group (given by its leader, or its id): SIGTERM (wrangler then shuts workerd
 * down), SIGKILL for whatever is left after `graceMs` milliseconds. Resolves once no process of the
 * group remains.
 */
export async function stopGroup(group: ChildProcess | number, graceMs = 5000): Promise<void> {
  const pgid = typeof group === "number" ? group : group.pid;
  if (pgid === undefined) return;
  signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(50);
  if (groupAlive(pgid)) {
    signalGroup(pgid, "SIGKILL");
    while (groupAlive(pgid)) await sleep(20);
  }
  groups.delete(pgid);
}

/** Stops every group we started that still has a process (see {@link stopGroup}). */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...groups].map((pgid) => (groupAlive(pgid) ? stopGroup(pgid) : groups.delete(pgid))),
  );
}

const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = {
  SIGHUP: 129,
  SIGINT: 130,
  SIGTERM: 143,
};

/**
 * On SIGINT, SIGTERM or SIGHUP: prints `message`, stops every live group and exits with 128 + the
 * signal number. A second signal more than 1.5 s later forces the exit (after SIGKILLing the groups).
 */
export function exitOnSignals(message = "Stopping…"): void {
  let stoppingSince = 0;
  for (const signal of Object.keys(SIGNAL_EXIT) as NodeJS.Signals[]) {
    process.on(signal, () => {
      const code = SIGNAL_EXIT[signal] ?? 1;
      if (stoppingSince) {
        // One Ctrl-C arrives several times (from the terminal, then relayed by npm and tsx): only a
        // second press, later, means "now".
        if (Date.now() - stoppingSince < 1500) return;
        process.exit(code); // the exit hook SIGKILLs the groups
      }
      stoppingSince = Date.now();
      console.log(`\n${message}`);
      void stopAll().finally(() => process.exit(code));
    });
  }
}

/** Resolves when `child` exits, with its exit code (or 128 + signal). */
export function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once("exit", (code, signal) =>
      resolve(code ?? 128 + (signal ? (osSignals[signal] ?? 0) : 0)),
    );
    child.once("error", () => resolve(127));
  });
}

const osSignals: Partial<Record<NodeJS.Signals, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGKILL: 9,
  SIGTERM: 15,
};

/**
 * True when nothing listens on `host:port` (we could bind it ourselves), false when it is taken.
 * @example if (!(await portFree("127.0.0.1", 8787))) throw new Error("port 8787 is in use")
 */
export function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
