/**
 * `npx tsx scripts/bench/profile.ts [--dataset demo] [--requests 400] [--state miss|hit|304] [--top 40] "<path and query>"`
 *
 * Where does the worker's own JavaScript spend a request, in workerd? Starts the real worker (a
 * snapshot bundle of src/, as `npm run bench` does) over a bench dataset (`.wrangler/bench/<dataset>`,
 * built by `npm run bench`), attaches to its isolate through wrangler's inspector (Chrome DevTools
 * Protocol), records a sampling CPU profile while one client sends `--requests` requests, and prints
 * the self time per file and per function, as a share of the busy time and in µs per request.
 *
 * Only the worker's isolate is profiled: local D1 and the local cache run in other isolates of the
 * same workerd (their time shows as idle while the worker awaits them; `npm run bench` counts it in
 * the runtime workerd's CPU). States: `miss`, a fresh `_bench=<n>` per request; `hit`, one URL,
 * repeated; `304`, the same with `If-None-Match` of its ETag.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { readSettings } from "../lib/config";
import { PATHS, ROOT } from "../lib/paths";
import { stopAll } from "../lib/processes";
import { type CpuProfile, printSelfTimes } from "./cpu-profile";
import { buildSnapshot, type DevServer, startDev, stopDev } from "./servers";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dataset: { type: "string", default: "demo" },
    requests: { type: "string", default: "400" },
    state: { type: "string", default: "miss" },
    top: { type: "string", default: "40" },
  },
});
const route = positionals[0] ?? "/events?per_page=50";
const requests = Number(values.requests);
const state = values.state;
if (!["miss", "hit", "304"].includes(state) || !(requests > 0)) {
  console.error(
    "usage: profile.ts [--dataset demo] [--requests 400] [--state miss|hit|304] [--top 40] <path>",
  );
  process.exit(2);
}

/** A minimal CDP client over the global WebSocket (Node ≥ 22) to the worker's isolate. */
async function connect(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as Array<{
    webSocketDebuggerUrl: string;
    title?: string;
  }>;
  const target = targets.find((t) => !/proxy/i.test(t.title ?? "")) ?? targets[0];
  // wrangler's inspector proxy only accepts DevTools' origin (undici's WebSocket takes headers).
  const ws = new WebSocket(target.webSocketDebuggerUrl, {
    headers: { Origin: "https://devtools.devprod.cloudflare.dev" },
  } as unknown as string[]);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", reject, { once: true });
  });
  let next = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.addEventListener("message", (ev) => {
    const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: unknown };
    if (msg.id !== undefined)
      waiting.get(msg.id)?.(msg.error ? Promise.reject(msg.error) : msg.result);
  });
  return {
    send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = next++;
      ws.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve) => waiting.set(id, resolve as (r: unknown) => void));
    },
    close: () => ws.close(),
  };
}

const settings = readSettings();
const benchDir = path.join(ROOT, ".wrangler", "bench");
const nsRoot = `/${settings.restPrefix}/${settings.vendor}/events/v1`;
let server: DevServer | undefined;
try {
  const entry = await buildSnapshot(path.join(benchDir, "build-profile"));
  const args = [
    entry,
    "--no-bundle",
    "--config",
    PATHS.wranglerToml,
    "--persist-to",
    path.join(benchDir, values.dataset),
  ];
  server = await startDev("profile", args, path.join(benchDir, "logs"), `${nsRoot}/`);
  const origin = server.origin;
  const url = (n: number) =>
    `${origin}${nsRoot}${route}${state === "miss" ? `${route.includes("?") ? "&" : "?"}_bench=p${Date.now()}-${n}` : ""}`;
  const first = await fetch(url(-1));
  await first.arrayBuffer();
  const headers: Record<string, string> =
    state === "304" ? { "if-none-match": first.headers.get("etag") ?? "" } : {};
  for (let i = 0; i < 50; i++) await (await fetch(url(-2 - i), { headers })).arrayBuffer();
  const cdp = await connect(server.inspectorPort);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  const t0 = performance.now();
  for (let i = 0; i < requests; i++) await (await fetch(url(i), { headers })).arrayBuffer();
  const wall = performance.now() - t0;
  const { profile } = await cdp.send<{ profile: CpuProfile }>("Profiler.stop");
  cdp.close();
  const { busy, idle } = printSelfTimes(profile, requests, Number(values.top));
  console.log(
    `\n${requests} requests (${state}) of ${route}: ${(wall / requests).toFixed(2)} ms each at one client; worker isolate busy ${(busy / requests).toFixed(0)} µs per request (idle ${(idle / requests).toFixed(0)} µs)`,
  );
} finally {
  await stopDev(server);
  await stopAll();
}
