/** The self times of a V8 CPU profile, for js-cost.ts and profile.ts. */

/** A V8 CPU profile (`Profiler.stop`), what is read of it. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Prints the self time of a V8 CPU profile per file and per function (idle samples left out), as a
 * share of the busy time and in µs per request; returns the busy and idle µs.
 */
export function printSelfTimes(profile: CpuProfile, requests: number, top = 40) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const [fns, files] = [new Map<string, number>(), new Map<string, number>()];
  const add = (m: Map<string, number>, k: string, us: number) => m.set(k, (m.get(k) ?? 0) + us);
  let [busy, idle] = [0, 0];
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!;
    const us = profile.timeDeltas[i] ?? 0;
    if (f.functionName === "(idle)") idle += us;
    else {
      busy += us;
      const inTree = /\/(src|node_modules)\//.test(f.url);
      const file = inTree
        ? f.url.replace(/^.*\/(src|node_modules)\//, "$1/")
        : f.url.split("/").pop() || `(${f.functionName || "native"})`;
      add(fns, `${f.functionName || "(anonymous)"}  ${file}:${f.lineNumber + 1}`, us);
      add(files, file, us);
    }
  });
  for (const [title, rows, limit] of [
    ["self time by file", files, 25],
    ["self time by function", fns, top],
  ] as const) {
    console.log(`\n${title}`);
    for (const [name, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, limit))
      console.log(
        `${((100 * us) / busy).toFixed(1).padStart(5)}%  ${(us / requests).toFixed(1).padStart(7)} µs/req  ${name}`,
      );
  }
  return { busy, idle };
}
