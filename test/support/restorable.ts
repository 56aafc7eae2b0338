/**
 * Fixtures that are expensive to build (many D1 round trips), built once per worker and put back by
 * their rows for every later test that asks for them: one D1 batch. test/hardening/world.test.ts
 * checks that what is put back is what was built.
 */
import { env } from "cloudflare:workers";
import { freshSnapshot, insertRow, quote, type Rows, readRows, type Snapshot } from "./isolation";

/**
 * Kept on `globalThis`, as the isolation state: setup files and their imports are evaluated again
 * for every test file, the worker's isolate (and its storage) stays.
 */
const holder = globalThis as { [key: symbol]: Map<string, { value: unknown; rows: Rows }> };
const KEY = Symbol.for("tec-edge.test.restorable");
holder[KEY] ??= new Map();
const fixtures = holder[KEY];

/**
 * A fixture built once per worker and put back by its rows after that: `build` runs the first time
 * (on fresh storage), and the rows it leaves are kept; every later call, again on fresh storage,
 * writes those rows back in one D1 batch (instead of the many round trips of building) and returns
 * a copy of the same value. The database is then as `build` left it: the FTS5 indexes are rebuilt by
 * their triggers, and the tables triggers write (renderings, the webhook outbox) are written last,
 * as they were. Only for fixtures whose value follows from the database they write (ids, names,
 * credentials), built at a test's start.
 * @example const w = await restorable("hardening world", build)
 */
export async function restorable<T>(name: string, build: () => Promise<T>): Promise<T> {
  const s = freshSnapshot();
  const kept = fixtures.get(name);
  if (kept) {
    await putBack(s, kept.rows);
    return structuredClone(kept.value) as T;
  }
  const value = await build();
  fixtures.set(name, { value: structuredClone(value), rows: await readRows(s.tables) });
  return value;
}

/** Writes `kept` back over a fresh database (see `restorable`), in one batch. */
async function putBack(s: Snapshot, kept: Rows): Promise<void> {
  const db = env.DB;
  const tables = s.tables.filter((t) => t !== "content_version");
  const rows = kept.rows.filter((r) => r.table !== "content_version");
  const derived = new Set(s.derived);
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = on"),
    ...tables.map((t) => db.prepare(`DELETE FROM ${quote(t)}`)),
    ...rows.filter((r) => !derived.has(r.table)).map((r) => insertRow(r.table, r.row)),
    // What the inserts' triggers wrote there is replaced by what building left (a derived row may
    // write another derived table's row too: the sync log's of an occurrence).
    ...s.derived
      .filter((t) => t !== "content_version")
      .map((t) => db.prepare(`DELETE FROM ${quote(t)}`)),
    ...rows.filter((r) => derived.has(r.table)).map((r) => insertRow(r.table, r.row, true)),
    db.prepare("DELETE FROM sqlite_sequence"),
    ...kept.sequences.map((q) =>
      db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").bind(q.name, q.seq),
    ),
  ]);
}
