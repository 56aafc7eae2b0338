/**
 * SQL helpers. D1 allows at most 100 bound parameters per statement, so lists that come from
 * clients travel as one JSON parameter and are unpacked with `json_each`.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/** `column IN (the values)`, however many values, with one bound parameter. */
export function inList(column: SQLWrapper, values: ReadonlyArray<string | number>): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}
