/**
 * Debian's Chromium for the browser checks: `npx playwright install` cannot download a
 * browser on these machines, so playwright-core drives the system's `/usr/bin/chromium`, installed
 * with apt-get when it is missing (CI runs as root on Debian).
 */
import { spawn } from "node:child_process";
import { existsSync, openSync } from "node:fs";

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Flags for a headless Chromium on a machine without network: no sandbox (root in a container), no
 * GPU, and none of the background connections (updates, sync, QUIC probes) that would only fail.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function run(command: string, args: string[], log: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ["ignore", log, log],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
  });
}

/**
 * Makes sure `/usr/bin/chromium` exists: `apt-get update` and `apt-get install chromium` when it
 * does not (as root only), their output appended to `logFile`.
 * @returns whether it had to be installed.
 * @throws Error when it is missing and this is not root, or apt-get fails.
 */
export async function ensureChromium(logFile: string): Promise<boolean> {
  if (existsSync(CHROMIUM)) return false;
  if (process.getuid?.() !== 0)
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (sudo apt-get install chromium).`,
    );
  const log = openSync(logFile, "a");
  await run("apt-get", ["update", "-qq"], log);
  await run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], log);
  if (!existsSync(CHROMIUM))
    throw new Error(`apt-get installed chromium, but ${CHROMIUM} is missing`);
  return true;
}
