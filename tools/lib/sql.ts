/**
 * SQL text for seed files run by `wrangler d1 execute --file`: literals and multi-row INSERTs.
 * Values are inlined as literals (a file has no bind parameters), so everything goes through
 * {@link sqlLiteral}.
 */

/** A value of one column. `undefined` and `null` become NULL, booleans 1/0. */
export type SqlValue = string | number | boolean | null | undefined;

/** One row: column name (snake_case, as in the migrations) → value. */
export type SqlRow = Record<string, SqlValue>;

/**
 * The SQL literal of a value: `'it''s'`, `42`, `NULL`, `1`.
 * @throws Error for non-finite numbers and strings containing NUL (neither survives a SQL file).
 */
export function sqlLiteral(value: SqlValue): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (value.includes("\u0000")) throw new Error("strings may not contain NUL");
  return `'${value.replace(/'/g, "''")}'`;
}

/** Back-quoted identifier, as drizzle-kit writes them. */
export const sqlIdent = (name: string) => `\`${name.replace(/`/g, "``")}\``;

/**
 * `INSERT INTO table (cols) VALUES (...), (...);` statements for `rows`, split so that no statement
 * exceeds `maxBytes` (remote D1 caps one statement at 100 KB). Columns are those of the first row.
 * @throws Error when rows do not all have the same columns.
 * @example insertRows("posts", [{ id: 1, post_type: "tribe_venue" }])
 *   // ["INSERT INTO `posts` (`id`, `post_type`) VALUES\n(1, 'tribe_venue');"]
 */
export function insertRows(table: string, rows: SqlRow[], maxBytes = 90_000): string[] {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]);
  const head = `INSERT INTO ${sqlIdent(table)} (${columns.map(sqlIdent).join(", ")}) VALUES\n`;
  const statements: string[] = [];
  let tuples: string[] = [];
  let size = head.length;
  for (const row of rows) {
    const keys = Object.keys(row);
    if (keys.length !== columns.length || keys.some((k, i) => k !== columns[i])) {
      throw new Error(`${table}: every row must have the columns ${columns.join(", ")}`);
    }
    const tuple = `(${columns.map((c) => sqlLiteral(row[c])).join(", ")})`;
    const bytes = Buffer.byteLength(tuple) + 2;
    if (tuples.length > 0 && size + bytes > maxBytes) {
      statements.push(`${head}${tuples.join(",\n")};`);
      tuples = [];
      size = head.length;
    }
    tuples.push(tuple);
    size += bytes;
  }
  statements.push(`${head}${tuples.join(",\n")};`);
  return statements;
}
