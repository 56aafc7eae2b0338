/**
 * Every process the benchmark starts runs in its own process group (scripts/lib/processes.ts
 * `spawnGroup`, which also stops live groups on Ctrl-C). This module remembers each group id, so that
 * the end of a run can check, from /proc, that none of those groups has a process left (wrangler,
 * workerd, esbuild) and kill any straggler.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { spawnGroup } from "../lib/processes";
import { spawnWrangler, WranglerError } from "../lib/wrangler";

const groups = new Set<number>();

/** Remembers the process group of `child` (it leads its own group). */
export function track(child: ChildProcess): ChildProcess {
  if (child.pid) groups.add(child.pid);
  return child;
}

/** `spawnGroup`, tracked. */
export function spawnTracked(
  command: string,
  args: string[],
  options: SpawnOptions = {},
): ChildProcess {
  return track(spawnGroup(command, args, options));
}

/** `spawnWrangler` (the project's Node 22 + node_modules/wrangler, no telemetry), tracked. */
export function spawnWranglerTracked(
  args: string[],
  env: Record<string, string> = {},
): ChildProcess {
  return track(spawnWrangler(args, env));
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/**
 * Runs `wrangler <args>` to completion and returns its stdout.
 * @throws WranglerError with the output when it exits non-zero.
 */
export async function runWranglerTracked(args: string[]): Promise<string> {
  const child = spawnWranglerTracked(args);
  return collect(child, (code, all) => new WranglerError(args, code, all.replace(ANSI, "").trim()));
}

/** Waits for `child` to close; resolves with its stdout, rejects with `fail(code, all output)`. */
export async function collect(
  child: ChildProcess,
  fail: (code: number, output: string) => Error,
  onStderr?: (text: string) => void,
): Promise<string> {
  let stdout = "";
  let all = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    all += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    all += chunk;
    onStderr?.(chunk);
  });
  const code = await new Promise<number>((resolve) => {
    child.once("close", (c, signal) => resolve(c ?? (signal ? 128 : 1)));
    child.once("error", () => resolve(127));
  });
  if (code !== 0) throw fail(code, all);
  return stdout;
}

export interface Straggler {
  pid: number;
  pgid: number;
  command: string;
}

/** Live processes in any group this run started (read from /proc). */
export function stragglers(): Straggler[] {
  const out: Straggler[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid pgrp …; comm may contain spaces and parentheses.
      const close = stat.lastIndexOf(")");
      const command = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      const pgid = Number(fields[2]);
      if (fields[0] !== "Z" && groups.has(pgid)) out.push({ pid: Number(name), pgid, command });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Number of process groups started so far. */
export const groupCount = () => groups.size;

/** SIGKILLs every process of every tracked group. */
export function killTrackedGroups(): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
