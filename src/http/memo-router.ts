/**
 * Route matching remembered per method and path. Every route is mounted under each
 * language prefix and both namespaces, so Hono's trie walks a large tree on every request; the same
 * paths come again and again (a list, a popular event), and a path's match never changes once the
 * routes are built. The match is a read-only description (handlers and path parameters), so a
 * remembered one serves any later request for the same method and path.
 */
import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { Memo } from "../lib/memo";

/** Paths longer than this are matched every time (a memo entry per long, unique path is waste). */
const MAX_PATH = 256;

/**
 * Hono's default router (RegExp, else trie) behind a memo of `MAX_ENTRIES` matches.
 * @example new Hono({ router: new MemoRouter() })
 */
export class MemoRouter<T> implements Router<T> {
  readonly name = "MemoRouter";
  readonly #inner: Router<T>;
  readonly #memo: Memo<Result<T>>;

  constructor(
    inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] }),
    maxEntries = 1024,
  ) {
    this.#inner = inner;
    this.#memo = new Memo(maxEntries);
  }

  add(method: string, path: string, handler: T): void {
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > MAX_PATH) return this.#inner.match(method, path);
    return this.#memo.get(`${method} ${path}`, () => this.#inner.match(method, path));
  }
}
