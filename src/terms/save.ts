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
import { and, eq, type SQL, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { IdReservation } from "../db/ids";
import { terms } from "../db/schema";
import { freeSlug, slugBase, slugTaken, uniqueSlug } from "../db/slugs";
import { postDates, unlessChanged } from "../db/write";
import { answerOnly, runWrite, type WriteDecision, writeThen } from "../db/write-pipeline";
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

/** A term save's request, parsed once (before the retries). */
interface TermSave {
  c: AppContext;
  info: TaxonomyInfo;
  target: TermTarget;
  creating: boolean;
  a: WriteValues;
  /** `parent` as sent, whatever its value (tags take none at all). */
  parentParam: unknown;
  name: string | undefined;
  description: string | undefined;
  reservation: IdReservation;
  /** `term_exists` (§8.8): the same name, case-insensitively, among the new term's siblings. */
  sameName: SQL | undefined;
  /** The slug base when a slug is to be (re)decided. */
  base: string | null;
}

/**
 * Handles `POST /categories|tags` and `POST|PUT|PATCH /categories|tags/{id}`, through the write
 * sequence (src/db/write-pipeline.ts).
 * @throws ApiError 400 `rest_missing_callback_param` / `rest_invalid_param` (validators, incl. unknown `id`
 *   or `parent` and parent cycles), 401/403 `rest_forbidden` (§9.2), 400 `rest_taxonomy_not_hierarchical`
 *   (any `parent` sent to tags), 400 `term_exists` with `data.term_id` (duplicate name among siblings).
 * @example r.post("/categories", (c) => saveTerm(c, CATEGORIES, { create: true }))
 */
export function saveTerm(c: AppContext, info: TaxonomyInfo, target: TermTarget): Promise<Response> {
  const { db } = c.get("rdb");
  return runWrite(db, {
    parse: () => parseTermSave(c, info, target),
    load: (p) => loadTermSave(db, p),
    plan: planTermSave,
  });
}

async function parseTermSave(
  c: AppContext,
  info: TaxonomyInfo,
  target: TermTarget,
): Promise<TermSave> {
  const creating = "create" in target;
  const params = await requestParams(c);
  const { values } = parseArgs(writeArgs(info, creating), params, argContext(c));
  const a = values as WriteValues;
  const html = htmlFiltersFor(c.get("user"));
  const name = a.name === undefined ? undefined : html.data(a.name.trim());
  const description = a.description === undefined ? undefined : html.data(a.description);
  const sameName =
    creating && name !== undefined
      ? and(
          eq(terms.taxonomy, info.taxonomy),
          sql`lower(${terms.name}) = lower(${name})`,
          info.hierarchical ? eq(terms.parent, a.parent ?? 0) : undefined,
        )
      : undefined;
  const base = creating || a.slug !== undefined ? slugBase(a.slug, name ?? "", "term") : null;
  const reservation = new IdReservation(c.get("rdb").db);
  const parentParam = paramValue(params, "parent");
  return {
    c,
    info,
    target,
    creating,
    a,
    parentParam,
    name,
    description,
    reservation,
    sameName,
    base,
  };
}

/** The read batch: the term, its new parent and that parent's chain, a namesake, taken slugs. */
function loadTermSave(db: Db, p: TermSave) {
  const { info, target, a, base } = p;
  const ofTaxonomy = (id: number) => and(eq(terms.id, id), eq(terms.taxonomy, info.taxonomy));
  return runBatch(db, {
    term: "id" in target ? db.select().from(terms).where(ofTaxonomy(target.id)) : undefined,
    parent: a.parent
      ? db.select({ id: terms.id }).from(terms).where(ofTaxonomy(a.parent))
      : undefined,
    chain: a.parent ? ancestorsQuery(db, [a.parent]) : undefined,
    same: p.sameName
      ? db.select({ id: terms.id }).from(terms).where(p.sameName).limit(1)
      : undefined,
    slugs: base
      ? db
          .select({ id: terms.id, slug: terms.slug })
          .from(terms)
          .where(and(eq(terms.taxonomy, info.taxonomy), slugTaken(terms.slug, base)))
      : undefined,
  });
}

type TermReads = Awaited<ReturnType<typeof loadTermSave>>;

/** The checks in WordPress's order (validators → permission → handler), then the write. */
async function planTermSave(p: TermSave, r: TermReads): Promise<WriteDecision<Response>> {
  const { c, info, target } = p;
  const user = c.get("user");
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
  if (!info.hierarchical && p.parentParam !== undefined && p.parentParam !== null)
    throw new ApiError(400, "rest_taxonomy_not_hierarchical");
  if (p.creating && r.same?.length)
    throw new ApiError(400, "term_exists", [], { term_id: r.same[0].id }, info.termExistsMessage);
  return existing ? planTermUpdate(p, r, existing) : planTermCreate(p, r);
}

/** The columns sent, and WordPress's first free slug as read (decided again in the batch). */
function sentTermColumns(p: TermSave, r: TermReads, existing: TermRow | null) {
  const fields: Partial<typeof terms.$inferInsert> = {};
  if (p.name !== undefined) fields.name = p.name;
  if (p.description !== undefined) fields.description = p.description;
  if (p.a.parent !== undefined) fields.parent = p.a.parent;
  const taken = new Set<string>(
    (r.slugs ?? []).filter((t) => t.id !== existing?.id).map((t) => t.slug),
  );
  const slug = p.base ? uniqueSlug(p.base, taken) : undefined;
  const stamp = postDates(requestNow(p.c), p.c.get("settings").siteTimezone);
  return { fields, slug, stamp, scope: sql`s.taxonomy = ${p.info.taxonomy}` };
}

/** A new term: 201 with `Location` = its own URL here. */
async function planTermCreate(p: TermSave, r: TermReads): Promise<WriteDecision<Response>> {
  const { c, info } = p;
  const { db } = c.get("rdb");
  const { fields, slug, stamp, scope } = sentTermColumns(p, r, null);
  await p.reservation.ensure({ post: 0, term: 1 });
  const id = p.reservation.allocators().termIds.take();
  const write = [
    // A parallel create of the same name got in first: start again, and answer `term_exists`.
    unlessChanged(db, sql`NOT EXISTS (SELECT 1 FROM ${terms} WHERE ${p.sameName})`),
    db.insert(terms).values({
      id,
      taxonomy: info.taxonomy,
      name: p.name!,
      ...fields,
      slug: freeSlug("terms", p.base!, slug!, { scope }),
      modifiedGmt: stamp.gmt,
    }),
  ];
  return writeThen(write, termLoadQueries(db, info, id), (loaded) => {
    const { term, ancestry } = termFromResults(loaded);
    c.header("Location", `${c.get("urls").namespaceRoot}${info.base}/${id}`);
    return c.json(renderSingle(c, info, term!, ancestry), 201);
  });
}

/** An update: the columns that change, and the events that embed the term; nothing if none. */
function planTermUpdate(p: TermSave, r: TermReads, existing: TermRow): WriteDecision<Response> {
  const { c, info } = p;
  const { db } = c.get("rdb");
  const { fields, slug, stamp, scope } = sentTermColumns(p, r, existing);
  if (slug !== undefined && slug !== existing.slug) fields.slug = slug;
  const changed = (Object.keys(fields) as Array<keyof typeof fields>).some(
    (k) => fields[k] !== existing[k as keyof TermRow],
  );
  const answer = ({ term, ancestry }: ReturnType<typeof termFromResults>) =>
    c.json(renderSingle(c, info, term!, ancestry));
  if (!changed) return answerOnly(async () => answer(await loadTerm(db, info, existing.id)));
  const write = [
    db
      .update(terms)
      .set({
        ...fields,
        ...(fields.slug === undefined
          ? {}
          : { slug: freeSlug("terms", p.base!, fields.slug, { scope, except: existing.id }) }),
        modifiedGmt: stamp.gmt,
      })
      .where(eq(terms.id, existing.id)),
    touchEventsOf(db, existing.id, stamp),
  ];
  return writeThen(write, termLoadQueries(db, info, existing.id), (loaded) =>
    answer(termFromResults(loaded)),
  );
}
