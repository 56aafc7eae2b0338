/**
 * The scripts import a few worker modules (settings, strings keys, time zones, cost parsing, the
 * expansion of recurring series) whose types name the Workers bindings `D1Database` (and its
 * sessions and statements), `KVNamespace` and `Queue` as globals. This program is typed
 * with Node's globals, not the Workers runtime's (mixing both clashes), so only those names are
 * borrowed, type-only, from the importable variant of @cloudflare/workers-types.
 */
import type {
  D1Database as WorkersD1Database,
  D1DatabaseSession as WorkersD1DatabaseSession,
  D1PreparedStatement as WorkersD1PreparedStatement,
  KVNamespace as WorkersKVNamespace,
  Queue as WorkersQueue,
  RateLimit as WorkersRateLimit,
} from "@cloudflare/workers-types/index";

declare global {
  type D1Database = WorkersD1Database;
  type D1DatabaseSession = WorkersD1DatabaseSession;
  type D1PreparedStatement = WorkersD1PreparedStatement;
  type KVNamespace<Key extends string = string> = WorkersKVNamespace<Key>;
  type RateLimit = WorkersRateLimit;
  type Queue<Body = unknown> = WorkersQueue<Body>;
}
