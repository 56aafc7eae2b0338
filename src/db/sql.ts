/**
 * SQL helpers. D1 allows at most 100 bound parameters per statement, so lists that come from
 * clients travel as one JSON parameter and are unpacked with `json_each`.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";

/** `column IN (the values)`, however many values, with one bound parameter. */
export function inList(column: SQLWrapper, values: ReadonlyArray<string | number>): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/**
 * Rows whose password-protected content the viewer may search (WordPress excludes
 * password-protected posts from search for visitors): unprotected rows; every row for editors; the
 * viewer's own; and rows whose password the request gave (`passwordDigest`, `""` for none).
 * @param table the post table's `passwordDigest` and `author` columns.
 */
export function searchablePasswords(
  columns: { passwordDigest: SQLWrapper; author: SQLWrapper },
  viewer: { id: number; editor: boolean } | null,
  passwordDigest: string,
): SQL | undefined {
  if (viewer?.editor) return undefined;
  const open = [sql`${columns.passwordDigest} = ''`];
  if (viewer) open.push(sql`${columns.author} = ${viewer.id}`);
  if (passwordDigest !== "") open.push(sql`${columns.passwordDigest} = ${passwordDigest}`);
  return sql`(${sql.join(open, sql` OR `)})`;
}

const dialect = new SQLiteAsyncDialect();

/**
 * A fragment without parameters, turned into SQL text once and reused as raw SQL: drizzle
 * walks a fragment's whole tree every time a statement holding it is built, and the fixed parts of
 * the read statements (column lists, the linked-rows subquery) are large.
 * @throws Error (on first use) when the fragment has parameters.
 * @example const columns = frozen(() => sql`${events.id}, ${events.title}`); sql`SELECT ${columns()} FROM events`
 */
export function frozen(make: () => SQL): () => SQL {
  let raw: SQL | undefined;
  return () => {
    if (!raw) {
      const query = dialect.sqlToQuery(make());
      if (query.params.length) throw new Error(`frozen SQL has parameters: ${query.sql}`);
      raw = sql.raw(query.sql);
    }
    return raw;
  };
}
