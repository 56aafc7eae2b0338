/**
 * Duplicate avoidance for venue and organizer creates (tec-reference §8.6; contract §4 row 13): a
 * create whose name (and description, when one is given) matches a non-trashed post the writer may
 * read — case-insensitively in every script — returns that post unchanged instead of inserting a
 * new one; a guard makes a parallel create of the same name start again and reuse it.
 */
import { and, ne, type SQL, sql } from "drizzle-orm";
import { type AuthUser, canReadPost } from "../access/capabilities";
import { batchKey, type NamedBatch } from "../db/batch";
import type { Db } from "../db/client";
import { slugBase, slugsTaken } from "../db/slugs";
import { inList } from "../db/sql";
import { unlessChanged } from "../db/write";
import type { WritePlan } from "../db/write-plan";
import { htmlFiltersFor } from "../text/kses";
import { LINKED } from "./kinds";
import type { LinkedKind } from "./record";

/** A post that a create may reuse instead of inserting a duplicate (contract §4 row 13). */
export interface DuplicateCandidate {
  id: number;
  title: string;
  content: string;
  author: number | null;
  status: string;
}

/** The read batch's entries of `lookupNames`. */
export const nameKeys = (kind: LinkedKind) => ({
  names: batchKey<DuplicateCandidate[]>(`${kind}:names`),
  slugs: batchKey<Array<{ slug: string }>>(`${kind}:slugs`),
});

/**
 * Adds to the read batch what creating posts with these names needs: the non-trashed posts with the
 * same names, case-insensitively (`${kind}:names`), and the slugs their titles would collide with
 * (`${kind}:slugs`). One bound parameter per list, however many names.
 */
export function lookupNames(batch: NamedBatch, db: Db, kind: LinkedKind, names: string[]): void {
  const table = LINKED[kind].table;
  batch.add(
    nameKeys(kind).names,
    db
      .select({
        id: table.id,
        title: table.title,
        content: table.content,
        author: table.author,
        status: table.status,
      })
      .from(table)
      .where(sameNames(kind, names))
      .orderBy(table.id),
  );
  const bases = [...new Set(names.map((n) => slugBase(undefined, n, kind)))];
  batch.add(
    nameKeys(kind).slugs,
    db.select({ slug: table.slug }).from(table).where(slugsTaken(table.slug, bases)),
  );
}

/**
 * A `LIKE` pattern (escape `\\`) that matches `name` in any case, also where SQLite cannot fold
 * case (it folds ASCII only): ASCII characters stand for themselves (`LIKE` ignores their case),
 * every other character matches any one character. A superset, narrowed by `sameText`.
 * @example likeAnyCase("Über 100%") // "_ber 100\\%"
 */
export function likeAnyCase(name: string): string {
  let out = "";
  for (const ch of name) {
    if (ch === "%" || ch === "_" || ch === "\\") out += `\\${ch}`;
    else out += ch.charCodeAt(0) < 0x80 ? ch : "_";
  }
  return out;
}

/**
 * Characters per `LIKE` pattern: D1 refuses patterns over 50 bytes, and an escaped character
 * takes 2, so a long name is matched piece by piece (`substr(title, at, PIECE) LIKE piece`).
 */
const PIECE = 24;

/**
 * `name` as its length in characters and the `likeAnyCase` patterns of its `PIECE`-character
 * pieces, each with its 1-based start: `{ n, p: [[at, pattern], …] }`.
 * @example likePieces("Über") // { n: 4, p: [[1, "_ber"]] }
 */
export function likePieces(name: string): { n: number; p: [number, string][] } {
  const chars = [...name];
  const p: [number, string][] = [];
  for (let at = 0; at < chars.length; at += PIECE)
    p.push([at + 1, likeAnyCase(chars.slice(at, at + PIECE).join(""))]);
  return { n: chars.length, p };
}

/**
 * Non-trashed posts of the kind named like one of `names`, case-insensitively (contract §4 row
 * 13). ASCII names use the `lower(title)` index; names with other letters (`Über`, `ÉTÉ`), whose
 * case SQLite's `lower()` does not fold, are found by length and `likePieces` patterns (one bound
 * JSON parameter, however long or many the names).
 */
function sameNames(kind: LinkedKind, names: string[]): SQL {
  const table = LINKED[kind].table;
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  const wide = lowered.filter((n) => /[^ -~]/.test(n)).map(likePieces);
  const named = wide.length
    ? sql`(${inList(sql`lower(${table.title})`, lowered)} OR EXISTS (SELECT 1 FROM json_each(${JSON.stringify(wide)}) w WHERE length(${table.title}) = json_extract(w.value, '$.n') AND NOT EXISTS (SELECT 1 FROM json_each(w.value, '$.p') p WHERE substr(${table.title}, json_extract(p.value, '$[0]'), ${PIECE}) NOT LIKE json_extract(p.value, '$[1]') ESCAPE '\\')))`
    : inList(sql`lower(${table.title})`, lowered);
  return and(named, ne(table.status, "trash"))!;
}

/** Case-insensitive equality of names and descriptions, for every script (not only ASCII). */
const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The guard of a create that found no post to reuse among `read`: the batch fails as a
 * conflict if a post of the same name appeared since the read (a parallel create), so the retry
 * reuses it instead of making a duplicate.
 */
export function noNewNamesake(plan: WritePlan, kind: LinkedKind, names: string[], read: number[]) {
  const table = LINKED[kind].table;
  return unlessChanged(
    plan.db,
    sql`NOT EXISTS (SELECT 1 FROM ${table} WHERE ${and(sameNames(kind, names), sql`${table.id} NOT IN (SELECT value FROM json_each(${JSON.stringify(read)}))`)})`,
  );
}

/**
 * The existing post a create reuses (§8.6, contract §4 row 13): same name and, when one is given,
 * the same description, both case-insensitively (`Main Hall` = `main hall`, `Über` = `über`); the
 * oldest wins. Posts the user may not read are never
 * reused, so a create cannot reveal someone else's draft.
 */
export function findDuplicate(
  candidates: DuplicateCandidate[],
  name: string,
  description: string,
  user: AuthUser,
): DuplicateCandidate | undefined {
  // What the writer's HTML filters would store counts as the same text as what was sent.
  const html = htmlFiltersFor(user);
  const names = [name, html.data(name)];
  const descriptions = [description, html.post(description)];
  return candidates.find(
    (e) =>
      names.some((n) => sameText(e.title, n)) &&
      (description === "" || descriptions.some((d) => sameText(e.content, d))) &&
      canReadPost(user, e),
  );
}
