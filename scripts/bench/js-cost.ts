/**
 * `npx tsx scripts/bench/js-cost.ts <dataset> "<path and query>" [--state miss|hit|304]
 *   [--requests 2000] [--profile out.cpuprofile] [--explain [--dump statements.json]]`
 *
 * Runs the worker's code (src/index.ts) in Node over a bench dataset (`.wrangler/bench/<dataset>`,
 * `demo` or a size, built by `npm run bench`; its local D1 through wrangler's getPlatformProxy).
 * Read-only; run it while no benchmark uses the same directory. In Node there is no Cache API: only
 * the isolate's own answer store is used.
 *
 * - By default: how much of a request is the worker's own JavaScript? The first pass answers every
 *   D1 statement from the local database and records the answer; the measured passes replay them
 *   instantly, so the time per request is routing, arguments, SQL building, assembling, serializing
 *   and headers, without D1. `--profile` writes a V8 CPU profile of the measured passes (open it in
 *   Chrome DevTools) and prints the heaviest files and functions.
 * - `--explain`: where does a slow route spend its D1 time? Every SQL statement of one request (after
 *   a warm-up), run again alone, with its time, rows, `rows_read` and `EXPLAIN QUERY PLAN`; `--dump`
 *   also writes them (`[{sql, params}]`) to a file, to time them in SQLite without the proxy's
 *   overhead (node:sqlite on the dataset's `.sqlite` file under `v3/d1/`).
 *
 * States: `miss`, a fresh `_bench=<n>` per request; `hit`, one URL again and again; `304`, the same
 * with `If-None-Match` of its ETag.
 */
import "../lib/text-modules";
import { existsSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { getPlatformProxy } from "wrangler";
import { readWranglerVars } from "../lib/config";
import { PATHS, ROOT } from "../lib/paths";
import { type CpuProfile, printSelfTimes } from "./cpu-profile";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: "string", default: "2000" },
    profile: { type: "string" },
    state: { type: "string", default: "miss" },
    explain: { type: "boolean", default: false },
    dump: { type: "string" },
  },
});
const [dataset = "demo", route = "/events?per_page=50"] = positionals;
const requests = Number(values.requests);
const state = values.state;
const dir = path.join(ROOT, ".wrangler", "bench", dataset);
if (
  !existsSync(path.join(dir, "v3")) ||
  !["miss", "hit", "304"].includes(state) ||
  !(requests > 0)
) {
  console.error(
    `Usage: npx tsx scripts/bench/js-cost.ts <dataset> "<path>" [--state miss|hit|304] [--requests n] [--profile file] [--explain [--dump file]] (needs .wrangler/bench/<dataset> from npm run bench)`,
  );
  process.exit(2);
}
const proxy = await getPlatformProxy<{ DB: D1Database; STRINGS: KVNamespace }>({
  configPath: PATHS.wranglerToml,
  persist: { path: path.join(dir, "v3") },
  remoteBindings: false,
});
const real = proxy.env.DB;

/** Recorded answers by call, statement and parameters; the statements of the current request. */
const answers = new Map<string, unknown>();
const seen: Array<{ sql: string; params: unknown[] }> = [];
let live = 0;
async function answer<T>(key: string, call: () => Promise<T>): Promise<T> {
  if (answers.has(key)) return answers.get(key) as T;
  live++;
  const value = await call();
  answers.set(key, value);
  return value;
}
function statement(sql: string, params: unknown[] = []) {
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  const bound = () => real.prepare(sql).bind(...params);
  const call = <T>(kind: string, f: () => Promise<T>) => {
    seen.push({ sql, params });
    return answer(`${kind}\u0000${key}`, f);
  };
  return {
    sql,
    params,
    key,
    bind: (...p: unknown[]) => statement(sql, p),
    all: () => call("all", () => bound().all()),
    raw: (o?: { columnNames?: false }) => call("raw", () => bound().raw(o)),
    first: (col?: string) =>
      call(`first${col ?? ""}`, () => (col === undefined ? bound().first() : bound().first(col))),
    run: () => call("run", () => bound().run()),
  };
}
type Stmt = ReturnType<typeof statement>;
const db = {
  prepare: (sql: string) => statement(sql),
  batch: (stmts: Stmt[]) => {
    seen.push(...stmts.map((s) => ({ sql: s.sql, params: s.params })));
    return answer(`batch\u0000${stmts.map((s) => s.key).join("\u0001")}`, () =>
      real.batch(stmts.map((s) => real.prepare(s.sql).bind(...s.params))),
    );
  },
  withSession: () => db,
  getBookmark: () => null,
  exec: (q: string) => real.exec(q),
};

try {
  const entry = path.join(ROOT, "src", "index.ts");
  type Worker = {
    fetch(request: Request, env: unknown, ctx: unknown): Response | Promise<Response>;
  };
  const worker = ((await import(entry)) as { default: Worker }).default;
  const vars = readWranglerVars();
  const env = { ...vars, DB: db, STRINGS: proxy.env.STRINGS };
  const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} };
  const url = `http://127.0.0.1/${vars.REST_PREFIX ?? "wp-json"}/${vars.VENDOR ?? "tribe"}/events/v1/${route.replace(/^\//, "")}`;
  let n = 0;
  const headers: Record<string, string> = {};
  const one = async () => {
    const u = state === "miss" ? `${url}${url.includes("?") ? "&" : "?"}_bench=${n++}` : url;
    seen.length = 0;
    const res = await worker.fetch(new Request(u, { headers }), env, ctx);
    await res.arrayBuffer();
    return res;
  };
  const first = await one();
  if (state === "304") headers["if-none-match"] = first.headers.get("etag") ?? "";
  if (values.explain) {
    const res = await one();
    console.log(`GET ${url} (${state}) → ${res.status}, ${res.headers.get("server-timing") ?? ""}`);
    if (values.dump) writeFileSync(values.dump, JSON.stringify([...seen], null, 1));
    for (const s of [...seen]) {
      const t = performance.now();
      const r = await real
        .prepare(s.sql)
        .bind(...s.params)
        .all();
      const ms = performance.now() - t;
      const plan = await real
        .prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
        .bind(...s.params)
        .all<{ id: number; parent: number; detail: string }>();
      const sql = s.sql.replace(/^select ("[a-z_]+", ){6,}("[a-z_]+") from/i, "select … from");
      console.log(
        `\n--- ${ms.toFixed(0)} ms, ${r.results.length} rows, rows_read ${(r.meta as { rows_read?: number }).rows_read ?? "?"}`,
      );
      console.log(
        `${sql.length > 700 ? `${sql.slice(0, 700)}…` : sql}\nparams ${JSON.stringify(s.params)}`,
      );
      for (const p of plan.results) console.log(`  plan ${p.id}/${p.parent}: ${p.detail}`);
    }
  } else {
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
    const us = (1000 * (performance.now() - t)) / requests;
    console.log(
      `${state} ${route}: ${us.toFixed(0)} µs of the worker's JavaScript per request (${requests} requests, status ${status}; ${live - liveBefore} D1 calls not replayed)`,
    );
    if (values.profile) {
      const { profile } = (await session.post("Profiler.stop")) as {
        profile: CpuProfile;
      };
      writeFileSync(values.profile, JSON.stringify(profile));
      printSelfTimes(profile, requests, 50);
    }
  }
} finally {
  await proxy.dispose();
}
