import { describe, expect, it } from "vitest";
import { type KeyedTask, runKeyed } from "../../tools/import/pool";

/** Lets every other task that is ready run before this one goes on (microtasks, no timer). */
const tick = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** Tasks that record when two of them run together while sharing a name not yet `known`. */
function recorder(keys: string[][], known: Set<string>, fail?: number) {
  const running = new Set<number>();
  const overlaps: Array<[number, number]> = [];
  const started: number[] = [];
  let peak = 0;
  const tasks: KeyedTask[] = keys.map((k, i) => ({
    keys: k,
    run: async () => {
      started.push(i);
      for (const j of running)
        if (keys[j].some((x) => k.includes(x) && !known.has(x))) overlaps.push([j, i]);
      running.add(i);
      peak = Math.max(peak, running.size);
      await tick();
      running.delete(i);
      if (i === fail) throw new Error(`task ${i} failed`);
    },
  }));
  return { tasks, overlaps, started, peak: () => peak };
}

describe("runKeyed", () => {
  it("never runs two tasks at once that may both create the same name, and keeps the limit", async () => {
    const known = new Set<string>();
    const r = recorder(
      [
        ["venue:a"],
        ["venue:a"],
        ["venue:b"],
        ["venue:a", "category:x"],
        ["category:x"],
        ["venue:c"],
      ],
      known,
    );
    await runKeyed(r.tasks, 3, known);
    expect(r.overlaps).toEqual([]);
    expect(r.started.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r.peak()).toBeLessThanOrEqual(3);
    expect([...known].sort()).toEqual(["category:x", "venue:a", "venue:b", "venue:c"]);
  });

  it("runs tasks on known names together, and starts nothing after a failure", async () => {
    const known = new Set(["venue:a"]);
    const shared = recorder([["venue:a"], ["venue:a"], ["venue:a"]], known);
    await runKeyed(shared.tasks, 4, known);
    expect(shared.peak()).toBe(3);

    const failing = recorder([[], [], [], []], new Set(), 0);
    await expect(runKeyed(failing.tasks, 1, new Set())).rejects.toThrow("task 0 failed");
    expect(failing.started).toEqual([0]);
  });
});
