/**
 * Reading a running The Events Calendar site (tec-reference §5): every page of an archive, following
 * `next_rest_url`, as the public or with an application password.
 *
 * TEC's links cannot be followed blindly: term archives drop every filter from `next_rest_url`
 * (§5.4: `…/categories/?page=2`, so page 2 would come with the default `per_page` and
 * `hide_empty=true`), and a link could point anywhere. So each next URL must stay on the source's
 * namespace (same origin and path prefix; credentials never go elsewhere), gets this walk's own
 * parameters put back, and may not repeat; the walk stops at `total_pages` at the latest.
 */
import { pagingOf } from "../../../src/http/pagination";
import { type FetchLike, fetchWithRetry, Unreachable } from "../../lib/fetch-retry";
import { ImportError } from "../errors";

/** Where to read from. */
export interface TecSource {
  /** The namespace root, e.g. `https://example.org/wp-json/tribe/events/v1` (a trailing `/` is ignored). */
  base: string;
  /** `Basic …` for an application password (drafts and private posts come too), or undefined for public data. */
  authorization?: string;
  /**
   * Passwords to open the source's password-protected events with (§4.7 `password`), tried in this
   * order on each event it does not open otherwise; the one that opens it is the copy's password.
   */
  eventPasswords?: string[];
  fetch: FetchLike;
}

/** Retries of network errors, 5xx and 429 per page. */
const RETRIES = 3;

/** An answer of the source: its status and JSON body (`undefined` when it sent no JSON). */
export interface SourceAnswer<T = unknown> {
  status: number;
  body: T | undefined;
}

/**
 * GETs one URL of the source (with its credentials, if any), retrying transient failures; any
 * answer is returned, whatever its status.
 * @throws ImportError (status 0) when the source cannot be reached after the retries.
 */
export async function getAnswer<T>(
  source: TecSource,
  url: string,
  retryDelayMs = 250,
): Promise<SourceAnswer<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (source.authorization) headers.authorization = source.authorization;
  let res: Response;
  try {
    ({ response: res } = await fetchWithRetry(
      source.fetch,
      url,
      () => ({ method: "GET", headers }),
      {
        retries: RETRIES,
        delayMs: retryDelayMs,
      },
    ));
  } catch (err) {
    if (!(err instanceof Unreachable)) throw err;
    throw new ImportError(`cannot reach the source ${url}: ${err.message}`, 0);
  }
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as T };
  } catch {
    return { status: res.status, body: undefined };
  }
}

/**
 * GETs one JSON page of the source, retrying transient failures.
 * @throws ImportError with the status (0: unreachable) and the WordPress error of the answer.
 */
export async function getJson<T>(source: TecSource, url: string, retryDelayMs = 250): Promise<T> {
  const { status, body } = await getAnswer<T>(source, url, retryDelayMs);
  if (body === undefined) {
    throw new ImportError(
      `the source answered GET ${url} with HTTP ${status} and no JSON (is it a TEC namespace root?)`,
      status,
    );
  }
  if (status !== 200) {
    const e = body as { code?: string; message?: string };
    const hint =
      status === 401 || status === 403 ? " (check the source user and application password)" : "";
    throw new ImportError(
      `the source answered GET ${url} with HTTP ${status} ${e.code ?? ""}: ${e.message ?? ""}${hint}`,
      status,
      e.code,
    );
  }
  return body;
}

/**
 * Every item of an archive, page after page.
 * @param path e.g. `/categories`; `params` the walk's filters (kept on every page), `page` excluded.
 * @param key the list's key in the body (`categories`, `events`, …).
 * @throws ImportError when a page fails, or a `next_rest_url` leaves the source's namespace or loops.
 * @example for await (const venue of walk(source, "/venues", { per_page: "50" }, "venues")) …
 */
export async function* walk<T>(
  source: TecSource,
  path: string,
  params: Record<string, string>,
  key: string,
  retryDelayMs?: number,
): AsyncGenerator<T> {
  const base = new URL(`${source.base.replace(/\/+$/, "")}/`);
  const first = new URL(`${base.href}${path.replace(/^\/+/, "")}`);
  for (const [k, v] of Object.entries(params)) first.searchParams.set(k, v);
  const seen = new Set<string>();
  let url: URL | null = first;
  let pages = 0;
  while (url) {
    if (seen.has(url.href))
      throw new ImportError(`the source's next_rest_url loops back to ${url.href}`, 0);
    seen.add(url.href);
    const body = await getJson<Record<string, unknown>>(source, url.href, retryDelayMs);
    const items = body[key];
    if (!Array.isArray(items))
      throw new ImportError(
        `the source's ${path} answer has no "${key}" list (is it a TEC namespace root?)`,
        200,
      );
    for (const item of items) yield item as T;
    pages++;
    const paging = pagingOf(body);
    if (!paging.next || items.length === 0 || (paging.pages !== undefined && pages >= paging.pages))
      break;
    url = nextPage(paging.next, base, first, params);
  }
}

/**
 * The next page's URL: TEC's `next_rest_url` with this walk's parameters put back.
 * @throws ImportError when the link leaves the source's namespace or the archive.
 */
function nextPage(next: string, base: URL, first: URL, params: Record<string, string>): URL {
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    throw new ImportError(`the source sent an unreadable next_rest_url: ${next}`, 0);
  }
  const sameArchive = url.pathname.replace(/\/+$/, "") === first.pathname.replace(/\/+$/, "");
  if (url.origin !== base.origin || !sameArchive) {
    throw new ImportError(
      `the source's next_rest_url ${url.href} leaves ${first.href.split("?")[0]}: not followed`,
      0,
    );
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}
