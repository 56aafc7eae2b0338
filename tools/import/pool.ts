/**
 * Bounded concurrency with name locks. The server finds venues, organizers and categories by name
 * or creates them (contract §4 row 13); two requests in flight that both introduce the same new
 * name would each create one. So a task waits while a running task holds one of its names that is
 * not known to exist yet; once a task succeeds, its names exist.
 */

/** One unit of work and the names (keys) it may create. */
export interface KeyedTask {
  keys: string[];
  run: () => Promise<void>;
}

/**
 * Runs `tasks` in order, at most `limit` at a time, never two at once that share a key missing from
 * `known`. `known` grows with the keys of every task that succeeds.
 * @throws the first task error, once the tasks already running have settled (none starts after it).
 * @example await runKeyed([{ keys: ["venue:hall a"], run: () => post(a) }, …], 4, new Set())
 */
export function runKeyed(tasks: KeyedTask[], limit: number, known: Set<string>): Promise<void> {
  const queue = [...tasks];
  const held = new Set<string>();
  let running = 0;
  let failure: { error: unknown } | null = null;

  return new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (failure || queue.length === 0) {
        if (running === 0) {
          if (failure) reject(failure.error);
          else resolve();
        }
        return;
      }
      for (let i = 0; i < queue.length && running < limit; ) {
        const task = queue[i];
        const fresh = task.keys.filter((k) => !known.has(k));
        if (fresh.some((k) => held.has(k))) {
          i++;
          continue;
        }
        queue.splice(i, 1);
        for (const k of fresh) held.add(k);
        running++;
        task
          .run()
          .then(
            () => {
              for (const k of task.keys) known.add(k);
            },
            (error: unknown) => {
              failure ??= { error };
            },
          )
          .finally(() => {
            for (const k of fresh) held.delete(k);
            running--;
            pump();
          });
      }
    };
    pump();
  });
}
