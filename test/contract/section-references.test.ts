/// <reference types="vite/client" />
/**
 * Every section the code cites exists in `docs/` (docs/README.md, "How the code cites these
 * pages"): `§4.7` and `tec-reference §4.7` are a section of docs/reference.md (anchor `s4-7`),
 * `contract §4` one of docs/contract.md (anchor `c4`), `contract §4 row 10` (or `contract rows 10,
 * 12`) a row of the contract's table of differences (`c4-row-10`), and `quirk 17` an item of the
 * quirk list (`s13-17`). A `§` right after `RFC <number>` cites that RFC and is not checked. A
 * citation may continue on the next comment line (`(contract` / ` * §4 row 10)`).
 *
 * Read: every source, test and script file, the migrations and the top-level files — wherever a
 * reader meets a citation. The anchors are the `<a id="…"></a>` of the docs, which must follow the
 * convention (a section anchor in a heading that begins with its number, a row anchor at the start
 * of a table row with its number), each once.
 */
import { describe, expect, it } from "vitest";

const asFiles = (files: Record<string, unknown>): Array<[string, string]> =>
  Object.entries(files).map(([path, text]) => [path.replace(/^(\.\.\/)+/, ""), String(text)]);

/** Where citations are read. */
const CITING = asFiles(
  import.meta.glob(
    [
      "../../src/**/*.{ts,js,css,md,json}",
      "../../test/**/*.ts",
      "../../scripts/**/*.ts",
      "../../tools/**/*.ts",
      "../../drizzle/*.sql",
      "../../lint/*.grit",
      "../../bench/**/*.{ts,js,md}",
      "../../README.md",
      "../../wrangler.toml",
      "../../vitest.config.ts",
      "../../biome.jsonc",
      "!../../src/root/reference/generated/**",
      "!../../bench/RESULTS*.md",
    ],
    { query: "?raw", import: "default", eager: true },
  ),
);

const DOCS = asFiles(
  import.meta.glob("../../docs/*.md", { query: "?raw", import: "default", eager: true }),
);

/** Blanks between words of one citation, a comment's line break (`*`, `//`, `--`, `#`) included. */
const GAP = String.raw`(?:[ \t]*\n[ \t]*(?:(?:\*|\/\/|--|#)[ \t]*)?|[ \t]+)`;
/** A list of row numbers: `10`, `10, 12`, `12 and 16`. */
const NUMBERS = String.raw`\d+(?:(?:,${GAP}|${GAP}and${GAP})\d+)*`;

/** One citation found: where, as written, and the anchor it needs. */
interface Citation {
  file: string;
  line: number;
  text: string;
  doc: "docs/reference.md" | "docs/contract.md";
  anchor: string;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;
const numbersOf = (list: string) => list.match(/\d+/g) ?? [];

/** The citations of one file. */
function citations(file: string, text: string): Citation[] {
  const out: Citation[] = [];
  const add = (index: number, written: string, doc: Citation["doc"], anchor: string) =>
    out.push({ file, line: lineAt(text, index), text: written.replace(/\s+/g, " "), doc, anchor });

  const section = /§[ \t]*(\d+(?:\.\d+)*)/g;
  const rfc = new RegExp(String.raw`RFC[ \t]*\d+${GAP}$`);
  const contract = new RegExp(String.raw`\b[Cc]ontract${GAP}$`);
  const rows = new RegExp(`^${GAP}rows?${GAP}(${NUMBERS})`);
  for (const m of text.matchAll(section)) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    if (rfc.test(before)) continue;
    const number = m[1];
    if (!contract.test(before)) {
      add(m.index, m[0], "docs/reference.md", `s${number.replaceAll(".", "-")}`);
      continue;
    }
    add(m.index, `contract ${m[0]}`, "docs/contract.md", `c${number.replaceAll(".", "-")}`);
    const rowList = rows.exec(text.slice(m.index + m[0].length));
    if (rowList)
      for (const row of numbersOf(rowList[1]))
        add(m.index, `contract ${m[0]} row ${row}`, "docs/contract.md", `c${number}-row-${row}`);
  }
  // `contract row 18`, `contract rows 11, 12`: rows of the table of contract §4.
  const bareRows = new RegExp(String.raw`\b[Cc]ontract${GAP}rows?${GAP}(${NUMBERS})`, "g");
  for (const m of text.matchAll(bareRows))
    for (const row of numbersOf(m[1]))
      add(m.index, `contract row ${row}`, "docs/contract.md", `c4-row-${row}`);
  for (const m of text.matchAll(/\bquirks?[ \t]+(\d+)/g))
    add(m.index, m[0], "docs/reference.md", `s13-${m[1]}`);
  return out;
}

/** Every `<a id>` of a docs file, with the line it is on. */
function anchorsOf(text: string): Array<{ id: string; line: string }> {
  return text
    .split("\n")
    .flatMap((line) =>
      [...line.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => ({ id: m[1], line })),
    );
}

/** The anchors of the numbered pages (docs/README.md only shows the convention). */
const ANCHORS = new Map(
  DOCS.filter(([file]) => file !== "docs/README.md").map(([file, text]) => [file, anchorsOf(text)]),
);
const idsIn = (file: string) => new Set((ANCHORS.get(file) ?? []).map((a) => a.id));

describe("section references", () => {
  it("reads the docs and the files that cite them", () => {
    expect(DOCS.map(([file]) => file)).toEqual(
      expect.arrayContaining(["docs/README.md", "docs/reference.md", "docs/contract.md"]),
    );
    expect(CITING.length).toBeGreaterThan(100);
    expect(CITING.some(([file]) => file.startsWith("src/root/reference/generated/"))).toBe(false);
  });

  it("finds citations as written in comments, across line breaks, and skips RFCs", () => {
    const found = citations(
      "x.ts",
      [
        "/** See §4.7 and tec-reference §6.1–§6.3 (contract",
        " * §4 rows 10, 12; contract §7.3), quirk 17, contract row 23. */",
        "// RFC 5545 §3.8.5.3 folds lines (RFC 9110 §13.2.1).",
        "-- contract §2",
      ].join("\n"),
    );
    expect(found.map((c) => [c.line, c.doc.slice(5), c.anchor])).toEqual([
      [1, "reference.md", "s4-7"],
      [1, "reference.md", "s6-1"],
      [1, "reference.md", "s6-3"],
      [2, "contract.md", "c4"],
      [2, "contract.md", "c4-row-10"],
      [2, "contract.md", "c4-row-12"],
      [2, "contract.md", "c7-3"],
      [4, "contract.md", "c2"],
      [2, "contract.md", "c4-row-23"],
      [2, "reference.md", "s13-17"],
    ]);
  });

  it("every § and contract § citation points at an anchor of docs/", () => {
    const all = CITING.flatMap(([file, text]) => citations(file, text));
    expect(all.length).toBeGreaterThan(500);
    const unresolved = all
      .filter((c) => !idsIn(c.doc).has(c.anchor))
      .map((c) => `${c.file}:${c.line}: "${c.text}" (no #${c.anchor} in ${c.doc})`);
    expect(unresolved).toEqual([]);
  });

  it("anchors follow the convention of docs/README.md, each once", () => {
    const bad: string[] = [];
    const seen = new Map<string, string>();
    for (const [file, anchors] of ANCHORS) {
      for (const { id, line } of anchors) {
        if (seen.has(id)) bad.push(`${file}: #${id} also in ${seen.get(id)}`);
        seen.set(id, file);
        const heading = /^#{2,6} <a id="[^"]+"><\/a>(\d+(?:\.\d+)*)\.? /.exec(line);
        const row = /^\| <a id="[^"]+"><\/a>(\d+) +\|/.exec(line);
        const prefix = file === "docs/reference.md" ? "s" : file === "docs/contract.md" ? "c" : "";
        const expected = heading
          ? `${prefix}${heading[1].replaceAll(".", "-")}`
          : row
            ? prefix === "s"
              ? `s13-${row[1]}`
              : `c4-row-${row[1]}`
            : undefined;
        if (prefix === "" || id !== expected) bad.push(`${file}: #${id} on "${line}"`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("every numbered heading of the reference and the contract carries its anchor", () => {
    const bare = DOCS.filter(([file]) => file !== "docs/README.md").flatMap(([file, text]) =>
      text
        .split("\n")
        .filter((line) => /^#{2,6} /.test(line) && !/^#{2,6} <a id="/.test(line))
        .map((line) => `${file}: ${line}`),
    );
    expect(bare).toEqual([]);
  });

  it("links between the docs lead to an anchor", () => {
    const broken: string[] = [];
    for (const [file, text] of DOCS) {
      for (const m of text.matchAll(/\]\(((?:reference|contract|README)\.md)?#([^)\s]+)\)/g)) {
        const target = m[1] ? `docs/${m[1]}` : file;
        if (!idsIn(target).has(m[2])) broken.push(`${file}: ${m[0]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
