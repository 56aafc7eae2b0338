/**
 * Bound values shared by number: D1 binds at most 100 values in a statement (SQLite's
 * `SQLITE_MAX_VARIABLE_NUMBER` as D1 sets it), and the archive's statements repeat their filters on
 * each side (events, stored occurrences, computed ones; src/events/listed.ts), so a request with
 * many filters binds the same values two or three times. Past the limit, each `?` becomes the
 * ordered parameter `?NNN` of the first equal value (SQLite's and D1's numbered parameters): the
 * same statement, the same values, each bound once. Statements within the limit are sent as they
 * are.
 */

/** Most values D1 binds in one statement. */
export const MAX_BOUND = 100;

/** The key by which two bound values are the same value (type and value), or null: never shared. */
function keyOf(value: unknown): string | null {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "string":
      return `s${value}`;
    case "number":
      return `n${Object.is(value, -0) ? "-0" : String(value)}`;
    case "bigint":
      return `b${value}`;
    case "boolean":
      return `o${value}`;
    default:
      return null;
  }
}

/**
 * Where a quoted string or identifier (`'…'`, `"…"`, `` `…` ``, `[…]`; a doubled quote inside is
 * the quote itself) or a comment (`-- …`, `/* … *\/`) starting at `i` ends; `i` when none starts
 * there. Their `?`s are not parameters.
 */
function quotedEnd(query: string, i: number): number {
  const ch = query[i];
  if (ch === "'" || ch === '"' || ch === "`") {
    let j = i + 1;
    for (;;) {
      const end = query.indexOf(ch, j);
      if (end === -1) return query.length;
      if (query[end + 1] !== ch) return end + 1;
      j = end + 2;
    }
  }
  const close =
    ch === "["
      ? "]"
      : ch === "-" && query[i + 1] === "-"
        ? "\n"
        : ch === "/" && query[i + 1] === "*"
          ? "*/"
          : null;
  if (close === null) return i;
  const end = query.indexOf(close, i + 2);
  return end === -1 ? query.length : end + close.length;
}

/**
 * `query` with its anonymous parameters numbered so that equal values share one, and the values
 * to bind to the numbers; null when `values` fit as they are (at most `MAX_BOUND`), or when the
 * query already numbers its parameters or its `?`s do not match `values`.
 * @example shareParams("SELECT ? + ?", [1, 1]) // null (fits); with 101 equal values: "SELECT ?1 + ?1 …", [1]
 */
export function shareParams(
  query: string,
  values: unknown[],
): { query: string; values: unknown[] } | null {
  if (values.length <= MAX_BOUND) return null;
  const numberOf = new Map<string, number>();
  const shared: unknown[] = [];
  let out = "";
  let next = 0;
  let i = 0;
  while (i < query.length) {
    const skipped = quotedEnd(query, i);
    if (skipped > i) {
      out += query.slice(i, skipped);
      i = skipped;
      continue;
    }
    const ch = query[i];
    if (ch !== "?") {
      out += ch;
      i++;
      continue;
    }
    if (/[0-9]/.test(query[i + 1] ?? "")) return null;
    if (next >= values.length) return null;
    const value = values[next++];
    const key = keyOf(value);
    let n = key === null ? undefined : numberOf.get(key);
    if (n === undefined) {
      shared.push(value);
      n = shared.length;
      if (key !== null) numberOf.set(key, n);
    }
    out += `?${n}`;
    i++;
  }
  if (next !== values.length) return null;
  return { query: out, values: shared };
}
