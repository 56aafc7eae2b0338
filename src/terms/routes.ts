/**
 * Category and tag routes (tec-reference §1.2 rows 11–14), one implementation for both taxonomies, in
 * TEC's registration order: archive GET/POST; single GET, then POST/PUT/PATCH, then DELETE.
 */
import { Hono } from "hono";
import { allow } from "../http/allow";
import type { AppEnv } from "../http/context";
import { deleteTerm } from "./delete";
import { listTerms } from "./list";
import { saveTerm } from "./save";
import { getTerm } from "./single";
import { CATEGORIES, TAGS, type TaxonomyInfo, mayManage, singleMethods } from "./taxonomies";

function termRoutes(info: TaxonomyInfo): Hono<AppEnv> {
  const r = new Hono<AppEnv>({ strict: false });
  const base = `/${info.base}`;
  const single = `${base}/:id{[0-9]+}`;
  // `/{base}/*` also matches `/{base}`; the archive's own list is set last and wins there.
  r.use(`${base}/*`, allow(singleMethods(info)));
  r.use(base, allow({ GET: () => true, POST: (u) => mayManage(info, u) }));
  r.get(base, (c) => listTerms(c, info));
  r.post(base, (c) => saveTerm(c, info, { create: true }));
  r.get(single, (c) => getTerm(c, info));
  r.on(["POST", "PUT", "PATCH"], single, (c) => saveTerm(c, info, { id: Number(c.req.param("id")) }));
  r.delete(single, (c) => deleteTerm(c, info));
  return r;
}

/** `/categories`, `/categories/{id}`. */
export function categoryRoutes(): Hono<AppEnv> {
  return termRoutes(CATEGORIES);
}

/** `/tags`, `/tags/{id}`. */
export function tagRoutes(): Hono<AppEnv> {
  return termRoutes(TAGS);
}
