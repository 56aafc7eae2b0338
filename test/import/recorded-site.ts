/**
 * This worker as the source of a TEC-site import into itself: the source's answers are recorded
 * as `http://source.example` (so its URLs and global ids name that host), storage is wiped, and the
 * recording is served as the source while the now empty instance is the target.
 */
import { applyD1Migrations, reset, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { resetRateLimits } from "../../src/http/rate-limit";
import { clearStringsCache, stringsKey } from "../../src/i18n";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";
import type { FetchLike } from "../../tools/import/client";
import { ADMIN, NS, ORIGIN } from "../support/api";

export const SOURCE = "http://source.example";
export const SOURCE_ROOT = `${SOURCE}${NS}`;
export const ARCHIVES = ["categories", "tags", "venues", "organizers", "events"] as const;
export type Archive = (typeof ARCHIVES)[number];

/** Every status but trash, and every date: what an administrator's import reads. */
export const EVERY_EVENT =
  "status=publish,future,draft,pending,private&start_date=1970-01-01&end_date=2999-12-31";

/** A request to this worker as the source site, as its administrator (`path` under the origin). */
export async function atSource(
  path: string,
  json?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await SELF.fetch(`${SOURCE}${path}`, {
    method: json === undefined ? "GET" : "POST",
    headers: { ...ADMIN, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: await res.json<any>() };
}

/** A request to the source's namespace that must succeed. */
export async function source(path: string, json?: unknown): Promise<any> {
  const { status, body } = await atSource(`${NS}${path}`, json);
  if (status >= 300) throw new Error(`${path}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** Every item of every archive, as an administrator of the source sees them (`extra`: more query). */
export async function record(extra = ""): Promise<Record<Archive, any[]>> {
  const query: Record<Archive, string> = {
    categories: "hide_empty=false",
    tags: "hide_empty=false",
    venues: "status=publish,future,draft,pending,private",
    organizers: "status=publish,future,draft,pending,private",
    events: EVERY_EVENT,
  };
  const out = {} as Record<Archive, any[]>;
  for (const kind of ARCHIVES) {
    out[kind] = [];
    for (let page = 1; ; page++) {
      const body = await source(`/${kind}?${query[kind]}${extra}&per_page=50&page=${page}`);
      out[kind].push(...body[kind]);
      if (page >= body.total_pages) break;
    }
  }
  return out;
}

/** A single answer of the source, recorded: path and query (sorted) → status and body. */
export type Singles = Map<string, { status: number; body: unknown }>;

/** The key of a single answer: the path under the origin and the sorted query. */
const singleKey = (u: URL) => {
  const q = new URLSearchParams([...u.searchParams].sort(([a], [b]) => a.localeCompare(b)));
  return `${u.pathname}?${q}`;
};

/** Records the source's answers to these GETs (paths under the origin, with their query). */
export async function recordSingles(paths: string[], into: Singles = new Map()): Promise<Singles> {
  for (const path of paths) {
    const { status, body } = await atSource(path);
    into.set(singleKey(new URL(`${SOURCE}${path}`)), { status, body });
  }
  return into;
}

/**
 * A TEC site answering every archive from `items`, paged by `per_page`, linked by next_rest_url,
 * and any other GET from `singles` (a request nothing was recorded for fails the test).
 */
export function recordedSite(
  items: Record<Archive, any[]>,
  singles: Singles = new Map(),
): FetchLike {
  return async (url) => {
    const u = new URL(url);
    const recorded = singles.get(singleKey(u));
    if (recorded) return Response.json(recorded.body, { status: recorded.status });
    const kind = u.pathname.split("/").filter(Boolean).pop() as Archive;
    const list = items[kind];
    if (!list || !u.pathname.startsWith(NS)) throw new Error(`nothing recorded for ${url}`);
    const perPage = Number(u.searchParams.get("per_page") ?? 10);
    const page = Number(u.searchParams.get("page") ?? 1);
    const totalPages = Math.max(1, Math.ceil(list.length / perPage));
    const next = new URL(u);
    next.searchParams.set("page", String(page + 1));
    return Response.json({
      [kind]: list.slice((page - 1) * perPage, page * perPage),
      total: list.length,
      total_pages: totalPages,
      ...(page < totalPages ? { next_rest_url: next.href } : {}),
    });
  };
}

/** Empties the instance, as a fresh `npm start -- --no-demo` would be (test/setup.ts). */
export async function wipe(): Promise<void> {
  await reset();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await env.STRINGS.put(stringsKey("en"), JSON.stringify(en));
  await env.STRINGS.put(stringsKey("de"), JSON.stringify(de));
  clearStringsCache();
  resetRateLimits();
}

/** This instance, as the import's target (an administrator). */
export const target = {
  base: `${ORIGIN}${NS}`,
  authorization: ADMIN.authorization,
  fetch: ((url, init) => SELF.fetch(url, init)) as FetchLike,
};
