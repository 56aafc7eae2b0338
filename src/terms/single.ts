/**
 * `GET /categories/{id}`, `GET /tags/{id}` (tec-reference §2.8, §4.4 c): one D1 batch loads the term
 * and the categories above it. An id that is not a term of the taxonomy → 400 `rest_invalid_param`
 * (`is_event_category` / `is_post_tag`).
 */
import { and, eq, sql } from "drizzle-orm";
import { type EntryResult, runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { terms } from "../db/schema";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { InvalidParamsError } from "../http/errors";
import type { RenderContext } from "../http/render";
import { singleArgs } from "./args";
import { serializeTerm } from "./contract";
import { ancestorsQuery } from "./query";
import { type Ancestry, ancestryOf, type TermRow, termLinks } from "./serialize";
import type { TaxonomyInfo } from "./taxonomies";

/**
 * The queries that load a term of the taxonomy and its ancestors, for one batch (possibly at the end
 * of a write batch). Read their results with `termFromResults`.
 */
export function termLoadQueries(db: Db, info: TaxonomyInfo, id: number) {
  return {
    rows: db
      .select()
      .from(terms)
      .where(and(eq(terms.id, id), eq(terms.taxonomy, info.taxonomy))),
    ancestors: ancestorsQuery(
      db,
      sql`(SELECT ${terms.parent} FROM ${terms} WHERE ${terms.id} = ${id})`,
    ),
  };
}

/** The results of `termLoadQueries`. */
export type TermLoad = EntryResult<ReturnType<typeof termLoadQueries>>;

/** The term (null when the id is not a term of the taxonomy) and its ancestry. */
export function termFromResults(loaded: TermLoad): { term: TermRow | null; ancestry: Ancestry } {
  return { term: loaded.rows[0] ?? null, ancestry: ancestryOf(loaded.ancestors) };
}

/** Loads a term of the taxonomy and its ancestry in one round trip (`termFromResults`). */
export async function loadTerm(db: Db, info: TaxonomyInfo, id: number) {
  return termFromResults((await runBatch(db, { term: termLoadQueries(db, info, id) })).term);
}

/** The single-term body (§4.4 c) with WordPress `_links`, as GET, POST and PUT answer. */
export function renderSingle(c: AppContext, info: TaxonomyInfo, term: TermRow, ancestry: Ancestry) {
  const user = c.get("user");
  const ctx: RenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user,
    single: true,
  };
  return {
    ...serializeTerm(ctx, term, ancestry, termLinks(ctx, info, term)),
  };
}

/**
 * Handles `GET /categories/{id}` and `GET /tags/{id}`.
 * @throws InvalidParamsError `id` when the id is not a term of the taxonomy.
 * @example r.get("/tags/:id{[0-9]+}", (c) => getTerm(c, TAGS))
 */
export async function getTerm(c: AppContext, info: TaxonomyInfo): Promise<Response> {
  const { values } = parseArgs(singleArgs(info), await requestParams(c), argContext(c));
  const { db } = c.get("rdb");
  const { term, ancestry } = await loadTerm(db, info, values.id);
  if (!term) throw new InvalidParamsError([{ name: "id" }]);
  return c.json(renderSingle(c, info, term, ancestry));
}
