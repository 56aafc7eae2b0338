/**
 * Per-language strings (contract §1): one KV entry per language, `strings:<lang>`, loaded from
 * `src/i18n/strings/<lang>.json` by `npm run strings:load`. Read at most once per isolate per language;
 * a key missing in a language falls back to English; if KV holds no English at all (strings never
 * loaded), the English file bundled with the worker is used so that errors still have messages.
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

/** Loaded strings by language; `retryAt`: when KV is asked again (it had none, or failed). */
const cache = new Map<string, { pending: Promise<Strings>; retryAt?: number }>();

/** Milliseconds before KV is asked again for strings it did not have. */
const RETRY_EMPTY_MS = 10_000;

async function read(kv: KVNamespace, lang: string): Promise<Strings | null> {
  try {
    return (await kv.get<Strings>(stringsKey(lang), "json")) ?? null;
  } catch {
    return null;
  }
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

/**
 * The strings of `lang`, English filling the gaps. Cached for the isolate's lifetime; when KV has
 * none (or fails), the bundled English answers and KV is asked again after `RETRY_EMPTY_MS`.
 * @example const s = await loadStrings(env.STRINGS, "de"); message(s, "rest_no_route")
 */
export function loadStrings(kv: KVNamespace, lang: string): Promise<Strings> {
  const kept = cache.get(lang);
  if (kept && (kept.retryAt === undefined || Date.now() < kept.retryAt)) return kept.pending;
  const pending = (async () => {
    const english = lang === "en" ? await read(kv, "en") : await loadStrings(kv, "en");
    const base = english ?? (bundledEnglish as Strings);
    return lang === "en" ? base : merge(base, await read(kv, lang));
  })();
  const entry: { pending: Promise<Strings>; retryAt?: number } = { pending };
  cache.set(lang, entry);
  // A failed or empty read must not stick for the isolate's lifetime, nor be repeated by every
  // request (the read cache keys every anonymous answer by its language's strings).
  const retry = () => {
    entry.retryAt = Date.now() + RETRY_EMPTY_MS;
  };
  pending.then((s) => s === bundledEnglish && retry(), retry);
  return pending;
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
