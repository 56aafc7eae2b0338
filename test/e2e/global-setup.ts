/**
 * Runs once in Node before the end-to-end suite: starts the service as a user runs it,
 * `npm start -- --port <free port> --persist-to <fresh temporary folder>` (wrangler.toml, the
 * `.dev.vars` npm start writes, migrations, strings, the demo calendar; the developer's own
 * `.wrangler/state` is never touched), waits for it to answer, and hands the tests its origin, the
 * administrator's application password (from `.dev.vars`) and `CONTENT_VERSION_TTL_MS`. The
 * teardown sends SIGTERM to npm start's process group (npm start then stops wrangler and workerd),
 * SIGKILL after 20 s, and removes the folder. npm start's output goes to test-output/e2e-server.log.
 */
import path from "node:path";
import type { TestProject } from "vitest/node";
import { readDevVars, readWranglerVars } from "../../scripts/lib/config";
import { startInstance } from "../../scripts/lib/instance";
import { ROOT } from "../../scripts/lib/paths";

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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const t0 = performance.now();
  const server = await startInstance({ logFile: SERVER_LOG });
  const ttl = Number(
    readDevVars().CONTENT_VERSION_TTL_MS ?? readWranglerVars().CONTENT_VERSION_TTL_MS ?? 1000,
  );
  project.provide("e2eOrigin", server.origin);
  project.provide("e2eAdminPassword", server.adminPassword);
  project.provide("e2eContentVersionTtlMs", ttl);
  project.provide("e2ePersistTo", server.persistTo);
  console.log(
    `e2e: npm start answered on ${server.origin} after ${((performance.now() - t0) / 1000).toFixed(1)} s (state ${server.persistTo}, log ${path.relative(ROOT, SERVER_LOG)})`,
  );
  return server.stop;
}
