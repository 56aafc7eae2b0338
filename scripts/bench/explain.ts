/**
 * `npx tsx scripts/bench/explain.ts <size> "<path and query>"`, e.g.
 * `npx tsx scripts/bench/explain.ts 100000 "/events?per_page=50"`
 *
 * Where does a slow route spend its D1 time? Runs the worker's own code (src/index.ts) in Node, over
 * the local D1 of a bench dataset (`.wrangler/bench/<size>`, through wrangler's getPlatformProxy),
 * once to warm up and once recorded; then re-runs every SQL statement of the recorded request alone
 * and prints its time, rows returned, `rows_read` and `EXPLAIN QUERY PLAN`.
 * Read-only (the edge cache is not used: `caches` does not exist in Node). Run it while no benchmark
 * uses the same directory.
 */
import "../lib/text-modules";
import { existsSync } from "node:fs";
import path from "node:path";
import { getPlatformProxy } from "wrangler";
import { readWranglerVars } from "../lib/config";
import { PATHS } from "../lib/paths";

/** The worker's entry (imported by a computed path: its Workers types are not in the Node tsconfig). */
interface Worker {
  fetch(request: Request, env: unknown, ctx: unknown): Response | Promise<Response>;
}

interface Recorded {
  sql: string;
  params: unknown[];
}

const [sizeArg, route = "/events?per_page=50"] = process.argv.slice(2);
const dir = path.resolve(PATHS.wranglerToml, "..", ".wrangler", "bench", sizeArg ?? "");
if (!sizeArg || !existsSync(path.join(dir, "v3"))) {
  console.error(
    `Usage: npx tsx scripts/bench/explain.ts <size> "<path>" (needs .wrangler/bench/<size> from npm run bench)`,
  );
  process.exit(2);
}

const proxy = await getPlatformProxy<{ DB: D1Database; STRINGS: KVNamespace }>({
  configPath: PATHS.wranglerToml,
  persist: { path: path.join(dir, "v3") },
  remoteBindings: false,
});
try {
  const entry = path.join(PATHS.wranglerToml, "..", "src", "index.ts");
  const worker = ((await import(entry)) as { default: Worker }).default;
  const real = proxy.env.DB;
  const seen: Recorded[] = [];
  const statement = (sql: string, params: unknown[] = []) => {
    const bound = () => real.prepare(sql).bind(...params);
    const record = () => seen.push({ sql, params });
    return {
      sql,
      params,
      bind: (...p: unknown[]) => statement(sql, p),
      all: () => {
        record();
        return bound().all();
      },
      raw: (o?: { columnNames?: false }) => {
        record();
        return bound().raw(o);
      },
      first: (col?: string) => {
        record();
        return col === undefined ? bound().first() : bound().first(col);
      },
      run: () => {
        record();
        return bound().run();
      },
    };
  };
  type Stmt = ReturnType<typeof statement>;
  const db = {
    prepare: (sql: string) => statement(sql),
    batch: (stmts: Stmt[]) => {
      for (const s of stmts) seen.push({ sql: s.sql, params: s.params });
      return real.batch(stmts.map((s) => real.prepare(s.sql).bind(...s.params)));
    },
    exec: (q: string) => real.exec(q),
  };
  const env = { ...readWranglerVars(), DB: db, STRINGS: proxy.env.STRINGS };
  const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} };
  const vars = readWranglerVars();
  const url = `http://127.0.0.1/${vars.REST_PREFIX ?? "wp-json"}/${vars.VENDOR ?? "tribe"}/events/v1/${route.replace(/^\//, "")}`;
  for (const pass of ["warm-up", "recorded"]) {
    seen.length = 0;
    const t = performance.now();
    // A parameter of its own per pass, so the recorded pass misses the isolate's answer store.
    const fresh = `${url}${url.includes("?") ? "&" : "?"}_explain=${pass}`;
    const res = await worker.fetch(new Request(fresh), env, ctx);
    const body = await res.arrayBuffer();
    console.log(
      `${pass}: GET ${fresh} → ${res.status}, ${body.byteLength} B, ${res.headers.get("server-timing") ?? ""}, ${(performance.now() - t).toFixed(0)} ms in Node`,
    );
  }
  for (const s of seen) {
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
    const meta = r.meta as { rows_read?: number };
    const sql = s.sql.replace(/^select ("[a-z_]+", ){6,}("[a-z_]+") from/i, "select … from");
    console.log(
      `\n--- ${ms.toFixed(0)} ms, ${r.results.length} rows, rows_read ${meta.rows_read ?? "?"}`,
    );
    console.log(sql.length > 700 ? `${sql.slice(0, 700)}…` : sql);
    console.log(`params ${JSON.stringify(s.params)}`);
    for (const p of plan.results) console.log(`  plan ${p.id}/${p.parent}: ${p.detail}`);
  }
} finally {
  await proxy.dispose();
}
