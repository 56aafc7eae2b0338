/**
 * `npx tsx scripts/bench/js-cost.ts <dataset> "<path and query>" [--requests 2000] [--profile out.cpuprofile] [--state miss|hit|304]`
 *
 * How much of a request is the worker's own JavaScript? Runs the worker's code
 * (src/index.ts) in Node over a bench dataset (`.wrangler/bench/<dataset>`, through wrangler's
 * getPlatformProxy, as scripts/bench/explain.ts does): the first pass answers every D1 statement
 * from the local database and records the answer; the measured passes replay the recorded answers
 * instantly. So the time per request is the worker's JavaScript alone — routing, arguments, SQL
 * building, assembling, serializing, headers — without D1, its result conversion, or the Cache API
 * (absent in Node: only the isolate's own answer store is used). `--profile` writes a V8 CPU profile
 * of the measured passes (open it in Chrome DevTools), and prints the heaviest functions.
 *
 * - `miss`: every request carries a fresh `_bench=<n>`; `hit`: one URL again and again;
 *   `304`: the same with `If-None-Match` of its ETag.
 */
import "../lib/text-modules";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { getPlatformProxy } from "wrangler";
import { readWranglerVars } from "../lib/config";
import { PATHS } from "../lib/paths";

interface Worker {
  fetch(request: Request, env: unknown, ctx: unknown): Response | Promise<Response>;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: "string", default: "2000" },
    profile: { type: "string" },
    state: { type: "string", default: "miss" },
  },
});
const [dataset = "demo", route = "/events?per_page=50"] = positionals;
const requests = Number(values.requests);
const state = values.state ?? "miss";

const dir = path.resolve(PATHS.wranglerToml, "..", ".wrangler", "bench", dataset);
const proxy = await getPlatformProxy<{ DB: D1Database; STRINGS: KVNamespace }>({
  configPath: PATHS.wranglerToml,
  persist: { path: path.join(dir, "v3") },
  remoteBindings: false,
});

/** Recorded answers by statement text and parameters. */
const answers = new Map<string, unknown>();
const keyOf = (sql: string, params: unknown[]) => `${sql}\u0000${JSON.stringify(params)}`;
let live = 0;

function statement(sql: string, params: unknown[] = []) {
  const key = keyOf(sql, params);
  const real = () => proxy.env.DB.prepare(sql).bind(...params);
  const answer = async <T>(kind: string, call: () => Promise<T>): Promise<T> => {
    const k = `${kind}\u0000${key}`;
    if (answers.has(k)) return answers.get(k) as T;
    live++;
    const value = await call();
    answers.set(k, value);
    return value;
  };
  return {
    sql,
    params,
    key,
    bind: (...p: unknown[]) => statement(sql, p),
    all: () => answer("all", () => real().all()),
    raw: (o?: { columnNames?: false }) => answer("raw", () => real().raw(o)),
    first: (col?: string) =>
      answer(`first${col ?? ""}`, () => (col === undefined ? real().first() : real().first(col))),
    run: () => answer("run", () => real().run()),
  };
}
type Stmt = ReturnType<typeof statement>;
const db = {
  prepare: (sql: string) => statement(sql),
  batch: async (stmts: Stmt[]) => {
    const k = `batch\u0000${stmts.map((s) => s.key).join("\u0001")}`;
    if (answers.has(k)) return answers.get(k);
    live++;
    const value = await proxy.env.DB.batch(
      stmts.map((s) => proxy.env.DB.prepare(s.sql).bind(...s.params)),
    );
    answers.set(k, value);
    return value;
  },
  withSession: () => db,
  getBookmark: () => null,
  exec: (q: string) => proxy.env.DB.exec(q),
};

try {
  const entry = path.join(PATHS.wranglerToml, "..", "src", "index.ts");
  const worker = ((await import(entry)) as { default: Worker }).default;
  const vars = readWranglerVars();
  const env = { ...vars, DB: db, STRINGS: proxy.env.STRINGS };
  const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} };
  const url = `http://127.0.0.1/${vars.REST_PREFIX ?? "wp-json"}/${vars.VENDOR ?? "tribe"}/events/v1/${route.replace(/^\//, "")}`;
  const sep = url.includes("?") ? "&" : "?";
  let n = 0;
  const headers: Record<string, string> = {};
  const one = async () => {
    const u = state === "miss" ? `${url}${sep}_bench=${n++}` : url;
    const res = await worker.fetch(new Request(u, { headers }), env, ctx);
    await res.arrayBuffer();
    return res;
  };
  const first = await one();
  if (state === "304") headers["if-none-match"] = first.headers.get("etag") ?? "";
  for (let i = 0; i < 200; i++) await one();
  const liveBefore = live;
  const session = new Session();
  if (values.profile) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 50 });
    await session.post("Profiler.start");
  }
  const t = performance.now();
  let status = 0;
  for (let i = 0; i < requests; i++) status = (await one()).status;
  const ms = performance.now() - t;
  console.log(
    `${state} ${route}: ${((1000 * ms) / requests).toFixed(0)} µs of the worker's JavaScript per request (${requests} requests, status ${status}; ${live - liveBefore} D1 calls not replayed)`,
  );
  if (values.profile) {
    const { profile } = (await session.post("Profiler.stop")) as {
      profile: {
        nodes: Array<{
          id: number;
          callFrame: { functionName: string; url: string; lineNumber: number };
        }>;
        samples: number[];
        timeDeltas: number[];
      };
    };
    writeFileSync(values.profile, JSON.stringify(profile));
    const byId = new Map(profile.nodes.map((x) => [x.id, x]));
    const self = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      const f = byId.get(id)!.callFrame;
      const file = f.url.replace(/^.*\/(src|node_modules)\//, "$1/");
      const name = `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
      const us = profile.timeDeltas[i] ?? 0;
      total += us;
      self.set(name, (self.get(name) ?? 0) + us);
    });
    const byFile = new Map<string, number>();
    for (const [name, us] of self) {
      const file = name.split(" ")[1]?.replace(/:\d+$/, "") ?? name;
      byFile.set(file, (byFile.get(file) ?? 0) + us);
    }
    const show = (title: string, m: Map<string, number>, k: number) => {
      console.log(`\n${title}`);
      for (const [name, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, k))
        console.log(
          `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / requests).toFixed(1).padStart(7)} µs/req  ${name}`,
        );
    };
    show("self time by file", byFile, 30);
    show("self time by function", self, 50);
  }
} finally {
  await proxy.dispose();
}
