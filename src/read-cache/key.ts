/**
 * The key of an anonymous answer (docs: caching): what it depends on, and its entity tag.
 *
 * An answer to an anonymous GET is a function of
 *
 * - the data: the content version it was read at (src/read-cache/version.ts);
 * - the code: the deployment (the Workers version metadata binding, `CF_VERSION_METADATA`: a new id
 *   with every upload, and with every start of `wrangler dev`);
 * - the settings: a digest of every setting but the secrets and `READ_CACHE` (which must not change
 *   an answer);
 * - the strings of the request's language (`/doc`, the indexes, the reference page): their digest;
 * - the request as the handler reads it: language, URL base, path and the query **as parsed** (PHP
 *   brackets, the last of repeated keys wins) — the same object the handler's arguments come from
 *   (`Ticket.query`), so no two requests that the handler could tell apart share a key;
 * - the clock, for answers whose defaults or relative dates read it: the UTC day (the default event
 *   window), or the minute (relative dates, `modified_after`, `only_with_upcoming`).
 *
 * The entity tag is a digest of all of it; it is also the key of both stores (src/read-cache/store.ts).
 */
import { ARCHIVE_DATES } from "../events/date-fields";
import { sha256Hex } from "../http/crypto";
import { modifiedAfterArg } from "../http/list-args";
import { MAX_QUERY_CHARS, type ParamBag, parseQueryString } from "../http/params";
import { buildUrls, languageOf, type Urls } from "../http/urls";
import type { Strings } from "../i18n";
import { Memo } from "../lib/memo";
import type { Settings } from "../settings";

/**
 * Query parameters whose meaning moves with the clock: the archive's date filters (relative dates)
 * and every list's `modified_after`.
 */
const TIME_PARAMS = [...Object.keys(ARCHIVE_DATES), ...Object.keys(modifiedAfterArg(""))];
const ABSOLUTE_DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/** Whether an answer moves with the minute (else with the UTC day, as the default event window does). */
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

/** Freezes a parsed query and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A request URL as the read cache sees it: a pure function of the URL and the settings. */
export interface RequestShape {
  /** Language of the request (`en`, `de`, …). */
  lang: string;
  /** The request's URL builders (the headers of a 304 made without the handler). */
  urls: Urls;
  /** The parsed query: the one object the handler reads its arguments from. */
  query: ParamBag;
  /** Language, URL base, path and the canonical query, one per line. */
  text: string;
  movesByMinute: boolean;
  /** Entity tags already worked out, by everything else they depend on (the last few). */
  tags: Map<string, string>;
}

/** Longest URL whose shape is remembered (longer ones are worked out every time). */
const MAX_URL = 2048;
/** Tags remembered per URL (a new version or clock bucket pushes the oldest out). */
const MAX_TAGS = 4;
/** Shapes remembered per settings (tests run several configurations in one isolate). */
const shapes = new WeakMap<Settings, Memo<RequestShape>>();

/**
 * The shape of a request URL, remembered per URL; null when the read cache stays out of it (a query
 * too long for the app, which answers 414).
 */
export function shapeOf(settings: Settings, url: string): RequestShape | null {
  let memo = shapes.get(settings);
  if (!memo) {
    memo = new Memo<RequestShape>(2048);
    shapes.set(settings, memo);
  }
  const kept = memo.find(url);
  if (kept) return kept;
  const parsed = new URL(url);
  if (parsed.search.length > MAX_QUERY_CHARS) return null;
  const where = languageOf(settings, parsed.pathname);
  const lang = where?.lang ?? settings.defaultLanguage;
  const urls = buildUrls(settings, parsed.origin, where?.prefix ?? "");
  // Shared by every request for this URL: frozen, so that no handler can change what the key says.
  const query = deepFreeze(parseQueryString(parsed.search));
  const shape: RequestShape = {
    lang,
    urls,
    query,
    text: [lang, urls.namespaceRoot, parsed.pathname.replace(/\/+$/, ""), canonical(query)].join(
      "\n",
    ),
    movesByMinute: movesByMinute(query),
    tags: new Map(),
  };
  if (url.length <= MAX_URL) memo.set(url, shape);
  return shape;
}

/** What a key depends on besides the request: the data, the code, the settings and the strings. */
export interface KeyFacts {
  version: number;
  deployment: string;
  settingsDigest: string;
  stringsDigest: string;
}

/** The clock bucket of `now` for a request shape: its UTC minute or day. */
const bucketOf = (shape: RequestShape, now: number) =>
  new Date(now).toISOString().slice(0, shape.movesByMinute ? 16 : 10);

/**
 * The strong entity tag (and store key) of an anonymous answer: a digest of everything it depends
 * on. Remembered per URL.
 */
export async function entityTag(
  shape: RequestShape,
  facts: KeyFacts,
  now: number,
): Promise<string> {
  const parts = [
    facts.version,
    facts.deployment,
    facts.settingsDigest,
    facts.stringsDigest,
    bucketOf(shape, now),
  ].join("|");
  const kept = shape.tags.get(parts);
  if (kept) return kept;
  const tag = `"${(await sha256Hex(`${parts}\n${shape.text}`)).slice(0, 40)}"`;
  shape.tags.set(parts, tag);
  if (shape.tags.size > MAX_TAGS) shape.tags.delete(shape.tags.keys().next().value as string);
  return tag;
}

/** Settings that do not change an answer: secrets, and the switch of the read cache itself. */
const NOT_IN_KEY = new Set<keyof Settings>(["adminAppPassword", "webhookSecretKey", "readCache"]);

const settingsDigests = new WeakMap<Settings, string>();

/** The digest of these settings, once `settingsDigest` has worked it out. */
export const settingsDigestOf = (settings: Settings): string | undefined =>
  settingsDigests.get(settings);

/** A digest of every setting an answer may depend on (worked out once per settings object). */
export async function settingsDigest(settings: Settings): Promise<string> {
  const kept = Object.entries(settings).filter(([k]) => !NOT_IN_KEY.has(k as keyof Settings));
  const digest = (await sha256Hex(JSON.stringify(kept))).slice(0, 16);
  settingsDigests.set(settings, digest);
  return digest;
}

/** A digest of a language's strings as loaded. */
export const stringsDigest = async (strings: Strings): Promise<string> =>
  (await sha256Hex(JSON.stringify(strings))).slice(0, 16);
