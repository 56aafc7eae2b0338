/**
 * `DELETE /categories/{id}`, `/tags/{id}` (tec-reference §8.1, §8.8): always permanent (terms have no
 * trash). One write batch removes the term from its events (marking them modified for sync clients),
 * moves its child categories up to its own parent (WordPress `wp_delete_term`), deletes the term and
 * bumps the content version, leaving a tombstone (`deleted_terms`) so that sync clients learn of the
 * deletion (`GET /deleted`). Answers 200 with the term as it was, without `_links`. The id is never
 * handed out again (the term-id sequence only grows).
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { deletedTerms, eventTerms, terms } from "../db/schema";
import { postDates } from "../db/write";
import { runWrite, writeThen } from "../db/write-pipeline";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { forbidden, InvalidParamsError } from "../http/errors";
import type { RenderContext } from "../http/render";
import { singleArgs } from "./args";
import { serializeTerm } from "./contract";
import { touchEventsOf } from "./query";
import type { TermRow } from "./serialize";
import { loadTerm } from "./single";
import { mayManage, subjectOf, type TaxonomyInfo } from "./taxonomies";

/**
 * Handles `DELETE /categories/{id}` and `DELETE /tags/{id}`, through the write sequence
 * (src/db/write-pipeline.ts): load the term, check, one batch, answer the term as it was.
 * @throws InvalidParamsError `id` (not a term of the taxonomy), then ApiError 401/403 `rest_forbidden`.
 * @example r.delete("/tags/:id{[0-9]+}", (c) => deleteTerm(c, TAGS))
 */
export function deleteTerm(c: AppContext, info: TaxonomyInfo): Promise<Response> {
  const user = c.get("user");
  const { db } = c.get("rdb");
  return runWrite(db, {
    parse: async () => parseArgs(singleArgs(info), await requestParams(c), argContext(c)).values,
    load: (values) => loadTerm(db, info, values.id),
    plan: (_, { term, ancestry }) => {
      if (!term) throw new InvalidParamsError([{ name: "id" }]);
      if (!mayManage(info, subjectOf(user))) throw forbidden(user !== null);
      const stamp = postDates(requestNow(c), c.get("settings").siteTimezone);
      const ctx: RenderContext = {
        urls: c.get("urls"),
        settings: c.get("settings"),
        user,
        single: true,
      };
      return writeThen(termRemoval(db, info, term, stamp), undefined, () =>
        c.json(serializeTerm(ctx, term, ancestry)),
      );
    },
  });
}

/**
 * The statements that delete `term`: its events marked modified and unlinked, its child
 * categories moved up to its parent (WordPress `wp_delete_term`), its row, its tombstone.
 * @param stamp site-local and UTC `Y-m-d H:i:s` of the change.
 */
function termRemoval(
  db: Db,
  info: TaxonomyInfo,
  term: TermRow,
  stamp: { local: string; gmt: string },
) {
  return [
    touchEventsOf(db, term.id, stamp),
    db.delete(eventTerms).where(eq(eventTerms.termId, term.id)),
    db
      .update(terms)
      .set({ parent: term.parent, modifiedGmt: stamp.gmt })
      .where(and(eq(terms.taxonomy, info.taxonomy), eq(terms.parent, term.id))),
    db.delete(terms).where(eq(terms.id, term.id)),
    db
      .insert(deletedTerms)
      .values({ id: term.id, taxonomy: info.taxonomy, deletedGmt: stamp.gmt })
      .onConflictDoUpdate({ target: deletedTerms.id, set: { deletedGmt: stamp.gmt } }),
  ];
}
