/**
 * The write rows of `npm run bench` (bench/README.md, "Series writes"): what a series write costs
 * the worker (contract §7.8). Two rows, each measured on requests that start from the same state:
 *
 * - `series-write`: `POST /events` of a new daily series of 1,000 occurrences
 *   (`RRULE:FREQ=DAILY;COUNT=1000`, 19:00–21:00 Europe/Berlin, so that it crosses DST changes),
 *   starting `PAST_DAYS` ago so that all 1,000 fall within the two years a write stores: every
 *   request stores one series row and 999 occurrences;
 * - `series-split`: `PATCH /events/{occurrence id}?scope=following` at the 500th occurrence of such
 *   a series with a change of time (20:00–22:00): the old series ends before it, a new series takes
 *   the 501 occurrences from there. Each iteration first creates its own fresh series (not measured)
 *   and waits until the worker is idle.
 *
 * They run on a worker of their own, over a copy of the dataset's directory deleted afterwards (the
 * written series would otherwise stay in the dataset and change the read rows of later runs), with
 * an administrator password passed as a variable (`--var ADMIN_APP_PASSWORD:…`). Per request:
 * the wall time to the whole answer, the D1 round trips of its `Server-Timing`, and the CPU of the
 * runtime workerd (`/proc`, as the read rows: scripts/bench/servers.ts) up to the answer and up to
 * when the worker is idle again (the work it does after the answer, `waitUntil`: stale renderings).
 */
import { randomBytes } from "node:crypto";
import { cpSync, rmSync } from "node:fs";
import { TRIPS } from "./load";
import {
  CLK_TCK,
  type DevServer,
  readTicks,
  serverProcesses,
  settle,
  startDev,
  stopDev,
} from "./servers";

export const WRITE_KEYS = ["series-write", "series-split"] as const;
export type WriteKey = (typeof WRITE_KEYS)[number];

/** Days before today the measured series start: 1,000 daily ones end within the stored horizon. */
const PAST_DAYS = 245;
const ZONE = "Europe/Berlin";
const RULE = "RRULE:FREQ=DAILY;COUNT=1000";
/** The occurrence a split starts at (0-based: the 500th). */
const SPLIT_AT = 499;

/** One measured request. */
export interface WriteSample {
  status: number;
  bytes: number;
  trips: number | null;
  /** Wall time to the whole answer (ms). */
  ms: number;
  /** Runtime workerd CPU up to the answer, and from the answer until idle (ms). */
  cpuMs: number;
  afterMs: number;
  /** The static worker's one-client GET of a body of the same size, right after (median of 5, ms). */
  staticMs: number;
  excerpt?: string;
}

export interface WriteResult {
  key: WriteKey;
  label: string;
  note: string;
  samples: WriteSample[];
}

const day = (offset: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

interface Ctx {
  real: DevServer;
  stat: DevServer;
  nsRoot: string;
  auth: string;
}

async function call(ctx: Ctx, method: string, path: string, json?: unknown) {
  const res = await fetch(ctx.real.origin + ctx.nsRoot + path.replace(/^\//, ""), {
    method,
    headers: { Authorization: ctx.auth, ...(json ? { "Content-Type": "application/json" } : {}) },
    body: json ? JSON.stringify(json) : undefined,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  return { res, text };
}

let serial = 0;
/** A new 1,000-occurrence series (not measured); its id. */
async function createSeries(ctx: Ctx): Promise<{ id: number; first: string }> {
  const first = day(-PAST_DAYS);
  const { res, text } = await call(ctx, "POST", "/events", seriesBody(first));
  if (res.status !== 201) throw new Error(`series-split: create answered ${res.status}: ${text}`);
  return { id: JSON.parse(text).id, first };
}

function seriesBody(first: string) {
  return {
    title: `Bench series ${++serial}`,
    status: "publish",
    start_date: `${first} 19:00:00`,
    end_date: `${first} 21:00:00`,
    timezone: ZONE,
    recurrence: [RULE],
  };
}

/**
 * Measures `iterations` requests of each row in `keys`, on a worker over a copy of `dir` (removed
 * at the end).
 * @param entry the snapshot bundle (null: src/ itself).
 */
export async function benchWrites(o: {
  keys: readonly WriteKey[];
  iterations: number;
  dir: string;
  entry: string | null;
  wranglerToml: string;
  stat: DevServer;
  nsRoot: string;
  logDir: string;
  log(line: string): void;
}): Promise<WriteResult[]> {
  const copy = `${o.dir}-writes`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(o.dir, copy, { recursive: true });
  rmSync(`${copy}/v3/cache`, { recursive: true, force: true });
  const password = randomBytes(18).toString("base64url");
  let real: DevServer | undefined;
  try {
    real = await startDev(
      "real-writes",
      [...(o.entry ? [o.entry, "--no-bundle"] : []), "--config", o.wranglerToml]
        .concat(["--persist-to", copy, "--var", `ADMIN_APP_PASSWORD:${password}`])
        .concat(["--var", "WEBHOOK_PRIVATE_TARGETS:deny"]),
      o.logDir,
      o.nsRoot,
    );
    const auth = `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`;
    const ctx: Ctx = { real, stat: o.stat, nsRoot: o.nsRoot, auth };
    const out: WriteResult[] = [];
    for (const key of o.keys) out.push(await measureWrite(key, ctx, o.iterations, o.log));
    return out;
  } finally {
    await stopDev(real);
    rmSync(copy, { recursive: true, force: true });
  }
}

async function measureWrite(
  key: WriteKey,
  ctx: Ctx,
  iterations: number,
  log: (line: string) => void,
): Promise<WriteResult> {
  const procs = serverProcesses(ctx.real);
  const runtime = procs.filter((p) => p.role === "runtime");
  const ticks = () => [...readTicks(runtime).values()].reduce((n: number, t) => n + (t ?? 0), 0);
  const toMs = (t: number) => (t * 1000) / CLK_TCK;
  const samples: WriteSample[] = [];
  // One request first, not counted: the isolate's first write (module state, prepared statements).
  for (let i = -1; i < iterations; i++) {
    let method = "POST";
    let path = "/events";
    let json: unknown = seriesBody(day(-PAST_DAYS));
    if (key === "series-split") {
      const s = await createSeries(ctx);
      const at = new Date(`${s.first}T00:00:00Z`);
      at.setUTCDate(at.getUTCDate() + SPLIT_AT);
      const d = at.toISOString().slice(0, 10);
      const found = await call(ctx, "GET", `/events?series=${s.id}&start_date=${d}&end_date=${d}`);
      const occurrence = JSON.parse(found.text).events?.[0]?.id;
      if (!occurrence) throw new Error(`series-split: no occurrence on ${d}: ${found.text}`);
      [method, path] = ["PATCH", `/events/${occurrence}?scope=following`];
      json = { start_date: `${d} 20:00:00`, end_date: `${d} 22:00:00` };
    }
    await settle(procs);
    const t0 = ticks();
    const start = performance.now();
    const { res, text } = await call(ctx, method, path, json);
    const ms = performance.now() - start;
    const t1 = ticks();
    await settle(procs);
    const t2 = ticks();
    const bytes = Buffer.byteLength(text);
    const staticTimes: number[] = [];
    for (let k = 0; k < 5; k++) {
      const s0 = performance.now();
      await (await fetch(`${ctx.stat.origin}/${bytes}`)).arrayBuffer();
      staticTimes.push(performance.now() - s0);
    }
    const staticMs = median(staticTimes);
    const trips = TRIPS.exec(res.headers.get("server-timing") ?? "");
    const ok = res.status === (key === "series-write" ? 201 : 200);
    if (i >= 0)
      samples.push({
        status: res.status,
        bytes,
        trips: trips ? Number(trips[1]) : null,
        ms,
        cpuMs: toMs(t1 - t0),
        afterMs: toMs(t2 - t1),
        staticMs,
        ...(ok ? {} : { excerpt: text.slice(0, 400) }),
      });
    if (!ok) {
      log(`${key}: HTTP ${res.status} ${text.slice(0, 300)}`);
      break;
    }
  }
  const r = summarizeWrite(samples);
  log(
    `${key}: ${samples.length} requests, status ${r.status}, D1 ${r.trips}, wall p50 ${r.p50.toFixed(0)} ms, CPU ${r.cpu.toFixed(0)} ms to the answer + ${r.after.toFixed(0)} ms after`,
  );
  const label =
    key === "series-write"
      ? `POST /events (${RULE}, 1,000 occurrences)`
      : "PATCH /events/{500th occurrence}?scope=following (new time)";
  const note =
    key === "series-write"
      ? "a new series per request"
      : "a fresh 1,000-occurrence series per request, its creation not measured; 501 occurrences move";
  return { key, label, note, samples };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : Number.NaN;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

/** A row's figures: statuses, round trips (distinct values), medians of wall time, mean CPU. */
export function summarizeWrite(samples: WriteSample[]) {
  const distinct = (xs: unknown[]) => [...new Set(xs.map(String))].join("/") || "n/a";
  return {
    status: distinct(samples.map((s) => s.status)),
    trips: distinct(samples.map((s) => s.trips ?? "n/a")),
    bytes: median(samples.map((s) => s.bytes)),
    p50: median(samples.map((s) => s.ms)),
    max: Math.max(...samples.map((s) => s.ms)),
    staticP50: median(samples.map((s) => s.staticMs)),
    cpu: mean(samples.map((s) => s.cpuMs)),
    after: mean(samples.map((s) => s.afterMs)),
  };
}

/** The rows' table for the report (Markdown lines). */
export function renderWrites(results: WriteResult[]): string[] {
  if (!results.length) return [];
  const f = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");
  const rows = results.map((w) => {
    const r = summarizeWrite(w.samples);
    return `| \`${w.label}\` (${w.note}) | ${r.status} | ${r.trips} | ${w.samples.length} | ${f(r.bytes)} | ${f(r.p50)} | ${f(r.max)} | ${r.staticP50.toFixed(2)} | ${f(r.p50 / r.staticP50)} | ${f(r.cpu)} | ${f(r.after)} |`;
  });
  return [
    "Series writes (scripts/bench/writes.ts; one client, each request from the same state, on a copy of the dataset):",
    "",
    "| write | status | D1 round trips | requests | answer bytes | p50 ms | max ms | static p50 | p50 × | CPU ms/req to the answer | CPU ms/req after it |",
    "|---|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ];
}
