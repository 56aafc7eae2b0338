/**
 * `search` on the venue and organizer archives (tec-reference §7.1; contract §2): the phrase is split
 * on every character that is not a letter, a digit or a hyphen, and **every** word must occur,
 * case-insensitively, in ONE of the kind's fields (title, description, excerpt and its custom fields).
 *
 * Words of three characters or more are looked up in the kind's FTS5 trigram index with a column
 * filter (`city : ("spring" AND "field")`), which folds case across Unicode; shorter words, which a
 * trigram index cannot find, are matched with LIKE on the same column.
 */
import { and, or, type SQL, sql } from "drizzle-orm";
import { commonTable, LINKED } from "./kinds";
import type { LinkedKind } from "./record";

/** At most this many words, each at most this long, are searched for (longer input is cut). */
const MAX_WORDS = 20;
const MAX_WORD_LENGTH = 100;

/**
 * The words of a search phrase.
 * @example searchWords("Town-Hall, 62701!") // ["Town-Hall", "62701"]
 */
export function searchWords(search: string): string[] {
  return search
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((w) => w !== "")
    .slice(0, MAX_WORDS)
    .map((w) => [...w].slice(0, MAX_WORD_LENGTH).join(""));
}

/** An FTS5 phrase: user text never reaches FTS syntax unquoted. */
const phrase = (word: string) => `"${word.replace(/"/g, '""')}"`;
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * The condition "every word occurs in one field" on the kind's table, or `sql\`0\`` when the phrase
 * has no words at all (nothing to find, so nothing matches).
 *
 * Two bound parameters per field whatever the number of words (D1 allows 100 per statement, and the
 * condition appears in the count and the page query): the FTS5 query of the long words, and the
 * LIKE patterns of the short ones as one JSON list, every one of which must match.
 */
export function searchCondition(kind: LinkedKind, search: string): SQL {
  const words = searchWords(search);
  if (words.length === 0) return sql`0`;
  const table = commonTable(kind);
  const fts = sql.raw(`${LINKED[kind].plural}_fts`);
  const long = words.filter((w) => [...w].length >= 3);
  const patterns = JSON.stringify(words.filter((w) => [...w].length < 3).map(likePattern));
  const perField = LINKED[kind].searchColumns.map((column) => {
    const conds: SQL[] = [];
    if (long.length) {
      const query = `${column} : (${long.map(phrase).join(" AND ")})`;
      conds.push(sql`${table.id} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${query})`);
    }
    const col = sql.raw(`"${LINKED[kind].plural}"."${column}"`);
    if (patterns !== "[]")
      conds.push(
        sql`NOT EXISTS (SELECT 1 FROM json_each(${patterns}) p WHERE ${col} NOT LIKE p.value ESCAPE '\\')`,
      );
    return and(...conds)!;
  });
  return sql`(${or(...perField)})`;
}
