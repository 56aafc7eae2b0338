/**
 * Arguments of `GET /deleted` (contract §7, incremental sync).
 */
import * as v from "valibot";
import type { ArgSpecs } from "../http/args";
import { arg, issue } from "../http/args";
import { modifiedAfterArg, pageArgs } from "../http/list-args";
import { listToArray, MAX_LIST } from "../http/validators";

/** The kinds of things the log reports, by their REST names. */
export const DELETED_TYPES = ["event", "venue", "organizer", "category", "tag"] as const;
export type DeletedType = (typeof DELETED_TYPES)[number];

/** `type`: a list (or comma string) of `DELETED_TYPES`. */
const typeList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) =>
      list.length > 0 &&
      list.length <= MAX_LIST &&
      list.every((t) => typeof t === "string" && (DELETED_TYPES as readonly string[]).includes(t)),
    issue("invalid"),
  ),
  v.transform((list) => [...new Set(list as DeletedType[])]),
);

/** `GET /deleted`. */
export const DELETED_ARGS = {
  ...pageArgs("deleted"),
  ...modifiedAfterArg("deleted"),
  type: arg({
    schema: typeList,
    swaggerType: "array",
    items: { type: "string" },
    description: "deleted.type",
  }),
} satisfies ArgSpecs;
