/**
 * Per-language strings (contract §1): one KV entry per language, `strings:<lang>`, loaded from
 * `src/i18n/strings/<lang>.json` by `npm run strings:load`. Read at most once per language per
 * `STRINGS_TTL_S` per isolate, so a changed entry reaches every answer within twice that (see
 * `loadStrings`); a key missing in a language falls back to English; if KV holds no English at all
 * (strings never loaded), the English file bundled with the worker is used so that errors still
 * have messages.
 *
 * Sections: `messages.<code>` (error messages, src/http/error-response.ts), `params.<key>` (invalid
 * parameter messages), `args.<spec description>` (argument descriptions of the index, `OPTIONS` and
 * `/doc`), `doc.*` (`/doc`: `info`, `responses.<op>.<status>`, `schemas.<component>.<property>`,
 * `security.<scheme>`), `reference.*` (the reference page, src/root/reference/page.ts).
 * Another language is another file (`pt-BR.json`) plus its code in `LANGUAGES`.
 */
import bundledEnglish from "./strings/en.json";

/** A strings file: nested objects of strings. */
export type Strings = { [key: string]: string | Strings };

/** KV key of a language's strings. */
export const stringsKey = (lang: string) => `strings:${lang}`;

/** Dotted paths (`errors.rest_no_route`) of every string of a strings tree, with the string. */
export function leaves(strings: Strings, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(strings)) {
    const at = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(at, value);
    else for (const [k, v] of leaves(value, at)) out.set(k, v);
  }
  return out;
}

/**
 * Seconds strings are kept: by KV's edge (`cacheTtl` of the read, KV's documented minimum) and then
 * by the isolate, which reads again in the first request after the period of `STRINGS_TTL_S` its
 * read fell in. A changed KV entry is in every answer within `2 × STRINGS_TTL_S` (plus KV's own
 * propagation of a write to its central store, seconds).
 */
export const STRINGS_TTL_S = 60;
const TTL_MS = STRINGS_TTL_S * 1000;

/** The clock of the strings' periods, in milliseconds (tests replace `now` instead of waiting). */
export const stringsClock = { now: (): number => Date.now() };

/** Milliseconds before KV is asked again for strings it did not have, or after it failed. */
const RETRY_EMPTY_MS = 10_000;

/**
 * Loaded strings by language, used until `until` (milliseconds of `stringsClock`). Only settled
 * strings are kept: a read in flight is never shared between requests (a promise of one request's
 * I/O awaited by another hangs the other when the first is cancelled — workerd then cancels it as
 * "hung").
 */
const cache = new Map<string, { strings: Strings; until: number }>();

/** The end of the period of `STRINGS_TTL_S` that `now` falls in. */
const periodEnd = (now: number) => (Math.floor(now / TTL_MS) + 1) * TTL_MS;

/** A language's KV entry, or null when KV has none. @throws when KV fails. */
async function read(kv: KVNamespace, lang: string): Promise<Strings | null> {
  return (
    (await kv.get<Strings>(stringsKey(lang), { type: "json", cacheTtl: STRINGS_TTL_S })) ?? null
  );
}

function merge(base: Strings, over: Strings | null): Strings {
  if (!over) return base;
  const out: Strings = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] =
      typeof value === "object" && typeof current === "object" ? merge(current, value) : value;
  }
  return out;
}

/** `lang`'s strings from KV, English filling the gaps. @throws when KV fails. */
async function fromKv(kv: KVNamespace, lang: string): Promise<Strings> {
  if (lang === "en") return (await read(kv, "en")) ?? (bundledEnglish as Strings);
  return merge(await loadStrings(kv, "en"), await read(kv, lang));
}

/**
 * The strings of `lang`, English filling the gaps. The first call of each period of
 * `STRINGS_TTL_S` (aligned to the clock, so every language of an isolate turns over together)
 * reads KV, within its own request; the strings it read are kept for the period (requests that
 * start while it reads read too, and the first to finish is kept: one object per period, which the
 * read cache digests once, src/read-cache/serve.ts). When KV has no English, the bundled English
 * answers; when KV fails, what this isolate read before (the bundled English on a first read);
 * either is asked again after `RETRY_EMPTY_MS`.
 * @example const s = await loadStrings(env.STRINGS, "de"); text(s, "messages.rest_no_route")
 */
export async function loadStrings(kv: KVNamespace, lang: string): Promise<Strings> {
  const now = stringsClock.now();
  const kept = cache.get(lang);
  if (kept && now < kept.until) return kept.strings;
  let strings: Strings;
  let retrySoon: boolean;
  try {
    strings = await fromKv(kv, lang);
    retrySoon = strings === bundledEnglish;
  } catch {
    retrySoon = true;
    strings =
      kept?.strings ?? (lang === "en" ? (bundledEnglish as Strings) : await loadStrings(kv, "en"));
  }
  const settled = cache.get(lang);
  if (settled && settled !== kept && stringsClock.now() < settled.until) return settled.strings;
  // A failed or empty read must not stick for a whole period, nor be repeated by every request
  // (the read cache keys every anonymous answer by its language's strings).
  const until = retrySoon
    ? Math.min(periodEnd(now), stringsClock.now() + RETRY_EMPTY_MS)
    : periodEnd(now);
  cache.set(lang, { strings, until });
  return strings;
}

/**
 * The strings of `lang` kept for the current period, without reading anything (undefined when
 * none are: the period turned, or nothing was read yet).
 */
export function keptStrings(lang: string): Strings | undefined {
  const kept = cache.get(lang);
  return kept && stringsClock.now() < kept.until ? kept.strings : undefined;
}

/** Forgets cached strings (tests that rewrite KV). */
export function clearStringsCache(): void {
  cache.clear();
}

/**
 * Looks up a dotted key (`messages.rest_no_route`) and fills `%s`/`%d` placeholders in order.
 * Returns the key itself when no language has it, so a gap is visible rather than blank.
 */
export function text(strings: Strings, key: string, args: Array<string | number> = []): string {
  let node: string | Strings | undefined = strings;
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  const template = typeof node === "string" ? node : key;
  let i = 0;
  return template.replace(/%[sd]/g, (m) => {
    const value = args[i++];
    if (value === undefined) return m;
    return m === "%d" ? String(Math.trunc(Number(value))) : String(value);
  });
}
