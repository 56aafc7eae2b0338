/**
 * Category and tag routes (tec-reference §1.2 rows 11–14), one implementation for both taxonomies, in
 * TEC's registration order: archive GET/POST; single GET, then POST/PUT/PATCH, then DELETE. Each
 * handler is declared with the argument specs it validates with, who may use it (`Allow`) and its
 * `/doc` answers.
 */
import { anyone, type Permit, type RouteDef } from "../http/registry";
import { archiveArgs, singleArgs, writeArgs } from "./args";
import { deleteTerm } from "./delete";
import { listTerms } from "./list";
import { saveTerm } from "./save";
import { getTerm } from "./single";
import { CATEGORIES, mayManage, TAGS, type TaxonomyInfo } from "./taxonomies";

function termRoutes(
  info: TaxonomyInfo,
  archive: "CategoryArchive" | "TagArchive",
): Array<RouteDef<Permit>> {
  const base = `/${info.base}`;
  const manage: Permit = (u) => mayManage(info, u);
  const op = (name: string) => `${info.base}.${name}`;
  return [
    {
      path: base,
      endpoints: [
        {
          methods: ["GET"],
          args: archiveArgs(info),
          may: anyone,
          handler: (c) => listTerms(c, info),
          doc: { op: op("list"), ok: 200, body: archive, errors: [400] },
        },
        {
          methods: ["POST"],
          args: writeArgs(info, true),
          may: manage,
          handler: (c) => saveTerm(c, info, { create: true }),
          doc: { op: op("create"), ok: 201, body: "Term", errors: [400, 401, 403] },
        },
      ],
    },
    {
      path: `${base}/{id}`,
      endpoints: [
        {
          methods: ["GET"],
          args: singleArgs(info),
          may: anyone,
          handler: (c) => getTerm(c, info),
          doc: { op: op("read"), ok: 200, body: "Term", errors: [400] },
        },
        {
          methods: ["POST", "PUT", "PATCH"],
          args: writeArgs(info, false),
          may: manage,
          handler: (c) => saveTerm(c, info, { id: Number(c.req.param("id")) }),
          doc: { op: op("update"), ok: 200, body: "Term", errors: [400, 401, 403] },
        },
        {
          methods: ["DELETE"],
          args: singleArgs(info),
          may: manage,
          handler: (c) => deleteTerm(c, info),
          doc: { op: op("delete"), ok: 200, body: "Term", errors: [400, 401, 403] },
        },
      ],
    },
  ];
}

/** `/categories`, `/categories/{id}`. */
export function categoryRoutes(): Array<RouteDef<Permit>> {
  return termRoutes(CATEGORIES, "CategoryArchive");
}

/** `/tags`, `/tags/{id}`. */
export function tagRoutes(): Array<RouteDef<Permit>> {
  return termRoutes(TAGS, "TagArchive");
}
