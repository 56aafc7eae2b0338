/**
 * Arguments of `GET /deleted` (contract §7.3, incremental sync).
 */
import * as v from "valibot";
import { SYNC_TYPES, type SyncType } from "../db/schema";
import type { ArgSpecs } from "../http/args";
import { arg, issue } from "../http/args";
import { modifiedAfterArg, pageArgs, syncCursorArg } from "../http/list-args";
import { listToArray, MAX_LIST } from "../http/validators";

/** `type`: a list (or comma string) of the kinds the log reports (`SYNC_TYPES`). */
const typeList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) =>
      list.length > 0 &&
      list.length <= MAX_LIST &&
      list.every((t) => typeof t === "string" && (SYNC_TYPES as readonly string[]).includes(t)),
    issue("invalid"),
  ),
  v.transform((list) => [...new Set(list as SyncType[])]),
);

/** `GET /deleted`. */
export const DELETED_ARGS = {
  ...pageArgs("deleted"),
  ...modifiedAfterArg("deleted"),
  ...syncCursorArg("deleted"),
  type: arg({
    schema: typeList,
    swaggerType: "array",
    items: { type: "string" },
    description: "deleted.type",
  }),
} satisfies ArgSpecs;
