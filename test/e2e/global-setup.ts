/**
 * Runs once in Node before the end-to-end suite: starts the service as a user runs it,
 * `npm start -- --port <free port> --persist-to <fresh temporary folder>` (wrangler.toml, the
 * `.dev.vars` npm start writes, migrations, strings, the demo calendar; the developer's own
 * `.wrangler/state` is never touched), waits for it to answer, and hands the tests its origin, the
 * administrator's application password (from `.dev.vars`) and `CONTENT_VERSION_TTL_MS`. The
 * teardown sends SIGTERM to npm start's process group (npm start then stops wrangler and workerd),
 * SIGKILL after 20 s, and removes the folder. npm start's output goes to test-output/e2e-server.log.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { readDevVars, readWranglerVars } from "../../scripts/lib/config";
import { ROOT } from "../../scripts/lib/paths";
import { exited, sleep, stopGroup } from "../../scripts/lib/processes";

const HOST = "127.0.0.1";
/** Where npm start writes its log (git-ignored). */
export const SERVER_LOG = path.join(ROOT, "test-output", "e2e-server.log");

declare module "vitest" {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the running `npm start`. */
    e2eOrigin: string;
    /** ADMIN_APP_PASSWORD from `.dev.vars`: the application password of user 1, `admin`. */
    e2eAdminPassword: string;
    /** CONTENT_VERSION_TTL_MS the service runs with (`.dev.vars`, else wrangler.toml). */
    e2eContentVersionTtlMs: number;
    /** The `--persist-to` folder of the running service. */
    e2ePersistTo: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const persistTo = mkdtempSync(path.join(tmpdir(), "tec-e2e-state-"));
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
  const log = createWriteStream(SERVER_LOG);
  const t0 = performance.now();
  // Its own process group, which the teardown signals; npm start puts wrangler and workerd in a
  // group of their own and stops it when it gets SIGTERM.
  const server = spawn("npm", ["start", "--", "--port", String(port), "--persist-to", persistTo], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  // Should Vitest exit without the teardown (Ctrl-C), npm start still gets its SIGTERM: not a
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
  let gone = false;
  void exited(server).then(() => (gone = true));

  const teardown = async () => {
    // npm start stops its wrangler and workerd on SIGTERM; give it time before anything is killed.
    await stopGroup(server, 20_000);
    process.off("exit", lastResort);
    log.end();
    rmSync(persistTo, { recursive: true, force: true });
  };

  try {
    const probe = `${origin}/wp-json/tribe/events/v1/events?per_page=1`;
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (gone) throw new Error(`npm start exited before answering (log: ${SERVER_LOG})`);
      if (Date.now() > deadline) throw new Error(`npm start did not answer ${probe} in 240 s`);
      try {
        const res = await fetch(probe, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        if (res.status === 200) break;
      } catch {
        // Not listening yet.
      }
      await sleep(250);
    }
    const devVars = readDevVars();
    const password = devVars.ADMIN_APP_PASSWORD;
    if (!password) throw new Error("npm start wrote no ADMIN_APP_PASSWORD into .dev.vars");
    const ttl = Number(
      devVars.CONTENT_VERSION_TTL_MS ?? readWranglerVars().CONTENT_VERSION_TTL_MS ?? 1000,
    );
    project.provide("e2eOrigin", origin);
    project.provide("e2eAdminPassword", password);
    project.provide("e2eContentVersionTtlMs", ttl);
    project.provide("e2ePersistTo", persistTo);
    console.log(
      `e2e: npm start answered on ${origin} after ${((performance.now() - t0) / 1000).toFixed(1)} s (state ${persistTo}, log ${path.relative(ROOT, SERVER_LOG)})`,
    );
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
