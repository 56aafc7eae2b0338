/**
 * The HTTP client of one language of one service: `Authorization: Basic` with an application
 * password, `If-None-Match` revalidation (a 304 reuses what the client has), list walking along
 * `next_rest_url` (else `X-WP-TotalPages`), `_fields` passed through, and every error answer thrown
 * as a {@link TecApiError} carrying the WordPress envelope's `code`.
 */
import { isErrorEnvelope, TecApiError, TecHttpError } from "./errors.js";
import type { Deletion, EntityOf, Kind, Query } from "./types.js";

/** An application password of a user (`Authorization: Basic base64(username:password)`). */
export interface Credentials {
  username: string;
  /** The application password, with or without its spaces. */
  password: string;
}

/** What the client remembers of an answer to revalidate it: its `ETag` and its parsed body. */
export interface CachedAnswer {
  etag: string;
  data: unknown;
}

/** Where {@link TecClient.get} keeps answers between calls (a `Map` works). */
export interface AnswerCache {
  get(url: string): CachedAnswer | undefined;
  set(url: string, answer: CachedAnswer): unknown;
}

/** One answer, reported to {@link TecClientOptions.onResponse} (e.g. to count a build's traffic). */
export interface ResponseInfo {
  method: string;
  url: string;
  status: number;
  /** Bytes of the body as received. */
  bytes: number;
}

export interface TecClientOptions {
  /**
   * The namespace root of one language, e.g. `https://cal.example/de/wp-json/tribe/events/v1`
   * (`/wp-json/tribe/events/v1` is the default language).
   */
  baseUrl: string;
  /** An application password; anonymous without it (cached, public answers only). */
  auth?: Credentials;
  /** Headers sent with every request (e.g. a `User-Agent`). */
  headers?: Record<string, string>;
  /** Answers kept for revalidation by {@link TecClient.get}; default: a `Map` of this client. */
  cache?: AnswerCache;
  /** Called after every answer. */
  onResponse?: (info: ResponseInfo) => void;
  /** The `fetch` to use; default: the global one (Node ≥ 20, browsers, workers). */
  fetch?: typeof globalThis.fetch;
  /** Per request, in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** How often a GET is retried after a network error or a 502/503/504 (default 2). */
  retries?: number;
}

/** What {@link TecClient.request} answers. */
export interface Answer<T> {
  url: string;
  status: number;
  /** The parsed JSON body; on a 304, the cached body when there was one. */
  data: T;
  etag: string | undefined;
  headers: Headers;
  /** True for a 304 Not Modified. */
  notModified: boolean;
  bytes: number;
}

export interface RequestOptions {
  method?: string;
  query?: Query;
  /** Sent as JSON. */
  json?: unknown;
  /** Sends `If-None-Match`; a 304 then answers `notModified` with `data` undefined. */
  ifNoneMatch?: string;
  headers?: Record<string, string>;
}

/** A list request: the documented parameters, `fields` for `_fields`, and `perPage`. */
export interface ListOptions {
  /** Query parameters, passed through (`start_date`, `categories`, `modified_after`, …). */
  query?: Query;
  /**
   * The item fields to keep (WordPress's `_fields`, applied to each item): the client adds `id` and
   * what paging needs (`total`, `total_pages`, `next_rest_url`).
   */
  fields?: readonly string[];
  /** Items per page (default 50, the most builds ask for; the service's cap applies). */
  perPage?: number;
}

/** The response header of the service's sync cursor (contract §7.3 of the service). */
export const SYNC_CURSOR_HEADER = "x-tec-sync-cursor";

/**
 * The sync cursor an answer carries (`X-TEC-Sync-Cursor`): a whole number, the position of the
 * service's sync clock its data was read at; undefined when the service sends none.
 */
export function syncCursorOf(headers: Headers): number | undefined {
  const value = headers.get(SYNC_CURSOR_HEADER);
  // Up to the largest safe integer (16 digits: a restored calendar's clock passes the time floor).
  return value !== null && /^\d{1,16}$/.test(value) && Number.isSafeInteger(Number(value))
    ? Number(value)
    : undefined;
}

/** One page of a list. */
export interface ListPage<T> {
  notModified: false;
  items: T[];
  total: number;
  totalPages: number;
  url: string;
  etag: string | undefined;
  /** The page's sync cursor (`X-TEC-Sync-Cursor`), if the service sent one. */
  cursor: number | undefined;
  /** The next page's URL, if there is one. */
  next: string | undefined;
  /** Bytes of the body as received. */
  bytes: number;
}

/** A page answered 304 Not Modified (asked with `If-None-Match`). */
export interface NotModifiedPage {
  notModified: true;
  url: string;
  etag: string | undefined;
  bytes: number;
}

/** The property that holds a list's items, by route. */
export const ITEMS_KEY = {
  events: "events",
  venues: "venues",
  organizers: "organizers",
  categories: "categories",
  tags: "tags",
  deleted: "deleted",
} as const satisfies Record<Kind | "deleted", string>;

/** What paging needs of a list answer, kept in `_fields` whatever the caller asks for. */
const PAGING_FIELDS = ["rest_url", "next_rest_url", "total", "total_pages"];

/**
 * The `_fields` value of a list: each item field under the list's key, `id` always, and the paging
 * fields. Undefined when `fields` is.
 * @example listFields("events", ["title"]) // "events.id,events.title,rest_url,next_rest_url,total,total_pages"
 */
export function listFields(
  route: Kind | "deleted",
  fields?: readonly string[],
): string | undefined {
  if (!fields) return undefined;
  const key = ITEMS_KEY[route];
  const item = [...new Set(["id", ...fields])].map((f) => `${key}.${f}`);
  return [...item, ...PAGING_FIELDS].join(",");
}

const RETRY_STATUSES = new Set([502, 503, 504]);

/**
 * A client of one language of one service.
 * @example
 * const client = new TecClient({ baseUrl: "https://cal.example/de/wp-json/tribe/events/v1" });
 * const event = await client.get("events", 42);            // revalidated with If-None-Match next time
 * for await (const page of client.pages("venues")) console.log(page.items.length);
 */
export class TecClient {
  /** The namespace root, without a trailing slash. */
  readonly baseUrl: string;
  readonly #options: TecClientOptions;
  readonly #cache: AnswerCache;
  readonly #authorization: string | undefined;

  constructor(options: TecClientOptions) {
    const base = new URL(options.baseUrl);
    base.search = "";
    base.hash = "";
    this.baseUrl = base.href.replace(/\/+$/, "");
    this.#options = options;
    this.#cache = options.cache ?? new Map();
    this.#authorization = options.auth
      ? `Basic ${base64(`${options.auth.username}:${options.auth.password}`)}`
      : undefined;
  }

  /**
   * The absolute URL of `path` (`events`, `/events/42`) under the namespace root, with `query` in
   * a stable order (undefined values left out). An absolute URL the service gave (`next_rest_url`)
   * is kept if it is under the root; one of another origin with the root's path (a `SITE_URL`
   * in front of the worker) is moved to the root's origin, so that credentials only go there.
   * @throws TecHttpError for a URL elsewhere.
   */
  url(path: string, query: Query = {}): string {
    let url: URL;
    if (/^https?:\/\//.test(path)) {
      url = new URL(path);
      const base = new URL(this.baseUrl);
      if (url.origin !== base.origin) {
        if (!url.pathname.startsWith(base.pathname))
          throw new TecHttpError("URL outside the API", 0, path);
        url = new URL(`${url.pathname}${url.search}`, base.origin);
      }
      if (!url.href.startsWith(this.baseUrl))
        throw new TecHttpError("URL outside the API", 0, path);
    } else {
      url = new URL(`${this.baseUrl}/${path.replace(/^\/+/, "")}`);
    }
    const keys = Object.keys(query).sort();
    for (const key of keys) {
      const value = query[key];
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.href;
  }

  /**
   * One request. 2xx: the parsed body; 304: `notModified` (send `ifNoneMatch`).
   * @throws TecApiError for an error answer with the WordPress envelope, TecHttpError otherwise.
   */
  async request<T = unknown>(path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const method = (options.method ?? "GET").toUpperCase();
    const url = this.url(path, options.query);
    const headers: Record<string, string> = {
      accept: "application/json",
      ...this.#options.headers,
      ...options.headers,
    };
    if (this.#authorization) headers.authorization = this.#authorization;
    if (options.ifNoneMatch) headers["if-none-match"] = options.ifNoneMatch;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    const doFetch = this.#options.fetch ?? globalThis.fetch;
    const retries = method === "GET" ? (this.#options.retries ?? 2) : 0;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method,
          headers,
          body,
          signal: AbortSignal.timeout(this.#options.timeoutMs ?? 30_000),
        });
      } catch (err) {
        if (attempt < retries) {
          await sleep(250 * 2 ** attempt);
          continue;
        }
        throw new TecHttpError(`no answer: ${(err as Error).message}`, 0, url);
      }
      const buffer = await res.arrayBuffer();
      this.#options.onResponse?.({ method, url, status: res.status, bytes: buffer.byteLength });
      if (RETRY_STATUSES.has(res.status) && attempt < retries) {
        await sleep(250 * 2 ** attempt);
        continue;
      }
      const etag = res.headers.get("etag") ?? undefined;
      const base = {
        url,
        status: res.status,
        etag,
        headers: res.headers,
        bytes: buffer.byteLength,
      };
      if (res.status === 304) return { ...base, data: undefined as T, notModified: true };
      const text = new TextDecoder().decode(buffer);
      let data: unknown;
      try {
        data = text ? JSON.parse(text) : undefined;
      } catch {
        throw new TecHttpError("the answer is not JSON", res.status, url);
      }
      if (!res.ok) {
        if (isErrorEnvelope(data)) throw new TecApiError(data, res.status, url);
        throw new TecHttpError("error answer without the WordPress envelope", res.status, url);
      }
      return { ...base, data: data as T, notModified: false };
    }
  }

  /**
   * One item by id, revalidated with `If-None-Match` when the client has it from before (a 304
   * answers the kept copy). `fields`: WordPress's `_fields` (`id` is always added).
   * @throws TecApiError e.g. `rest-event-not-found`, `rest_post_invalid_id`.
   * @example const venue = await client.get("venues", 7, { fields: ["venue", "city"] });
   */
  async get<K extends Kind>(
    kind: K,
    id: number,
    options: { fields?: readonly string[]; query?: Query } = {},
  ): Promise<EntityOf[K]> {
    const query: Query = { ...options.query };
    if (options.fields) query._fields = [...new Set(["id", ...options.fields])].join(",");
    const url = this.url(`${kind}/${id}`, query);
    const cached = this.#cache.get(url);
    const answer = await this.request<EntityOf[K]>(url, { ifNoneMatch: cached?.etag });
    if (answer.notModified && cached) return cached.data as EntityOf[K];
    if (answer.etag) this.#cache.set(url, { etag: answer.etag, data: answer.data });
    return answer.data;
  }

  /**
   * The URL of a list's first page.
   * @example client.listUrl("events", { query: { start_date: "2026-01-01" } })
   */
  listUrl(route: Kind | "deleted", options: ListOptions = {}): string {
    return this.url(route, {
      per_page: options.perPage ?? 50,
      ...options.query,
      _fields: listFields(route, options.fields) ?? options.query?._fields,
    });
  }

  /**
   * Reads one page of a list (`url` from {@link listUrl} or a page's `next`). With `ifNoneMatch`,
   * a 304 answers a {@link NotModifiedPage}.
   */
  async page<T>(
    route: Kind | "deleted",
    url: string,
    ifNoneMatch?: string,
  ): Promise<ListPage<T> | NotModifiedPage> {
    const answer = await this.request<Record<string, unknown>>(url, { ifNoneMatch });
    if (answer.notModified)
      return { notModified: true, url, etag: answer.etag ?? ifNoneMatch, bytes: answer.bytes };
    const body = answer.data ?? {};
    const items = body[ITEMS_KEY[route]];
    if (!Array.isArray(items))
      throw new TecHttpError(`the answer has no "${ITEMS_KEY[route]}" list`, answer.status, url);
    const total = Number(body.total ?? answer.headers.get("x-wp-total") ?? items.length);
    const totalPages = Number(body.total_pages ?? answer.headers.get("x-wp-totalpages") ?? 1);
    let next = typeof body.next_rest_url === "string" ? body.next_rest_url : undefined;
    if (!next) {
      // `_fields` may have left it out (or a proxy): the headers still say how many pages there are.
      const current = Number(new URL(url).searchParams.get("page") ?? 1);
      if (current < totalPages) {
        const u = new URL(url);
        u.searchParams.set("page", String(current + 1));
        next = u.href;
      }
    }
    return {
      notModified: false,
      items: items as T[],
      total,
      totalPages,
      url,
      etag: answer.etag,
      cursor: syncCursorOf(answer.headers),
      next: next && this.url(next),
      bytes: answer.bytes,
    };
  }

  /**
   * Every page of a list, along `next_rest_url`.
   * @example for await (const page of client.pages("events", { query: { featured: true } })) …
   */
  async *pages<K extends Kind>(
    kind: K,
    options: ListOptions = {},
  ): AsyncGenerator<ListPage<EntityOf[K]>> {
    let url: string | undefined = this.listUrl(kind, options);
    while (url) {
      const page = (await this.page<EntityOf[K]>(kind, url)) as ListPage<EntityOf[K]>;
      yield page;
      url = page.next;
    }
  }

  /** Every item of a list (all pages). */
  async all<K extends Kind>(kind: K, options: ListOptions = {}): Promise<EntityOf[K][]> {
    const out: EntityOf[K][] = [];
    for await (const page of this.pages(kind, options)) out.push(...page.items);
    return out;
  }

  /**
   * What readers can no longer see since a sync cursor (`X-TEC-Sync-Cursor` of an earlier answer;
   * none: everything): `GET /deleted`, all pages, in the order it happened.
   * @example await client.deletions(4127) // [{id: 8, type: "event", status: "trash", sync_cursor: 4130, …}]
   */
  async deletions(cursor?: number, query: Query = {}): Promise<Deletion[]> {
    const out: Deletion[] = [];
    let url: string | undefined = this.listUrl("deleted", {
      query: { ...query, sync_cursor: cursor },
    });
    while (url) {
      const page = (await this.page<Deletion>("deleted", url)) as ListPage<Deletion>;
      out.push(...page.items);
      url = page.next;
    }
    return out;
  }
}

/** Base64 of a UTF-8 string, in Node and browsers alike. */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
