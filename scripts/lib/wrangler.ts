/**
 * Running the project's wrangler (node_modules/wrangler, the same file `npx wrangler` runs) under the
 * project's Node 22 (the `node` devDependency), whatever Node started the script. Calling the file
 * directly instead of through `npx` saves about 0.7 s per call and leaves no npx process between the
 * script and wrangler, so stopping wrangler's process group stops everything it started.
 *
 * Wrangler asks for confirmation (e.g. `d1 migrations apply`) only when both stdin and stdout are
 * terminals; here stdin is closed and output piped, so it takes its non-interactive default (yes).
 */

import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { PATHS, ROOT } from "./paths";
import { sleep, spawnGroup } from "./processes";

/** Wrangler failed: `message` names the command; `output` is the tail of what it printed. */
export class WranglerError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number,
    readonly output: string,
  ) {
    super(
      `wrangler ${args.join(" ")} exited with ${code}${output ? `:\n${indent(tail(output, 30))}` : ""}${hint(output)}`,
    );
    this.name = "WranglerError";
  }
}

/** Environment of every wrangler we start: no telemetry, no `Request.cf` download (works offline). */
export function wranglerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    ...extra,
  };
}

function nodeBinary(): string {
  if (existsSync(PATHS.projectNode)) return PATHS.projectNode;
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= 22) return process.execPath;
  throw new Error(
    `wrangler needs Node 22, which comes with the project's "node" devDependency, but ${PATHS.projectNode} is missing ` +
      `(was npm install run with --ignore-scripts?). Run \`npm install\` again.`,
  );
}

/**
 * Starts `wrangler <args>` in its own process group with stdin closed and output piped.
 * @throws Error when wrangler is not installed or no Node 22 is available.
 */
export function spawnWrangler(args: string[], env: Record<string, string> = {}): ChildProcess {
  if (!existsSync(PATHS.wranglerBin))
    throw new Error("wrangler is not installed: run `npm install` first.");
  return spawnGroup(nodeBinary(), [PATHS.wranglerBin, ...args], {
    cwd: ROOT,
    env: wranglerEnv(env),
  });
}

/**
 * Where `--local` commands keep their state: wrangler's default (`.wrangler/state`) unless set
 * (an absolute path, passed on as `--persist-to`), by `npm start -- --persist-to DIR` or by tests
 * to a temporary folder.
 */
export const localState: { persistTo?: string } = {};

/** Attempts of a local command that fails with SQLite's busy error, the first included. */
export const BUSY_ATTEMPTS = 5;

/** Whether wrangler failed because another process held the local SQLite database. */
export const isBusy = (err: unknown) =>
  err instanceof WranglerError && /SQLITE_BUSY|database is locked/i.test(err.output);

/**
 * Runs `attempt` again while it fails with SQLITE_BUSY, at most `attempts` times in all, waiting
 * `delayMs`, then twice that, and so on, between attempts.
 * @throws the last error; any other error at once.
 */
export async function retryBusy<T>(
  attempt: () => Promise<T>,
  attempts = BUSY_ATTEMPTS,
  delayMs = 300,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isBusy(err) || n >= attempts) throw err;
      await sleep(delayMs * 2 ** (n - 1));
    }
  }
}

/** The tail of the queue of local commands: each starts when the one before it has ended. */
let localQueue: Promise<unknown> = Promise.resolve();

/** Local commands running now, and the most that ever ran at once (1: they never overlapped). */
export const localRuns = { running: 0, most: 0 };

/**
 * Runs `wrangler <args>` to completion and returns its stdout. Commands on the local state
 * (`--local`) never overlap, whoever starts them and when: D1 and KV share the SQLite files of
 * `.wrangler/state`, and two wranglers writing them at once fail with `database is locked:
 * SQLITE_BUSY`. They run one after another, in the order they were started, and a busy
 * database left by another process (e.g. a `wrangler dev`) is retried up to `BUSY_ATTEMPTS` times.
 * @throws WranglerError with the tail of its output when it exits non-zero.
 * @example const json = JSON.parse(await runWrangler(["d1", "execute", "DB", "--local", "--json", "--command", "SELECT 1"]))
 */
export function runWrangler(args: string[]): Promise<string> {
  if (!args.includes("--local")) return runOnce(args);
  const local = localState.persistTo ? [...args, "--persist-to", localState.persistTo] : args;
  const run = localQueue.then(async () => {
    localRuns.most = Math.max(localRuns.most, ++localRuns.running);
    try {
      return await retryBusy(() => runOnce(local));
    } finally {
      localRuns.running--;
    }
  });
  localQueue = run.catch(() => undefined);
  return run;
}

async function runOnce(args: string[]): Promise<string> {
  const child = spawnWrangler(args);
  let stdout = "";
  let all = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    all += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    all += chunk;
  });
  // "close", not "exit": it fires once the output pipes are drained.
  const code = await new Promise<number>((resolve) => {
    child.once("close", (c, signal) => resolve(c ?? (signal ? 128 : 1)));
    child.once("error", () => resolve(127));
  });
  if (code !== 0) throw new WranglerError(args, code, stripAnsi(all).trim());
  return stdout;
}

/** `--local` or `--remote`, for the commands that take either. */
export const where = (remote: boolean) => (remote ? "--remote" : "--local");

/** Removes terminal colour codes (wrangler colours its errors even into a pipe). */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

function hint(output: string): string {
  if (/CLOUDFLARE_API_TOKEN/.test(output))
    return "\n  → For --remote, log in once with `npx wrangler login`, or set CLOUDFLARE_API_TOKEN.";
  return "";
}

function tail(text: string, lines: number): string {
  return text.split("\n").slice(-lines).join("\n");
}

function indent(text: string): string {
  return text.replace(/^/gm, "    ");
}
