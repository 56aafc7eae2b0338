/**
 * Creating and updating categories and tags (tec-reference §2.8, §8.1, §8.8; contract §4 row 7):
 * one read batch (the next term id, the term, its new parent and that parent's chain, same-named
 * siblings, taken slugs), the checks in WordPress's order (validators → permission → handler), then
 * one write batch (the term, the events that embed it, the content version) that ends with the reload
 * of the saved term.
 *
 * Create → 201 with `Location` = the term's own URL here; update → 200. Both answer the single shape
 * with `_links`.
 */
import { and, eq, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import { IdReservation } from "../db/ids";
import { terms } from "../db/schema";
import { freeSlug, slugBase, slugTaken, uniqueSlug } from "../db/slugs";
import { postDates, unlessChanged, withWriteRetry } from "../db/write";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { ApiError, forbidden, InvalidParamsError } from "../http/errors";
import { paramValue } from "../http/params";
import { htmlFiltersFor } from "../text/kses";
import { type WriteValues, writeArgs } from "./args";
import { ancestorsQuery, touchEventsOf } from "./query";
import { ancestryOf, type TermRow } from "./serialize";
import { loadTerm, renderSingle, termFromResults, termLoadQueries } from "./single";
import { mayManage, subjectOf, type TaxonomyInfo } from "./taxonomies";

/** Which term a save targets: a new one, or one named by id. */
export type TermTarget = { create: true } | { id: number };

/**
 * Handles `POST /categories|tags` and `POST|PUT|PATCH /categories|tags/{id}`.
 * @throws ApiError 400 `rest_missing_callback_param` / `rest_invalid_param` (validators, incl. unknown `id`
 *   or `parent` and parent cycles), 401/403 `rest_forbidden` (§9.2), 400 `rest_taxonomy_not_hierarchical`
 *   (any `parent` sent to tags), 400 `term_exists` with `data.term_id` (duplicate name among siblings).
 * @example r.post("/categories", (c) => saveTerm(c, CATEGORIES, { create: true }))
 */
export async function saveTerm(
  c: AppContext,
  info: TaxonomyInfo,
  target: TermTarget,
): Promise<Response> {
  const creating = "create" in target;
  const params = await requestParams(c);
  const { values } = parseArgs(writeArgs(info, creating), params, argContext(c));
  const a = values as WriteValues;
  const user = c.get("user");
  const { db } = c.get("rdb");
  const html = htmlFiltersFor(user);
  const name = a.name === undefined ? undefined : html.data(a.name.trim());
  const description = a.description === undefined ? undefined : html.data(a.description);
  const reservation = new IdReservation(db);

  return withWriteRetry(async () => {
    // `term_exists` (§8.8): the same name, case-insensitively, among the new term's siblings.
    const sameName =
      creating && name !== undefined
        ? and(
            eq(terms.taxonomy, info.taxonomy),
            sql`lower(${terms.name}) = lower(${name})`,
            info.hierarchical ? eq(terms.parent, a.parent ?? 0) : undefined,
          )
        : undefined;
    const base = creating || a.slug !== undefined ? slugBase(a.slug, name ?? "", "term") : null;
    const r = await runBatch(db, {
      term:
        "id" in target
          ? db
              .select()
              .from(terms)
              .where(and(eq(terms.id, target.id), eq(terms.taxonomy, info.taxonomy)))
          : undefined,
      parent: a.parent
        ? db
            .select({ id: terms.id })
            .from(terms)
            .where(and(eq(terms.id, a.parent), eq(terms.taxonomy, info.taxonomy)))
        : undefined,
      chain: a.parent ? ancestorsQuery(db, [a.parent]) : undefined,
      same: sameName ? db.select({ id: terms.id }).from(terms).where(sameName).limit(1) : undefined,
      slugs: base
        ? db
            .select({ id: terms.id, slug: terms.slug })
            .from(terms)
            .where(and(eq(terms.taxonomy, info.taxonomy), slugTaken(terms.slug, base)))
        : undefined,
    });

    const existing: TermRow | null = r.term?.[0] ?? null;
    // Validators that need D1 (§1.3 step 5): the term and the parent must exist; no cycles.
    const invalid: string[] = [];
    if ("id" in target && !existing) invalid.push("id");
    const chain = ancestryOf(r.chain);
    if (r.parent && (r.parent.length === 0 || ("id" in target && chain.has(target.id))))
      invalid.push("parent");
    if (invalid.length) throw new InvalidParamsError(invalid.map((n) => ({ name: n })));

    if (!mayManage(info, subjectOf(user))) throw forbidden(user !== null);
    // Tags take no `parent` at all (§8.8), not even 0.
    const parentParam = paramValue(params, "parent");
    if (!info.hierarchical && parentParam !== undefined && parentParam !== null)
      throw new ApiError(400, "rest_taxonomy_not_hierarchical");
    if (creating && r.same?.length)
      throw new ApiError(400, "term_exists", [], { term_id: r.same[0].id }, info.termExistsMessage);

    const stamp = postDates(requestNow(c), c.get("settings").siteTimezone);
    const taken = new Set<string>(
      (r.slugs ?? []).filter((t) => t.id !== existing?.id).map((t) => t.slug),
    );
    const fields: Partial<typeof terms.$inferInsert> = {};
    if (name !== undefined) fields.name = name;
    if (description !== undefined) fields.description = description;
    // WordPress's first free slug as read; decided again in the batch should a parallel write take it.
    const slug = base ? uniqueSlug(base, taken) : undefined;
    const scope = sql`s.taxonomy = ${info.taxonomy}`;
    if (a.parent !== undefined) fields.parent = a.parent;

    if (!existing) {
      await reservation.ensure({ post: 0, term: 1 });
      const id = reservation.allocators().termIds.take();
      const write = [
        // A parallel create of the same name got in first: start again, and answer `term_exists`.
        unlessChanged(db, sql`NOT EXISTS (SELECT 1 FROM ${terms} WHERE ${sameName})`),
        db.insert(terms).values({
          id,
          taxonomy: info.taxonomy,
          name: name!,
          ...fields,
          slug: freeSlug("terms", base!, slug!, { scope }),
          modifiedGmt: stamp.gmt,
        }),
      ];
      const written = await runBatch(db, { write, term: termLoadQueries(db, info, id) });
      const { term, ancestry } = termFromResults(written.term);
      c.header("Location", `${c.get("urls").namespaceRoot}${info.base}/${id}`);
      return c.json(renderSingle(c, info, term!, ancestry), 201);
    }

    if (slug !== undefined && slug !== existing.slug) fields.slug = slug;
    const changed = (Object.keys(fields) as Array<keyof typeof fields>).some(
      (k) => fields[k] !== existing[k as keyof TermRow],
    );
    if (!changed) {
      const { term, ancestry } = await loadTerm(db, info, existing.id);
      return c.json(renderSingle(c, info, term!, ancestry));
    }
    const write = [
      db
        .update(terms)
        .set({
          ...fields,
          ...(fields.slug === undefined
            ? {}
            : { slug: freeSlug("terms", base!, fields.slug, { scope, except: existing.id }) }),
          modifiedGmt: stamp.gmt,
        })
        .where(eq(terms.id, existing.id)),
      touchEventsOf(db, existing.id, stamp),
    ];
    const written = await runBatch(db, { write, term: termLoadQueries(db, info, existing.id) });
    const { term, ancestry } = termFromResults(written.term);
    return c.json(renderSingle(c, info, term!, ancestry));
  });
}
