/**
 * The code of a TypeScript file as the wire-name count reads it (test/contract/wire-names.test.ts):
 * comments removed, and SQL text removed — the literal parts of `sql` templates, and every string
 * literal of the drizzle schema (column, table and index names). Identifiers, property keys, string
 * literals, template literals and regular expressions stay as written.
 *
 * A small scanner, not a parser: it knows strings, templates (with nested `${…}`), comments and
 * regular expression literals (a `/` where an operand may start), which is all the count needs.
 */

/** Characters after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{};+-*%<>~^"]);
/** Keywords after which a `/` starts a regular expression. */
const REGEX_KEYWORDS = new Set(["return", "typeof", "case", "in", "of", "void", "throw", "new"]);

/** The scanner's state over one file. */
class Scanner {
  private i = 0;
  out = "";

  constructor(
    private readonly src: string,
    private readonly sqlStrings: boolean,
  ) {}

  private get ch() {
    return this.src[this.i];
  }

  /** Whether a `/` at the current position starts a regular expression. */
  private regexHere(): boolean {
    const before = this.out.trimEnd();
    if (before === "") return true;
    const last = before[before.length - 1];
    if (BEFORE_REGEX.has(last)) return true;
    const word = /[A-Za-z_$][\w$]*$/.exec(before);
    return word !== null && REGEX_KEYWORDS.has(word[0]);
  }

  /** Copies (or drops) a quoted string starting at the quote. */
  private string(keep: boolean): void {
    const quote = this.ch;
    const start = this.i;
    this.i++;
    while (this.i < this.src.length && this.ch !== quote) {
      if (this.ch === "\\") this.i++;
      this.i++;
    }
    this.i++;
    this.out += keep ? this.src.slice(start, this.i) : `${quote}${quote}`;
  }

  /** A regular expression literal, character classes included. */
  private regex(): void {
    const start = this.i;
    this.i++;
    let inClass = false;
    while (this.i < this.src.length) {
      const c = this.ch;
      if (c === "\\") this.i++;
      else if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) break;
      else if (c === "\n") break;
      this.i++;
    }
    this.i++;
    this.out += this.src.slice(start, this.i);
  }

  /** A template literal from its backtick; its literal parts are dropped when `keep` is false. */
  private template(keep: boolean): void {
    this.out += "`";
    this.i++;
    while (this.i < this.src.length && this.ch !== "`") {
      if (this.ch === "\\") {
        if (keep) this.out += this.src.slice(this.i, this.i + 2);
        this.i += 2;
      } else if (this.ch === "$" && this.src[this.i + 1] === "{") {
        this.out += "${";
        this.i += 2;
        this.code("}");
        this.out += "}";
        this.i++;
      } else {
        if (keep) this.out += this.ch;
        this.i++;
      }
    }
    this.out += "`";
    this.i++;
  }

  /** Code up to an unbalanced `close` (or the end). */
  code(close?: string): void {
    let depth = 0;
    while (this.i < this.src.length) {
      const c = this.ch;
      const next = this.src[this.i + 1];
      if (c === close && depth === 0) return;
      if (c === "{") depth++;
      else if (c === "}") depth--;
      if (c === "/" && next === "/") {
        while (this.i < this.src.length && this.ch !== "\n") this.i++;
      } else if (c === "/" && next === "*") {
        const end = this.src.indexOf("*/", this.i + 2);
        this.i = end === -1 ? this.src.length : end + 2;
        this.out += " ";
      } else if (c === '"' || c === "'") {
        this.string(!this.sqlStrings);
      } else if (c === "`") {
        this.template(!this.sqlStrings && !/\bsql(<[^>]*>)?\s*$/.test(this.out));
      } else if (c === "/" && this.regexHere()) {
        this.regex();
      } else {
        this.out += c;
        this.i++;
      }
    }
  }
}

/**
 * The counted code of a file.
 * @param sqlStrings whether every string literal is SQL (the drizzle schema) and is dropped.
 * @example codeText('const a = "x"; // start_date\nsql`SELECT start_date`', false) // 'const a = "x"; \nsql``'
 */
export function codeText(src: string, sqlStrings = false): string {
  const scanner = new Scanner(src, sqlStrings);
  scanner.code();
  return scanner.out;
}
