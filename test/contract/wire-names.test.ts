/// <reference types="vite/client" />
/**
 * A wire name is written in at most 3 TypeScript files under `src/`: everything else
 * derives it from the contract that declares it.
 *
 * Which names are counted. The set comes from what the service documents, not from a list: every
 * property name of the `/doc` component schemas (at any depth: `json_ld`, `cost_details` and their
 * keys), every `/doc` parameter and request-body property, and every argument of every route in
 * the WordPress REST index (`GET /wp-json/`: `tribe/events/v1` and `wp/v2`). Of those, a name is
 * counted when it differs from its camelCase TypeScript name, so that it cannot be one of
 * TypeScript's own names in this camelCase code base: it contains `_` (`start_date` is
 * `startDate`; `per_page`, `_links`) or `@` (`@type`, JSON-LD). One-word names are not counted: a
 * whole-word count cannot tell them from TypeScript's own names — English words (`id`, `status`,
 * `city`), JSON-LD's camelCase (`startDate`), and TEC's run-together names, which are identifiers
 * too (`stateprovince` and `filesize` are drizzle column properties, `geoloc` a filter's).
 *
 * How a file is counted. The name occurs as a whole word (not next to a letter, digit, `_`, `$` or
 * `@`) in the file's code: comments do not count (JSDoc names the fields it documents), and SQL
 * does not count (SQL speaks snake_case: the literal parts of `sql` templates, and the string
 * literals of the drizzle schema `src/db/schema.ts`, which are column, table and index names).
 * Every `.ts` file under `src/` but tests (`*.test.ts`) and the calendar editor's browser code
 * (`src/editor/browser/`: a client of the API, as `packages/client` is, bundled into a file the
 * worker serves, never run by it); the strings files are JSON.
 */
import { describe, expect, it } from "vitest";
import { api, NS } from "../support/api";
import { codeText } from "./code-text";

/** Most files a counted name may be written in. */
const MAX_FILES = 3;

const SOURCES = import.meta.glob("../../src/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** Every file's counted code, by its path under the repository (`src/…`). */
const CODE: Array<[string, string]> = Object.entries(SOURCES)
  .filter(([path]) => !path.endsWith(".test.ts") && !path.includes("/src/editor/browser/"))
  .map(([path, src]) => {
    const file = path.replace(/^(\.\.\/)+/, "");
    return [file, codeText(src, file === "src/db/schema.ts")];
  });

/** `/doc` and the index, walked as plain JSON. */
type Json = any;

/** Property names of every schema in `node` (`properties` keys), and parameter names. */
function docNames(node: Json, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) docNames(n, out);
  else if (node && typeof node === "object") {
    if (node.properties && typeof node.properties === "object")
      for (const name of Object.keys(node.properties)) out.add(name);
    if (typeof node.name === "string" && typeof node.in === "string") out.add(node.name);
    for (const value of Object.values(node)) docNames(value, out);
  }
  return out;
}

/** The string values of every `enum` in `node` (`taxonomy`: `tribe_events_cat`, `post_tag`). */
function enumValues(node: Json, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) enumValues(n, out);
  else if (node && typeof node === "object") {
    if (Array.isArray(node.enum))
      for (const value of node.enum) if (typeof value === "string") out.add(value);
    for (const value of Object.values(node)) enumValues(value, out);
  }
  return out;
}

/**
 * Every wire name the service documents: `/doc` and every route's arguments in the REST index —
 * but for the values `/doc` documents (an `enum`'s): a taxonomy's name is data wherever the code
 * says which taxonomy it means, and also names WordPress's filter by its terms
 * (`wp/v2/tribe_events?tribe_events_cat=3`).
 */
async function wireNames(): Promise<Set<string>> {
  const doc = (await api(`${NS}/doc`)).body;
  const names = docNames(doc, new Set());
  const index = (await api("/wp-json/")).body;
  for (const route of Object.values(index.routes) as Json[])
    for (const endpoint of route.endpoints)
      for (const name of Object.keys(endpoint.args)) names.add(name);
  for (const value of enumValues(doc, new Set())) names.delete(value);
  return names;
}

/** Whether a wire name is counted: it differs from its camelCase TypeScript name. */
const counted = (name: string) => /[_@]/.test(name);

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The files whose code writes `name` as a whole word. */
function filesNaming(name: string): string[] {
  const word = new RegExp(`(?<![\\w$@])${escapeRegex(name)}(?![\\w$])`);
  return CODE.filter(([, code]) => word.test(code)).map(([file]) => file);
}

describe("wire names (each in at most 3 files under src/)", () => {
  it("counts the names /doc and the REST index document with `_` or `@`", async () => {
    const names = [...(await wireNames())];
    expect(names).toEqual(
      expect.arrayContaining(["start_date", "per_page", "modified_after", "json_ld", "@type"]),
    );
    expect(names.filter(counted).length).toBeGreaterThan(60);
  });

  it("reads code, not comments or SQL", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text, a template in it.
    const source = 'a("start_date"); // per_page\n/* json_ld */ sql`x.term_id = ${b}`';
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the same, its SQL text dropped.
    expect(codeText(source)).toBe('a("start_date"); \n  sql`${b}`');
    expect(codeText('const r = /["\'`]/; f("x")')).toBe('const r = /["\'`]/; f("x")');
    expect(codeText('t = text("start_date"); k = { geoLat: 1 }', true)).toBe(
      't = text(""); k = { geoLat: 1 }',
    );
  });

  it("writes every counted name in at most 3 TypeScript files", async () => {
    const names = [...(await wireNames())].filter(counted).sort();
    const files = names.map((name) => ({ name, files: filesNaming(name) }));
    const table = [...files]
      .sort((a, b) => b.files.length - a.files.length || a.name.localeCompare(b.name))
      .map(({ name, files }) => `${String(files.length).padStart(2)} ${name}`);
    console.log(`wire names by files (${names.length} counted):\n${table.join("\n")}`);
    expect(files.filter((f) => f.files.length > MAX_FILES)).toEqual([]);
  });
});
