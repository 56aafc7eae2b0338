/**
 * CPU time of a dev server's processes, read from /proc: `utime + stime` (fields 14 and 15 of
 * `/proc/<pid>/stat`, all threads of the process, in clock ticks of `getconf CLK_TCK`) of every process
 * in the server's process group (servers.ts: each `wrangler dev` leads its own group).
 *
 * `wrangler dev` runs, in that group:
 * - `node` (wrangler's CLI; `wrangler`): starts and supervises the rest;
 * - a `workerd` listening on the public port (`proxy`): wrangler's proxy worker, which every request
 *   passes through on its way to the worker and back (body included);
 * - a `workerd` on an ephemeral port with the inspector (`runtime`): the worker itself, and in local
 *   mode its D1 (a SQLite Durable Object), KV and edge cache, all in that one process;
 * - `esbuild` and anything else (`other`).
 * The proxy, wrangler and esbuild are dev-server plumbing that a deployed worker does not have, and
 * that costs the same for the real and the static worker with the same body; the report's CPU column
 * counts `runtime` only and shows the others beside it.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export type CpuRole = "runtime" | "proxy" | "wrangler" | "other";
export const CPU_ROLES: CpuRole[] = ["runtime", "proxy", "wrangler", "other"];

/** Clock ticks per role. */
export type CpuTicks = Record<CpuRole, number>;

let clkTck: number | undefined;

/** `getconf CLK_TCK` (100 on Linux unless configured otherwise). */
export function clockTicksPerSecond(): number {
  if (clkTck === undefined) {
    try {
      clkTck = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clkTck = 100;
    }
  }
  return clkTck;
}

function roleOf(comm: string, cmdline: string, port: number): CpuRole {
  if (comm === "workerd")
    return cmdline.includes(`--socket-addr=entry=127.0.0.1:${port}`) ? "proxy" : "runtime";
  if (comm === "node") return "wrangler";
  return "other";
}

interface GroupProcess {
  pid: number;
  role: CpuRole;
}

/** `utime + stime` of one process in clock ticks, or null when it is gone. */
function processTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // pid (comm) state ppid pgrp … utime(14) stime(15); comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" ? null : Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Every live process of group `pgid` with its role (one scan of /proc). */
export function groupProcesses(pgid: number, port: number): GroupProcess[] {
  const out: GroupProcess[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      if (Number(fields[2]) !== pgid || fields[0] === "Z") continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ");
      out.push({ pid: Number(name), role: roleOf(comm, cmdline, port) });
    } catch {
      // gone meanwhile
    }
  }
  // Should wrangler ever run the worker in the proxy's workerd, that one process is the runtime.
  if (!out.some((p) => p.role === "runtime"))
    for (const p of out) if (p.role === "proxy") p.role = "runtime";
  return out;
}

/** A reading of a server's processes, to subtract from a later one. */
export interface CpuReading {
  procs: GroupProcess[];
  at: number;
  ticks: Map<number, number>;
}

/**
 * Reads the CPU ticks of `procs` (from `groupProcesses`, listed once before a load phase: a reading
 * during the load then costs one small file read per process).
 */
export function readCpu(procs: GroupProcess[]): CpuReading {
  const ticks = new Map<number, number>();
  for (const p of procs) {
    const t = processTicks(p.pid);
    if (t !== null) ticks.set(p.pid, t);
  }
  return { procs, at: performance.now(), ticks };
}

/** CPU used between two readings, per role. */
export interface CpuUsage {
  /** Clock ticks per role (see the module comment). */
  ticks: CpuTicks;
  /** `getconf CLK_TCK`. */
  clkTck: number;
  /** Wall-clock seconds between the readings. */
  seconds: number;
  /** Processes per role that were alive at both readings (a change means a restart). */
  processes: Record<CpuRole, number>;
}

/** The CPU used between `before` and `after` (processes alive at both). */
export function cpuBetween(before: CpuReading, after: CpuReading): CpuUsage {
  const ticks: CpuTicks = { runtime: 0, proxy: 0, wrangler: 0, other: 0 };
  const processes: Record<CpuRole, number> = { runtime: 0, proxy: 0, wrangler: 0, other: 0 };
  for (const p of before.procs) {
    const a = before.ticks.get(p.pid);
    const b = after.ticks.get(p.pid);
    if (a === undefined || b === undefined) continue;
    ticks[p.role] += b - a;
    processes[p.role]++;
  }
  return {
    ticks,
    clkTck: clockTicksPerSecond(),
    seconds: (after.at - before.at) / 1000,
    processes,
  };
}

/**
 * Waits until the processes are idle: at most `idleTicks` clock ticks in `stepMs` (a server still
 * working off the requests a finished load phase left behind — autocannon stops by the clock, with
 * answers outstanding — would slow the next phase down and bill it for their CPU).
 * @returns the milliseconds waited (`maxMs` if it never became idle).
 */
export async function settle(
  procs: GroupProcess[],
  { idleTicks = 2, stepMs = 250, maxMs = 15_000 } = {},
): Promise<number> {
  const t0 = performance.now();
  let last = readCpu(procs);
  while (performance.now() - t0 < maxMs) {
    await new Promise((r) => setTimeout(r, stepMs));
    const now = readCpu(procs);
    const u = cpuBetween(last, now);
    if (CPU_ROLES.reduce((n, r) => n + u.ticks[r], 0) <= idleTicks) break;
    last = now;
  }
  return performance.now() - t0;
}

/** Several usages (rounds of one phase) summed. */
export function sumCpu(usages: CpuUsage[]): CpuUsage | undefined {
  if (!usages.length) return undefined;
  const ticks: CpuTicks = { runtime: 0, proxy: 0, wrangler: 0, other: 0 };
  let seconds = 0;
  for (const u of usages) {
    for (const r of CPU_ROLES) ticks[r] += u.ticks[r];
    seconds += u.seconds;
  }
  const last = usages[usages.length - 1];
  return { ticks, clkTck: last.clkTck, seconds, processes: last.processes };
}

/** Microseconds of CPU per request of `roles` (default: the runtime workerd), or null without requests. */
export function cpuMicrosPerRequest(
  usage: CpuUsage | undefined,
  requests: number,
  roles: CpuRole[] = ["runtime"],
): number | null {
  if (!usage || requests <= 0) return null;
  const ticks = roles.reduce((n, r) => n + usage.ticks[r], 0);
  return (ticks / usage.clkTck / requests) * 1e6;
}
