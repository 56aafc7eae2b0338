/**
 * The processes of a benchmark run: every one runs in its own process group (scripts/lib/processes.ts
 * `spawnGroup`, which also stops live groups on Ctrl-C), remembered here so that the end of the run
 * can check in /proc that none is left; the two `wrangler dev` servers (the real worker over a dataset
 * directory, the static worker of bench/static), both on 127.0.0.1 and a free port; and the CPU time
 * of a server's processes, read from /proc.
 *
 * CPU: `utime + stime` (fields 14 and 15 of `/proc/<pid>/stat`: all threads, in clock ticks of
 * `getconf CLK_TCK`) of every process in the server's group, by role: `runtime`, the workerd that runs
 * the worker and, in local mode, its D1, KV and edge cache; `proxy`, wrangler's proxy workerd on the
 * public port, which passes every request and body through; `wrangler`, its node CLI; `other`
 * (esbuild). The report's CPU column counts `runtime` only (bench/README.md, "How CPU is counted").
 */
import { type ChildProcess, execFileSync, type SpawnOptions } from "node:child_process";
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { ROOT } from "../lib/paths";
import { exited, sleep, spawnGroup, stopGroup } from "../lib/processes";
import { spawnWrangler, stripAnsi } from "../lib/wrangler";

const groups = new Set<number>();

/** `spawnGroup`, its group remembered for the final check. */
export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}) {
  const child = spawnGroup(command, args, options);
  if (child.pid) groups.add(child.pid);
  return child;
}

/**
 * Waits for `child` to end; resolves with its stdout; `onStderr` sees its stderr as it comes.
 * @throws Error naming `what`, with the tail of its output, when it exits non-zero.
 */
export async function finished(
  child: ChildProcess,
  what: string,
  onStderr?: (text: string) => void,
): Promise<string> {
  let stdout = "";
  let all = "";
  child.stdout?.setEncoding("utf8").on("data", (s: string) => {
    stdout += s;
    all += s;
  });
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    all += s;
    onStderr?.(s);
  });
  const code = await new Promise<number>((resolve) => {
    child.once("close", (c, signal) => resolve(c ?? (signal ? 128 : 1)));
    child.once("error", () => resolve(127));
  });
  if (code !== 0)
    throw new Error(
      `${what} failed (exit ${code}):\n${stripAnsi(all).trim().split("\n").slice(-30).join("\n")}`,
    );
  return stdout;
}

/** Runs `wrangler <args>` (the project's, no telemetry) to completion; its stdout. */
export function wrangler(args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawnWrangler(args, env);
  if (child.pid) groups.add(child.pid);
  return finished(child, `wrangler ${args.join(" ")}`);
}

interface ProcStat {
  pid: number;
  comm: string;
  pgid: number;
  /** utime + stime, clock ticks. */
  ticks: number;
}

/** `/proc/<pid>/stat` of one live process, or null (gone, or a zombie). */
function procStat(pid: number | string): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // pid (comm) state ppid pgrp … utime(14) stime(15); comm may contain spaces and parentheses.
    const close = stat.lastIndexOf(")");
    const f = stat.slice(close + 2).split(" ");
    if (f[0] === "Z") return null;
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    return { pid: Number(pid), comm, pgid: Number(f[2]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

const allProcs = () =>
  readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map(procStat)
    .filter((p): p is ProcStat => p !== null);

/** Live processes of the groups this run started. */
export const stragglers = () => allProcs().filter((p) => groups.has(p.pgid));
export const groupCount = () => groups.size;
export function killStragglers(): void {
  for (const pgid of groups)
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
}

export type CpuRole = "runtime" | "proxy" | "wrangler" | "other";
export const CPU_ROLES: CpuRole[] = ["runtime", "proxy", "wrangler", "other"];
export type CpuTicks = Record<CpuRole, number>;
export interface ServerProcess {
  pid: number;
  role: CpuRole;
}

/** `getconf CLK_TCK` (100 on Linux unless configured otherwise). */
export const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The processes of a server with their roles (one scan of /proc, before a load phase). */
export function serverProcesses(server: DevServer): ServerProcess[] {
  const out = allProcs()
    .filter((p) => p.pgid === server.child.pid)
    .map((p) => {
      let role: CpuRole = p.comm === "node" ? "wrangler" : "other";
      if (p.comm === "workerd") {
        const cmdline = readFileSync(`/proc/${p.pid}/cmdline`, "utf8").replace(/\0/g, " ");
        role = cmdline.includes(`--socket-addr=entry=127.0.0.1:${server.port}`)
          ? "proxy"
          : "runtime";
      }
      return { pid: p.pid, role };
    });
  // Should wrangler ever run the worker in the proxy's workerd, that one process is the runtime.
  if (!out.some((p) => p.role === "runtime"))
    for (const p of out) if (p.role === "proxy") p.role = "runtime";
  return out;
}

/** Clock ticks of each process now (a few small file reads). */
export const readTicks = (procs: ServerProcess[]) =>
  new Map(procs.map((p) => [p.pid, procStat(p.pid)?.ticks]));

/** Ticks per role between two readings, over the processes alive at both. */
export function ticksBetween(
  procs: ServerProcess[],
  before: Map<number, number | undefined>,
  after: Map<number, number | undefined>,
): CpuTicks {
  const ticks: CpuTicks = { runtime: 0, proxy: 0, wrangler: 0, other: 0 };
  for (const p of procs) {
    const a = before.get(p.pid);
    const b = after.get(p.pid);
    if (a !== undefined && b !== undefined) ticks[p.role] += b - a;
  }
  return ticks;
}

/**
 * Waits until the processes are idle (at most 2 clock ticks in 250 ms, for at most 15 s): autocannon
 * stops by the clock with answers outstanding, which the server finishes anyway; they would slow the
 * next phase down and be billed to it. Returns the milliseconds waited.
 */
export async function settle(procs: ServerProcess[]): Promise<number> {
  const t0 = performance.now();
  let last = readTicks(procs);
  while (performance.now() - t0 < 15_000) {
    await sleep(250);
    const now = readTicks(procs);
    const used = ticksBetween(procs, last, now);
    if (CPU_ROLES.reduce((n, r) => n + used[r], 0) <= 2) break;
    last = now;
  }
  return performance.now() - t0;
}

export interface DevServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Port of wrangler's inspector proxy (Chrome DevTools Protocol; `/json` lists the targets). */
  inspectorPort: number;
  child: ChildProcess;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0, exclusive: true }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/**
 * Starts `wrangler dev <args>` on 127.0.0.1 (free ports), its output in `<logDir>/<name>.log`, and
 * waits until `probePath` answers (any status). The environment turns off wrangler's local trace
 * store (`X_LOCAL_OBSERVABILITY`: it would write every request's trace into SQLite, work a deployed
 * worker does not do, on the same cores), its resource explorer, and config watching.
 * @throws Error with the log's tail when wrangler exits or nothing answers within 2 minutes.
 */
export async function startDev(name: string, args: string[], logDir: string, probePath: string) {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const child = spawnWrangler(
    ["dev", ...args, "--ip", "127.0.0.1", "--port", String(port)]
      .concat(["--inspector-port", String(inspectorPort), "--show-interactive-dev-session=false"])
      .concat(["--log-level", "warn"]),
    {
      X_LOCAL_OBSERVABILITY: "false",
      X_LOCAL_EXPLORER: "false",
      WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true",
    },
  );
  if (child.pid) groups.add(child.pid);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let gone = false;
  void exited(child).then(() => (gone = true));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (!gone && Date.now() < deadline) {
    try {
      await (await fetch(origin + probePath, { signal: AbortSignal.timeout(5000) })).arrayBuffer();
      return { origin, port, inspectorPort, child } satisfies DevServer;
    } catch {
      await sleep(150); // not listening yet
    }
  }
  await stopGroup(child);
  const tail = readFileSync(logFile, "utf8").trim().split("\n").slice(-40).join("\n");
  throw new Error(
    `${name}: ${gone ? "wrangler dev exited" : "no answer in time"}. Log ${path.relative(ROOT, logFile)}:\n${tail}`,
  );
}

/** Stops a server's whole process group (SIGTERM, then SIGKILL after 5 s). */
export async function stopDev(server: DevServer | undefined): Promise<void> {
  if (server) await stopGroup(server.child);
}

/**
 * Bundles the worker as it is now (`wrangler deploy --dry-run --outdir`), so that a run measures one
 * build even while src/ is edited (`wrangler dev` on src/ would rebuild and reload). Returns the entry.
 */
export async function buildSnapshot(outDir: string): Promise<string> {
  await wrangler(["deploy", "--dry-run", "--outdir", outDir]);
  return path.join(outDir, "index.js");
}
