/**
 * WordPress's post statuses as arguments (tec-reference §3 `is_post_status`, §6.1): the statuses it
 * registers, those its `any` stands for, and the `status` list argument of the event, venue and
 * organizer archives.
 */
import * as v from "valibot";
import { issue } from "./args";
import { listToArray } from "./validators";

/** Post statuses WordPress registers (§3 `is_post_status`). */
export const REGISTERED_STATUSES = [
  "publish",
  "future",
  "draft",
  "pending",
  "private",
  "trash",
  "auto-draft",
  "inherit",
] as const;
/** WordPress `any`: every status not excluded from search (§6.1). */
export const ANY_STATUSES = ["publish", "future", "draft", "pending", "private"];

/** A list of registered statuses (`filter_post_status_list`, §3); the per-user rule is applied by the handler. */
export const statusList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) =>
      list.length > 0 &&
      list.every(
        (s) => typeof s === "string" && (REGISTERED_STATUSES as readonly string[]).includes(s),
      ),
    issue("invalid"),
  ),
  v.transform((list) => [...new Set(list as string[])]),
);
