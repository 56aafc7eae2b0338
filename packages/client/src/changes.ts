/**
 * The network half of incremental sync (contract §7.3): what changed since the state a previous run
 * left, without applying it anywhere. {@link sync} applies it to a {@link SyncStore}; the Astro
 * loader applies it to Astro's data store.
 *
 * - **First run** (no state, or one made with other options): every list is walked along
 *   `next_rest_url`, `per_page=50` (`/events` with the window `start_date=1970-01-01&end_date=2999-12-31`
 *   unless the caller gives one, `/categories` and `/tags` with `hide_empty=false`).
 * - **Later runs**: each list once more with `modified_after=<since>`, and
 *   `/deleted?modified_after=<since>`. `since` is the instant the run that saw a change started,
 *   less {@link ChangeOptions.overlapSeconds} (answers may be up to `CONTENT_VERSION_TTL_MS` old,
 *   and the service keeps change times in whole seconds). A list that answers no change keeps its
 *   `since`, so its next request is the same URL and is revalidated with `If-None-Match`: a 304.
 * - **Full runs** (`full: true`): every list walked again, each page revalidated with the `ETag`
 *   it had: a 304 keeps the ids that page had. What is no longer listed is gone — this also finds
 *   what `/deleted` does not report (unpublished posts, events moved out of a window).
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
  /** ISO 8601 UTC: the next run asks for changes after this instant. */
  since: string;
  /** The last incremental request and its `ETag`, when it answered no change. */
  url?: string;
  etag?: string;
  /** The pages of the last full walk: asked again with their `ETag` by a full run. */
  pages?: PageState[];
}

/** A page of a full walk: its URL, `ETag`, the ids it listed and the next page's URL. */
export interface PageState {
  url: string;
  etag?: string;
  ids: number[];
  next?: string;
}

/** What a run keeps between runs (JSON). */
export interface SyncState {
  version: 1;
  /** The options that shape answers (base URL, user, window, fields, queries): others mean a first run. */
  fingerprint: string;
  kinds: Partial<Record<Kind, KindState>>;
  /** The `/deleted` cursor, like a list's. */
  deleted?: { since: string; url?: string; etag?: string };
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
  /** Seconds a run's `since` lies before its start (default 5). */
  overlapSeconds?: number;
  /** Walk every list again, revalidating each page (see above). */
  full?: boolean;
  /** The clock (tests). */
  now?: () => Date;
}

/** The changes of one list. */
export interface KindChanges<T> {
  /** True after a full walk: `present` is the whole list, anything else is gone. */
  full: boolean;
  /** Items new or changed (full walks: every item of the pages not answered 304). */
  upserted: T[];
  /** Full walks: the id of every item listed, those of 304 pages included. */
  present: number[];
  /** Incremental runs: ids `/deleted` reported (deleted, or in the trash). */
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

/** The parameters every request of a list carries, before `modified_after` and paging. */
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

/** ISO 8601 UTC, whole seconds: `2026-11-22T11:02:00Z`. */
const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** How often a walk starts over when the list changed under it (its `total` moved). */
const WALK_ATTEMPTS = 3;

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
  const started = (options.now?.() ?? new Date()).getTime();
  const since = isoSeconds(started - (options.overlapSeconds ?? 5) * 1000);
  const print = fingerprint(client, user, options);
  const prev = previous?.version === 1 && previous.fingerprint === print ? previous : undefined;
  const kinds = options.kinds ?? KINDS;
  const stats: SyncStats = { requests: 0, notModified: 0, bytes: 0 };
  const state: SyncState = { version: 1, fingerprint: print, kinds: {} };
  const changes: ChangeSet["changes"] = {};

  const read = async <T>(route: Kind | "deleted", url: string, etag?: string) => {
    const page = await client.page<T>(route, url, etag);
    stats.requests++;
    stats.bytes += page.bytes;
    if (page.notModified) stats.notModified++;
    return page as ListPage<T> | NotModifiedPage;
  };

  /** Walks a list from `url`; `etag` for the first page only. Undefined: that page was a 304. */
  const walk = async <T>(route: Kind | "deleted", url: string, etag?: string) => {
    for (let attempt = 1; ; attempt++) {
      const first = await read<T>(route, url, etag);
      if (first.notModified) return undefined;
      const items = [...first.items];
      let next = first.next;
      let moved = false;
      while (next && !moved) {
        const page = (await read<T>(route, next)) as ListPage<T>;
        moved = page.total !== first.total;
        items.push(...page.items);
        next = page.next;
      }
      if (!moved || attempt === WALK_ATTEMPTS) return { items, etag: first.etag };
    }
  };

  const incremental = kinds.filter((k) => !options.full && prev?.kinds[k]);

  const syncIncremental = async <K extends Kind>(kind: K) => {
    const own = prev!.kinds[kind]!;
    const url = client.listUrl(kind, {
      perPage: options.perPage,
      fields: options.fields?.[kind],
      query: { ...baseQuery(kind, options), modified_after: own.since },
    });
    const found = await walk<EntityOf[K]>(kind, url, own.url === url ? own.etag : undefined);
    const upserted = found?.items ?? [];
    // The pages of the last full walk stay: a full run revalidates them (304s while unchanged).
    state.kinds[kind] = upserted.length
      ? { since, pages: own.pages }
      : { since: own.since, url, etag: found ? found.etag : own.etag, pages: own.pages };
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
          ids: page.items.map((item) => (item as { id: number }).id),
          next: page.next,
        });
        url = page.next;
      }
      if (moved && attempt < WALK_ATTEMPTS) continue;
      state.kinds[kind] = { since, pages };
      const present = pages.flatMap((p) => p.ids);
      changes[kind] = { full: true, upserted, present, removed: [] } as ChangeSet["changes"][K];
      return;
    }
  };

  let deletions: Deletion[] = [];
  const syncDeleted = async () => {
    const cursor = prev!.deleted ?? {
      since: incremental.map((k) => prev!.kinds[k]!.since).sort()[0],
    };
    const url = client.listUrl("deleted", { query: { modified_after: cursor.since } });
    const found = await walk<Deletion>(
      "deleted",
      url,
      cursor.url === url ? cursor.etag : undefined,
    );
    deletions = found?.items ?? [];
    state.deleted = deletions.length
      ? { since }
      : { since: cursor.since, url, etag: found ? found.etag : cursor.etag };
  };

  await Promise.all([
    ...kinds.map((k) => (incremental.includes(k) ? syncIncremental(k) : syncFull(k))),
    incremental.length ? syncDeleted() : undefined,
  ]);
  state.deleted ??= { since };
  for (const kind of incremental) {
    const type = DELETION_TYPE[kind];
    changes[kind]!.removed = deletions.filter((d) => d.type === type).map((d) => d.id);
  }
  return { state, changes, stats };
}
