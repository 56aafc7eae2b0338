/**
 * What an isolate knows of the URLs it has answered anonymous GETs for (contract §6, issue 16): for
 * each request URL (as the app sees it), what its entity tag is made of, the tags already worked
 * out per content version and clock bucket, and — once the URL has answered 200 — what a 304 for it
 * carries. `src/http/memory-answers.ts` answers repeats from this before any routing.
 *
 * Everything here is a pure function of the URL, the settings and the content version, so an entry
 * may be dropped at any time; the memo is bounded.
 */

import { ARCHIVE_DATES } from "../events/date-fields";
import type { Settings } from "../settings";
import type { AppContext } from "./context";
import { requestQuery } from "./context";
import { sha256Hex } from "./crypto";
import { setStandardHeaders } from "./headers";
import { modifiedAfterArg } from "./list-args";
import { Memo } from "./memo";
import type { ParamBag } from "./params";
import type { Urls } from "./urls";

/**
 * Query parameters whose meaning moves with the clock: the archive's date filters (relative dates)
 * and every list's `modified_after`.
 */
const TIME_PARAMS = [...Object.keys(ARCHIVE_DATES), ...Object.keys(modifiedAfterArg(""))];
const ABSOLUTE_DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Whether an answer moves with the minute (its clock bucket; else with the UTC date, as the default
 * event window does): the query holds relative dates or asks for upcoming things.
 */
function movesByMinute(query: ParamBag): boolean {
  return Object.entries(query).some(
    ([k, v]) =>
      (TIME_PARAMS.includes(k) && !(typeof v === "string" && ABSOLUTE_DATE.test(v.trim()))) ||
      (k === "only_with_upcoming" && v !== "" && v !== "0" && v !== "false"),
  );
}

/** JSON with object keys sorted at every level: one text per meaning of a parsed query. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What the isolate knows of one request URL. */
export interface KnownUrl {
  /** Language, namespace root, path and the canonical parsed query, one per line (the tag's input). */
  shape: string;
  movesByMinute: boolean;
  /** The request's URL builders (the stored answers' `Link` and discovery headers). */
  urls: Urls;
  /** Entity tags by `{version}|{clock bucket}` (the last few). */
  tags: Map<string, string>;
  /**
   * The headers of a 304 for this URL without `ETag` and the per-request ones, once the URL has
   * answered 200 to an anonymous GET; until then the URL is not answered from memory.
   */
  notModified?: Array<[string, string]>;
}

/** Longest URL remembered (longer ones are worked out every time). */
const MAX_URL = 2048;
/** Tags kept per URL (a new version or clock bucket pushes the oldest out). */
const MAX_TAGS = 4;
/** Known URLs per settings (tests run several configurations in one isolate). */
const known = new WeakMap<Settings, Memo<KnownUrl>>();
const knownFor = (settings: Settings) => {
  let memo = known.get(settings);
  if (!memo) {
    memo = new Memo<KnownUrl>(2048);
    known.set(settings, memo);
  }
  return memo;
};

/** The bucket of `now` for a known URL. */
export const bucketOf = (entry: KnownUrl, now: number) =>
  new Date(now).toISOString().slice(0, entry.movesByMinute ? 16 : 10);

/** The known URL for a request URL, if any (the memory path: no parsing at all). */
export const knownUrl = (settings: Settings, url: string): KnownUrl | undefined =>
  knownFor(settings).find(url);

/** The request's `KnownUrl`, worked out from its parsed query when not known yet. */
export function knowUrl(c: AppContext): KnownUrl {
  const make = (): KnownUrl => {
    const url = c.get("url") ?? new URL(c.req.url);
    const query = requestQuery(c);
    return {
      shape: [
        c.get("lang"),
        c.get("urls").namespaceRoot,
        url.pathname.replace(/\/+$/, ""),
        canonical(query),
      ].join("\n"),
      movesByMinute: movesByMinute(query),
      urls: c.get("urls"),
      tags: new Map(),
    };
  };
  return c.req.url.length > MAX_URL ? make() : knownFor(c.get("settings")).get(c.req.url, make);
}

/** The entity tag already worked out for a version and clock bucket, if any. */
export const knownTag = (entry: KnownUrl, version: number, bucket: string) =>
  entry.tags.get(`${version}|${bucket}`);

/**
 * A strong ETag for an anonymous GET: content version, language, path, clock bucket and the query
 * **as the handler reads it** (issue 20: PHP-style parsing, the last of repeated keys wins), so a
 * tag or cache entry can never stand for an answer with other arguments. Remembered per URL.
 */
export async function entityTag(entry: KnownUrl, version: number, now: number): Promise<string> {
  const bucket = bucketOf(entry, now);
  const key = `${version}|${bucket}`;
  const kept = entry.tags.get(key);
  if (kept) return kept;
  const tag = `"${(await sha256Hex(`${version}\n${entry.shape}\n${bucket}`)).slice(0, 40)}"`;
  entry.tags.set(key, tag);
  if (entry.tags.size > MAX_TAGS) entry.tags.delete(entry.tags.keys().next().value as string);
  return tag;
}

/**
 * Marks the URL as answering 200 to anonymous GETs (it may now be answered from memory) and works
 * out the headers of its 304s, as `applyResponseHeaders` would set them on a 304 from memory.
 */
export function answered(entry: KnownUrl, c: AppContext): void {
  if (entry.notModified) return;
  const h = new Headers();
  setStandardHeaders(h, {
    settings: c.get("settings"),
    urls: entry.urls,
    authenticated: false,
    method: "GET",
    status: 304,
  });
  h.delete("Server-Timing");
  entry.notModified = [...h];
}
