/**
 * Arguments of the event write routes (tec-reference §2.3, §2.4, §2.5): `POST /events` takes the
 * arguments of the event's contract (src/events/contract.ts); the edit arguments are those
 * unrequired and **without defaults**, so that an update changes exactly what it names (contract
 * §4 row 10).
 */
import * as v from "valibot";
import type { ArgSpecs } from "../http/args";
import { arg, issue, unrequired } from "../http/args";
import { wpBoolean } from "../http/validators";
import { EVENT_ID } from "./args";
import { CREATE_ARGS } from "./contract";

/** `POST /events` (its contract, in TEC's order). */
export { CREATE_ARGS };

/**
 * Which events of a recurring series a write of one occurrence changes (contract §7.8): `this`
 * (the default) that occurrence alone, `following` it and every later one (the series is split
 * there). The series' own id names the whole series either way.
 */
const SCOPE = arg({
  schema: v.pipe(
    v.unknown(),
    v.check((x) => x === "this" || x === "following", issue("not_in_enum", "this, following")),
    v.transform((x) => x as "this" | "following"),
  ),
  type: "string",
  description: "events.scope",
});

/** `POST|PUT|PATCH /events/{id}` (§2.4). */
export const EDIT_ARGS = {
  id: EVENT_ID,
  ...unrequired(CREATE_ARGS),
  scope: SCOPE,
  /** Of an override: it becomes its occurrence again (contract §7.8, src/events/series/revert.ts). */
  revert: arg({ schema: wpBoolean, type: "boolean", description: "events.revert" }),
} satisfies ArgSpecs;

/** `POST|PUT|PATCH /events/by-slug/{slug}` (§2.5): the path names the event; `slug` in the body renames it. */
export const EDIT_BY_SLUG_ARGS = unrequired(CREATE_ARGS);

/** `DELETE /events/{id}` and by-slug (§2.2, contract: `force`). */
export const DELETE_ARGS = {
  force: arg({ schema: wpBoolean, type: "boolean", default: false, description: "events.force" }),
  scope: SCOPE,
} satisfies ArgSpecs;
