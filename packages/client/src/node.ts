/**
 * `@tec-edge/client/node`: what needs Node's file system — {@link FileStore}, the sync store in a
 * directory the caller names.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SyncState } from "./changes.js";
import type { Entities, Snapshot, SyncStore } from "./sync.js";
import { KINDS } from "./types.js";

/**
 * Keeps a sync's snapshot in `dir` (created when missing): `state.json` (cursors, ETags) and one
 * `<list>.json` per list (its items by id). Each file is written whole and renamed into place, so an
 * interrupted build leaves the previous snapshot; `state.json` is written last.
 * @example const result = await sync(client, new FileStore(".cache/tec-edge/en"));
 */
export class FileStore implements SyncStore {
  constructor(readonly dir: string) {}

  async load(): Promise<Snapshot | undefined> {
    const state = await readJson<SyncState>(path.join(this.dir, "state.json"));
    if (!state) return undefined;
    const entities: Entities = {};
    for (const kind of Object.keys(state.kinds) as (keyof Entities)[]) {
      const items = await readJson<Record<string, never>>(path.join(this.dir, `${kind}.json`));
      // A list file gone missing: start that snapshot over.
      if (!items) return undefined;
      entities[kind] = items;
    }
    return { state, entities };
  }

  async save(snapshot: Snapshot): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    for (const kind of KINDS) {
      const items = snapshot.entities[kind];
      if (items) await writeJson(path.join(this.dir, `${kind}.json`), items);
    }
    await writeJson(path.join(this.dir, "state.json"), snapshot.state);
  }
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || err instanceof SyntaxError)
      return undefined;
    throw err;
  }
}

async function writeJson(file: string, value: unknown): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(value));
  await rename(tmp, file);
}

export * from "./index.js";
