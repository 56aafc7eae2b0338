/**
 * The independent RFC 5545 expander, on the Node side of the tests: python-dateutil (Debian's
 * `python3-dateutil`) through `expand.py` beside this file, one `python3` process per batch of
 * cases. vitest.config.ts binds it into workerd as the service `RFC5545` (a miniflare service
 * binding whose handler runs here), so the tests inside workerd ask it with
 * `env.RFC5545.fetch(…)` (test/support/rfc5545/ask.ts).
 *
 * A machine without dateutil gets it once, the first time it is asked: `apt-get install -y
 * python3-dateutil` (after `apt-get update` when the package lists are missing); a fresh CI
 * machine has Debian's `python3` and runs as root.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const PYTHON = "/usr/bin/python3";
const SCRIPT = path.join(import.meta.dirname, "expand.py");

let ready: Promise<void> | undefined;

/** Installs python-dateutil unless `python3` already imports it. */
async function ensureDateutil(): Promise<void> {
  try {
    await run(PYTHON, ["-c", "import dateutil"]);
    return;
  } catch {
    // Not installed: Debian's package.
  }
  const apt = (...args: string[]) =>
    run("apt-get", args, { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  try {
    await apt("install", "-y", "-q", "python3-dateutil");
  } catch {
    await apt("update", "-q");
    await apt("install", "-y", "-q", "python3-dateutil");
  }
  await run(PYTHON, ["-c", "import dateutil"]);
}

/** Expands a batch of cases (a JSON list, test/support/rfc5545/ask.ts) with dateutil. */
export async function expandWithDateutil(cases: string): Promise<string> {
  ready ??= ensureDateutil();
  await ready;
  return new Promise((resolve, reject) => {
    const child = execFile(
      PYTHON,
      [SCRIPT],
      { maxBuffer: 256 * 1024 * 1024, timeout: 300_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
    );
    child.stdin?.end(cases);
  });
}

/** The service binding's handler: a POST of cases answers their expansions. */
export async function rfc5545Service(request: Request): Promise<Response> {
  try {
    return new Response(await expandWithDateutil(await request.text()), {
      headers: { "content-type": "application/json" },
    });
  } catch (err) {
    return new Response(String(err), { status: 500 });
  }
}
