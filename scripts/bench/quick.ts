/**
 * `npx tsx scripts/bench/quick.ts <origin> <path> [miss|hit|304] [seconds] [connections]`
 *
 * One load phase against a server that is already running (e.g. `npm run dev`, or a worker under
 * experiment), for quick comparisons while working on the read path; `npm run bench` is the
 * measurement of record. `miss` adds a fresh `_bench=<n>` per request. Also prints the CPU per
 * answer of the server's workerd processes (runtime and wrangler's proxy, from /proc), found by the
 * process group of whatever listens on the origin's port (a `wrangler dev` started with `setsid`).
 */
import { execFileSync } from "node:child_process";
import { clockTicksPerSecond, cpuBetween, groupProcesses, readCpu } from "./cpu";
import { runLoad } from "./load";

const [origin, path, state = "miss", seconds = "4", connections = "1"] = process.argv.slice(2);
if (!origin || !path) {
  console.error("usage: quick.ts <origin> <path> [miss|hit|304] [seconds] [connections]");
  process.exit(2);
}
const headers: Record<string, string> = {};
if (state === "304") {
  const res = await fetch(origin + path);
  await res.arrayBuffer();
  headers["if-none-match"] = res.headers.get("etag") ?? "";
}
const base = {
  origin,
  path,
  headers,
  connections: Number(connections),
  bustParam: state === "miss" ? "_bench" : undefined,
  bustValue: (n: number) => `q${process.pid}-${n}`,
};
await runLoad({ ...base, duration: 1 });
const port = Number(new URL(origin).port);
const listener = execFileSync("sh", [
  "-c",
  `ss -ltnpH 'sport = :${port}' | grep -o 'pid=[0-9]*' | head -1`,
])
  .toString()
  .replace("pid=", "")
  .trim();
const pgid = Number(execFileSync("ps", ["-o", "pgid=", "-p", listener]).toString().trim());
const procs = groupProcesses(pgid, port);
const before = readCpu(procs);
const r = await runLoad({ ...base, duration: Number(seconds) });
const used = cpuBetween(before, readCpu(procs));
const us = (ticks: number) => ((ticks / clockTicksPerSecond()) * 1e6) / r.requests;
console.log(
  `${state} ${path}: p50 ${r.p50.toFixed(2)} ms, p90 ${r.p90.toFixed(2)}, ${r.rps.toFixed(0)} req/s at ${connections} conn.; CPU µs/answer runtime ${us(used.ticks.runtime).toFixed(0)}, proxy ${us(used.ticks.proxy).toFixed(0)} (${r.requests} answers; statuses ${JSON.stringify(r.statuses)})`,
);
