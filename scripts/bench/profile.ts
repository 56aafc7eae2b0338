/**
 * `npx tsx scripts/bench/profile.ts [--dataset demo] [--requests 400] [--state miss|hit|304] "<path and query>"`
 *
 * Where does the worker's own JavaScript spend a request? Starts the real worker (a
 * snapshot bundle of src/, as `npm run bench` does) over a bench dataset (`.wrangler/bench/<dataset>`,
 * built by `npm run bench`), attaches to its isolate through wrangler's inspector (Chrome DevTools
 * Protocol), records a sampling CPU profile while one client sends `--requests` requests in the
 * chosen state, and prints the self time per function and per file, as a share of the recorded time
 * and in µs per request.
 *
 * Only the worker's isolate is profiled: local D1 and the local cache run in other isolates of the
 * same workerd (their time shows here as `(idle)` while the worker awaits them; `npm run bench`
 * counts it in the runtime workerd's CPU).
 *
 * - `miss`: every request carries a fresh `_bench=<n>` (ignored by the API, part of the cache key);
 * - `hit`: one URL, repeated; `304`: the same with `If-None-Match` of its ETag.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { readSettings } from "../lib/config";
import { PATHS, ROOT } from "../lib/paths";
import { stopAll } from "../lib/processes";
import { buildSnapshot, type DevServer, startDev, stopDev } from "./servers";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

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
const state = values.state as "miss" | "hit" | "304";
if (!["miss", "hit", "304"].includes(state) || !(requests > 0)) {
  console.error(
    "usage: profile.ts [--dataset demo] [--requests 400] [--state miss|hit|304] <path>",
  );
  process.exit(2);
}

/** A minimal CDP client over the global WebSocket (Node ≥ 22). */
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

/** Self time (µs) per function and per file. */
function summarize(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const fns = new Map<string, number>();
  const files = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const { callFrame: f } = byId.get(id)!;
    total += us;
    const file = f.url ? f.url.split("/").slice(-1)[0] : `(${f.functionName || "native"})`;
    const fn = `${f.functionName || "(anonymous)"}  ${file}:${f.lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
    files.set(file, (files.get(file) ?? 0) + us);
  }
  return { fns, files, total };
}

function table(title: string, rows: Map<string, number>, total: number, limit: number) {
  console.log(`\n${title}`);
  for (const [name, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    console.log(
      `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / requests).toFixed(0).padStart(6)} µs/req  ${name}`,
    );
  }
}

async function main() {
  const settings = readSettings();
  const dir = path.join(ROOT, ".wrangler", "bench", String(values.dataset));
  const nsRoot = `/${settings.restPrefix}/${settings.vendor}/events/v1`;
  const entry = await buildSnapshot(path.join(ROOT, ".wrangler", "bench", "build-profile"));
  let server: DevServer | undefined;
  try {
    server = await startDev({
      name: "profile",
      args: [entry, "--no-bundle", "--config", PATHS.wranglerToml, "--persist-to", dir],
      logDir: path.join(ROOT, ".wrangler", "bench", "logs"),
      probePath: `${nsRoot}/`,
    });
    const url = (n: number) =>
      `${server!.origin}${nsRoot}${route}${state === "miss" ? `${route.includes("?") ? "&" : "?"}_bench=p${Date.now()}-${n}` : ""}`;
    const first = await fetch(url(-1));
    const etag = first.headers.get("etag") ?? "";
    await first.arrayBuffer();
    const headers: Record<string, string> = state === "304" ? { "if-none-match": etag } : {};
    for (let i = 0; i < 50; i++) await (await fetch(url(-2 - i), { headers })).arrayBuffer();
    const cdp = await connect(server.inspectorPort);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    const t0 = performance.now();
    for (let i = 0; i < requests; i++) {
      const res = await fetch(url(i), { headers });
      await res.arrayBuffer();
    }
    const wall = performance.now() - t0;
    const { profile } = await cdp.send<{ profile: Profile }>("Profiler.stop");
    cdp.close();
    const { fns, files, total } = summarize(profile);
    const idle = [...fns].filter(([k]) => k.startsWith("(idle)")).reduce((s, [, v]) => s + v, 0);
    console.log(
      `${requests} requests (${state}) of ${route}: ${(wall / requests).toFixed(2)} ms each at one client; ` +
        `worker isolate busy ${((total - idle) / requests).toFixed(0)} µs per request (idle ${(idle / requests).toFixed(0)} µs)`,
    );
    const busy = new Map([...fns].filter(([k]) => !k.startsWith("(idle)")));
    const busyFiles = new Map([...files].filter(([k]) => k !== "((idle))"));
    table("self time by file", busyFiles, total - idle, 25);
    table("self time by function", busy, total - idle, Number(values.top));
  } finally {
    await stopDev(server);
    await stopAll();
  }
}

await main();
