/**
 * Arguments of the category and tag routes (tec-reference §2.8, §3; contract §4 rows 19, 22), in
 * TEC's registration order. Tags have no `parent`. Checks that need D1 (ids, slugs and names that
 * must exist) run in the handlers' read batch, before the permission check (§1.3).
 */
import * as v from "valibot";
import type { ArgSpecs, ArgValues } from "../http/args";
import { arg, issue } from "../http/args";
import { modifiedAfterArg, pageArgs, searchArg, syncCursorArg } from "../http/list-args";
import { idFormat, nonEmptyString, positiveInt, termRefList, wpBoolean } from "../http/validators";
import { type TermWriteValues, termWriteArgs } from "./contract";
import type { TaxonomyInfo } from "./taxonomies";

/** Most ids, slugs or names one `include`/`exclude` may list. */
export const MAX_REFS = 100;

/** `include` / `exclude`: ids, slugs or names, as a list or comma string (`is_event_category`, contract §4 row 22). */
const termRefs = v.pipe(
  termRefList,
  v.check((list) => list.length <= MAX_REFS, issue("invalid")),
);

/** `GET /categories`, `GET /tags` (§2.8). */
export function archiveArgs(info: TaxonomyInfo) {
  const d = (name: string) => `${info.base}.${name}`;
  return {
    ...pageArgs(info.base),
    ...searchArg(info.base, nonEmptyString),
    exclude: arg({
      schema: termRefs,
      swaggerType: "array",
      items: { type: "integer" },
      description: d("exclude"),
    }),
    include: arg({
      schema: termRefs,
      swaggerType: "array",
      items: { type: "integer" },
      description: d("include"),
    }),
    order: arg({ schema: nonEmptyString, type: "string", description: d("order") }),
    orderby: arg({ schema: nonEmptyString, type: "string", description: d("orderby") }),
    hide_empty: arg({
      schema: wpBoolean,
      default: true,
      type: "boolean",
      description: d("hide_empty"),
    }),
    // `parent=0` lists top-level categories (contract §4 row 19).
    ...(info.hierarchical
      ? { parent: arg({ schema: idFormat, type: "integer", description: d("parent") }) }
      : {}),
    post: arg({ schema: positiveInt, type: "integer", description: d("post") }),
    event: arg({ schema: positiveInt, type: "integer", description: d("event") }),
    slug: arg({ schema: nonEmptyString, type: "string", description: d("slug") }),
    // Contract §7: only terms created or changed after that instant (incremental sync).
    ...modifiedAfterArg(info.base),
    ...syncCursorArg(info.base),
  } satisfies ArgSpecs;
}

/** The parsed archive arguments (categories' superset: tags have no `parent`). */
export type ArchiveValues = ArgValues<ReturnType<typeof archiveArgs>>;

/** `GET|DELETE /categories/{id}`, `/tags/{id}` (§2.8: `is_event_category` / `is_post_tag` run in the handler). */
export function singleArgs(info: TaxonomyInfo) {
  return {
    id: arg({
      schema: idFormat,
      required: true,
      type: "integer",
      in: "path",
      description: `${info.base}.id`,
    }),
  } satisfies ArgSpecs;
}

/**
 * `POST /categories`, `/tags` (§2.8): the term's arguments (its contract, src/terms/contract.ts).
 * With `id` and nothing required: `POST|PUT|PATCH /{base}/{id}`.
 */
export function writeArgs(info: TaxonomyInfo, create: boolean) {
  return {
    ...(create ? {} : singleArgs(info)),
    ...termWriteArgs(info, create),
  } satisfies ArgSpecs;
}

/** The parsed write arguments (categories' superset). */
export type WriteValues = { id?: number } & TermWriteValues;
