/**
 * The network half of incremental sync (the service's contract §7.3): what changed since the state
 * a previous run left, without applying it anywhere. {@link sync} applies it to a
 * {@link SyncStore}; the Astro loader applies it to Astro's data store. No clock is read: every
 * position comes from the service's sync cursor (`X-TEC-Sync-Cursor`), the position of its sync
 * clock each answer's data was read at.
 *
 * - **First run** (no state, or one made with other options): every list is walked along
 *   `next_rest_url`, `per_page=50` (`/events` with the window `start_date=1970-01-01&end_date=2999-12-31`
 *   unless the caller gives one, `/categories` and `/tags` with `hide_empty=false`). A list's cursor
 *   is the smallest of its pages' (they are read one after another).
 * - **Later runs**: each list once more with `sync_cursor=<its cursor>` — what changed after the
 *   data it held, also a write that committed after that list was read however early it began —
 *   and `/deleted?sync_cursor=<its cursor>` (at first, the smallest of the lists'). A list that
 *   answers no change keeps its cursor, so its next request is the same URL and is revalidated
 *   with `If-None-Match`: a 304. An entry of `/deleted` removes its item unless this run's list
 *   showed the item from a page read at or after the entry's position (the list is newer).
 * - **Full runs** (`full: true`): every list walked again, each page revalidated with the `ETag`
 *   it had: a 304 keeps the ids (and cursor) that page had. What is no longer listed is gone — this
 *   also finds what `/deleted` cannot report (events moved out of a window by time passing).
 * - A service that sends no cursor gets a full run every time (pages revalidated with their ETags).
 */
import type { ListPage, NotModifiedPage, TecClient } from "./client.js";
import {
  DELETION_TYPE,
  type Deletion,
  type EntityOf,
  KINDS,
  type Kind,
  type Query,
} from "./types.js";

/** What a run keeps of one list. */
export interface KindState {
  /** The sync cursor the next run asks changes after; undefined: the next run walks it whole. */
  cursor?: number;
  /** The last incremental request and its `ETag`, when it answered no change. */
  url?: string;
  etag?: string;
  /** The pages of the last full walk: asked again with their `ETag` by a full run. */
  pages?: PageState[];
}

/** A page of a full walk: its URL, `ETag`, cursor, the ids it listed and the next page's URL. */
export interface PageState {
  url: string;
  etag?: string;
  cursor?: number;
  ids: number[];
  next?: string;
}

/** What a run keeps between runs (JSON). */
export interface SyncState {
  version: 2;
  /** The options that shape answers (base URL, user, window, fields, queries): others mean a first run. */
  fingerprint: string;
  kinds: Partial<Record<Kind, KindState>>;
  /** The `/deleted` cursor, like a list's. */
  deleted?: { cursor?: number; url?: string; etag?: string };
}

export interface ChangeOptions {
  /** The lists to sync (default all five). */
  kinds?: readonly Kind[];
  /**
   * The `/events` window, `start_date` and `end_date` as the service takes them (default
   * `1970-01-01` to `2999-12-31`: every event). An event that leaves the window without being
   * changed is not reported by the service; a `full` run finds it.
   */
  window?: { start?: string; end?: string };
  /** More query parameters per list, passed through (e.g. `{ events: { featured: true } }`). */
  query?: Partial<Record<Kind, Query>>;
  /** Item fields per list (WordPress's `_fields`; `id` always added). */
  fields?: Partial<Record<Kind, readonly string[]>>;
  /** Items per page (default 50). */
  perPage?: number;
  /** Walk every list again, revalidating each page (see above). */
  full?: boolean;
}

/** The changes of one list. */
export interface KindChanges<T> {
  /** True after a full walk: `present` is the whole list, anything else is gone. */
  full: boolean;
  /** Items new or changed (full walks: every item of the pages not answered 304). */
  upserted: T[];
  /** Full walks: the id of every item listed, those of 304 pages included. */
  present: number[];
  /** Incremental runs: ids readers can no longer see (`/deleted`), unless the list shows them since. */
  removed: number[];
}

/** Requests a run made, how many were 304, and the body bytes it downloaded. */
export interface SyncStats {
  requests: number;
  notModified: number;
  bytes: number;
}

/** What {@link fetchChanges} found. */
export interface ChangeSet {
  /** The state to keep for the next run (only once the changes are applied). */
  state: SyncState;
  changes: { [K in Kind]?: KindChanges<EntityOf[K]> };
  stats: SyncStats;
}

/** The parameters every request of a list carries, before `sync_cursor` and paging. */
export function baseQuery(kind: Kind, options: ChangeOptions): Query {
  const own = options.query?.[kind] ?? {};
  if (kind === "events")
    return {
      start_date: options.window?.start ?? "1970-01-01",
      end_date: options.window?.end ?? "2999-12-31",
      ...own,
    };
  if (kind === "categories" || kind === "tags") return { hide_empty: false, ...own };
  return own;
}

/**
 * The fingerprint of what shapes the answers (base URL, user, page size, and every list's
 * parameters and fields, whichever lists a run syncs): a state made with another is not continued.
 */
export function fingerprint(client: TecClient, user: string | undefined, options: ChangeOptions) {
  return JSON.stringify({
    base: client.baseUrl,
    user: user ?? null,
    perPage: options.perPage ?? 50,
    lists: KINDS.map((k) => [k, baseQuery(k, options), options.fields?.[k] ?? null]),
  });
}

/** How often a walk starts over when the list changed under it (its `total` moved). */
const WALK_ATTEMPTS = 3;

/** The smallest of some cursors; undefined when one of them is (a page without a cursor). */
function earliest(cursors: Array<number | undefined>): number | undefined {
  let out: number | undefined;
  for (const c of cursors) {
    if (c === undefined) return undefined;
    out = out === undefined ? c : Math.min(out, c);
  }
  return out;
}

/**
 * Asks the service what changed since `previous` (undefined: a first run).
 * @param user the login of the client's credentials, if any (part of the fingerprint).
 * @throws TecApiError, TecHttpError as {@link TecClient.request}; nothing is half-applied, as
 *   nothing is applied here.
 */
export async function fetchChanges(
  client: TecClient,
  previous: SyncState | undefined,
  options: ChangeOptions = {},
  user?: string,
): Promise<ChangeSet> {
  const print = fingerprint(client, user, options);
  const prev = previous?.version === 2 && previous.fingerprint === print ? previous : undefined;
  const kinds = options.kinds ?? KINDS;
  const stats: SyncStats = { requests: 0, notModified: 0, bytes: 0 };
  const state: SyncState = { version: 2, fingerprint: print, kinds: {} };
  const changes: ChangeSet["changes"] = {};

  const read = async <T>(route: Kind | "deleted", url: string, etag?: string) => {
    const page = await client.page<T>(route, url, etag);
    stats.requests++;
    stats.bytes += page.bytes;
    if (page.notModified) stats.notModified++;
    return page as ListPage<T> | NotModifiedPage;
  };

  /**
   * Walks a list from `url`; `etag` for the first page only. Each item with the cursor of its page;
   * `cursor` the walk's (the smallest). Undefined: the first page was a 304.
   */
  const walk = async <T>(route: Kind | "deleted", url: string, etag?: string) => {
    for (let attempt = 1; ; attempt++) {
      const first = await read<T>(route, url, etag);
      if (first.notModified) return undefined;
      const items = first.items.map((item) => ({ item, cursor: first.cursor }));
      const cursors = [first.cursor];
      let next = first.next;
      let moved = false;
      while (next && !moved) {
        const page = (await read<T>(route, next)) as ListPage<T>;
        moved = page.total !== first.total;
        items.push(...page.items.map((item) => ({ item, cursor: page.cursor })));
        cursors.push(page.cursor);
        next = page.next;
      }
      if (!moved || attempt === WALK_ATTEMPTS)
        return { items, etag: first.etag, cursor: earliest(cursors) };
    }
  };

  const incremental = kinds.filter((k) => !options.full && prev?.kinds[k]?.cursor !== undefined);
  /** Per list: the cursor of the page that showed each item this run (the removal rule). */
  const shownAt = new Map<Kind, Map<number, number | undefined>>();

  const syncIncremental = async <K extends Kind>(kind: K) => {
    const own = prev!.kinds[kind]!;
    const url = client.listUrl(kind, {
      perPage: options.perPage,
      fields: options.fields?.[kind],
      query: { ...baseQuery(kind, options), sync_cursor: own.cursor },
    });
    const found = await walk<EntityOf[K]>(kind, url, own.url === url ? own.etag : undefined);
    const items = found?.items ?? [];
    shownAt.set(
      kind,
      new Map(items.map(({ item, cursor }) => [(item as { id: number }).id, cursor])),
    );
    // The pages of the last full walk stay: a full run revalidates them (304s while unchanged).
    state.kinds[kind] = items.length
      ? { cursor: found!.cursor, pages: own.pages }
      : { cursor: own.cursor, url, etag: found ? found.etag : own.etag, pages: own.pages };
    const upserted = items.map(({ item }) => item);
    changes[kind] = { full: false, upserted, present: [], removed: [] } as ChangeSet["changes"][K];
  };

  const syncFull = async <K extends Kind>(kind: K) => {
    const before = options.full ? prev?.kinds[kind]?.pages : undefined;
    for (let attempt = 1; ; attempt++) {
      const pages: PageState[] = [];
      const upserted: EntityOf[K][] = [];
      let url: string | undefined = client.listUrl(kind, {
        perPage: options.perPage,
        fields: options.fields?.[kind],
        query: baseQuery(kind, options),
      });
      let total: number | undefined;
      let moved = false;
      for (let i = 0; url && !moved; i++) {
        const kept: PageState | undefined = before?.[i]?.url === url ? before[i] : undefined;
        const page: ListPage<EntityOf[K]> | NotModifiedPage = await read<EntityOf[K]>(
          kind,
          url,
          kept?.etag,
        );
        if (page.notModified) {
          pages.push(kept!);
          url = kept!.next;
          continue;
        }
        total ??= page.total;
        moved = page.total !== total;
        upserted.push(...page.items);
        pages.push({
          url,
          etag: page.etag,
          cursor: page.cursor,
          ids: page.items.map((item) => (item as { id: number }).id),
          next: page.next,
        });
        url = page.next;
      }
      if (moved && attempt < WALK_ATTEMPTS) continue;
      state.kinds[kind] = { cursor: earliest(pages.map((p) => p.cursor)), pages };
      shownAt.set(kind, new Map(pages.flatMap((p) => p.ids.map((id) => [id, p.cursor] as const))));
      const present = pages.flatMap((p) => p.ids);
      changes[kind] = { full: true, upserted, present, removed: [] } as ChangeSet["changes"][K];
      return;
    }
  };

  let deletions: Array<{ item: Deletion; cursor: number | undefined }> = [];
  const syncDeleted = async () => {
    const own = prev!.deleted?.cursor !== undefined ? prev!.deleted : undefined;
    const start = own?.cursor ?? earliest(incremental.map((k) => prev!.kinds[k]!.cursor));
    const url = client.listUrl("deleted", { query: { sync_cursor: start } });
    const found = await walk<Deletion>("deleted", url, own?.url === url ? own.etag : undefined);
    deletions = found?.items ?? [];
    state.deleted = deletions.length
      ? { cursor: found!.cursor }
      : { cursor: start, url, etag: found ? found.etag : own?.etag };
  };

  await Promise.all([
    ...kinds.map((k) => (incremental.includes(k) ? syncIncremental(k) : syncFull(k))),
    incremental.length ? syncDeleted() : undefined,
  ]);
  // After a first or full run, removals are asked from the earliest list's cursor on.
  state.deleted ??= { cursor: earliest(kinds.map((k) => state.kinds[k]?.cursor)) };
  // Removals apply to every list of the run, full walks too: an entry newer than the page that
  // listed its item says it left after that page was read.
  for (const kind of kinds) {
    const type = DELETION_TYPE[kind];
    const shown = shownAt.get(kind)!;
    changes[kind]!.removed = deletions
      .map(({ item }) => item)
      .filter((d) => {
        if (d.type !== type) return false;
        const at = shown.get(d.id);
        // Removed unless this run's list showed it from a page read at or after the removal.
        return !shown.has(d.id) || at === undefined || at < d.sync_cursor;
      })
      .map((d) => d.id);
  }
  return { state, changes, stats };
}
