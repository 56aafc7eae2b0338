/**
 * The per-language strings files (`src/i18n/strings/<lang>.json`, contract §1) and loading them into
 * the KV binding STRINGS under `strings:<lang>` (the key the worker reads, `stringsKey`).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { leaves, type Strings, stringsKey } from "../../src/i18n/index";
import { PATHS } from "./paths";
import { runWrangler, where } from "./wrangler";

/** A strings file that is unusable: not JSON, or not shaped like en.json. */
export class StringsFileError extends Error {
  constructor(file: string, detail: string) {
    super(`${path.relative(process.cwd(), file) || file}: ${detail}`);
    this.name = "StringsFileError";
  }
}

/** One language file, read and compared with English (dotted key paths). */
export interface LanguageFile {
  lang: string;
  file: string;
  strings: Strings;
  /** Keys English has and this language lacks (the worker falls back to English for them). */
  missing: string[];
  /** Keys this language has and English lacks (never read). */
  extra: string[];
  /** Keys whose `%s`/`%d` placeholders differ from English. */
  placeholders: string[];
}

const LANG_FILE = /^([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?)\.json$/;

function parseFile(file: string): Strings {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new StringsFileError(
      file,
      `not valid JSON (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const bad = firstNonString(data, "");
  if (bad !== null) throw new StringsFileError(file, bad);
  return data as Strings;
}

/** Why `value` is not nested objects of strings, or null when it is. */
function firstNonString(value: unknown, at: string): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `${at || "the file"} must be an object of strings`;
  }
  for (const [key, child] of Object.entries(value)) {
    const where = at ? `${at}.${key}` : key;
    if (typeof child === "string") continue;
    const bad = firstNonString(child, where);
    if (bad !== null) return bad;
  }
  return null;
}

const placeholders = (text: string) => (text.match(/%[sd]/g) ?? []).join("");

/**
 * Reads every `<lang>.json` in `dir` (English first) and compares each with English.
 * @throws StringsFileError when a file is not JSON, not nested objects of strings, en.json is
 *   missing, or a top-level section has another type than in English (object vs. string).
 */
export function readLanguageFiles(dir: string = PATHS.stringsDir): LanguageFile[] {
  const names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  for (const name of names)
    if (!LANG_FILE.test(name))
      throw new StringsFileError(
        path.join(dir, name),
        "file name must be <language code>.json, e.g. de.json or pt-BR.json",
      );
  if (!names.includes("en.json"))
    throw new StringsFileError(
      path.join(dir, "en.json"),
      "missing: English is the fallback of every language",
    );
  names.sort((a, b) => (a === "en.json" ? -1 : b === "en.json" ? 1 : a.localeCompare(b)));
  const english = parseFile(path.join(dir, "en.json"));
  const englishLeaves = leaves(english);
  return names.map((name) => {
    const file = path.join(dir, name);
    const strings = name === "en.json" ? english : parseFile(file);
    for (const [key, value] of Object.entries(strings)) {
      if (key in english && typeof english[key] !== typeof value) {
        throw new StringsFileError(
          file,
          `"${key}" must be ${typeof english[key] === "object" ? "an object" : "a string"}, as in en.json`,
        );
      }
    }
    const own = leaves(strings);
    return {
      lang: LANG_FILE.exec(name)![1],
      file,
      strings,
      missing: [...englishLeaves.keys()].filter((k) => !own.has(k)),
      extra: [...own.keys()].filter((k) => !englishLeaves.has(k)),
      placeholders: [...own]
        .filter(
          ([k, v]) =>
            englishLeaves.has(k) && placeholders(v) !== placeholders(englishLeaves.get(k)!),
        )
        .map(([k]) => k),
    };
  });
}

/** Human-readable warnings about gaps versus English (never fatal). */
export function languageWarnings(files: LanguageFile[], configured: string[] = []): string[] {
  const out: string[] = [];
  const list = (keys: string[]) =>
    keys.length > 5
      ? `${keys.slice(0, 5).join(", ")} and ${keys.length - 5} more`
      : keys.join(", ");
  for (const f of files) {
    if (f.missing.length)
      out.push(
        `${f.lang}: ${f.missing.length} key(s) missing versus en (English is shown instead): ${list(f.missing)}`,
      );
    if (f.extra.length)
      out.push(`${f.lang}: ${f.extra.length} key(s) not in en (never used): ${list(f.extra)}`);
    if (f.placeholders.length)
      out.push(`${f.lang}: %s/%d placeholders differ from en in: ${list(f.placeholders)}`);
  }
  for (const lang of configured) {
    if (!files.some((f) => f.lang === lang))
      out.push(
        `LANGUAGES names "${lang}" but there is no ${lang}.json: it will be served in English`,
      );
  }
  return out;
}

/**
 * Puts every language file into KV (`strings:<lang>`, compact JSON) in one `wrangler kv bulk put`.
 * @returns the languages loaded, in file order (English first).
 * @throws WranglerError when wrangler fails (e.g. `--remote` without being logged in).
 */
export async function putLanguageFiles(
  files: LanguageFile[],
  options: { remote?: boolean } = {},
): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "tec-strings-"));
  try {
    const bulk = path.join(dir, "strings.json");
    writeFileSync(
      bulk,
      JSON.stringify(
        files.map((f) => ({ key: stringsKey(f.lang), value: JSON.stringify(f.strings) })),
      ),
    );
    await runWrangler([
      "kv",
      "bulk",
      "put",
      bulk,
      "--binding",
      "STRINGS",
      where(options.remote ?? false),
    ]);
    return files.map((f) => f.lang);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
