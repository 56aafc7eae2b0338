/**
 * Arguments of the event write routes (tec-reference §2.3, §2.4, §2.5): `POST /events` takes the
 * arguments of the event's contract (src/events/contract.ts); the edit arguments are those
 * unrequired and **without defaults**, so that an update changes exactly what it names (contract
 * §4 row 10).
 */
import type { ArgSpecs } from "../http/args";
import { arg, unrequired } from "../http/args";
import { wpBoolean } from "../http/validators";
import { EVENT_ID } from "./args";
import { CREATE_ARGS } from "./contract";

/** `POST /events` (its contract, in TEC's order). */
export { CREATE_ARGS };

/** `POST|PUT|PATCH /events/{id}` (§2.4). */
export const EDIT_ARGS = {
  id: EVENT_ID,
  ...unrequired(CREATE_ARGS),
} satisfies ArgSpecs;

/** `POST|PUT|PATCH /events/by-slug/{slug}` (§2.5): the path names the event; `slug` in the body renames it. */
export const EDIT_BY_SLUG_ARGS = unrequired(CREATE_ARGS);

/** `DELETE /events/{id}` and by-slug (§2.2, contract: `force`). */
export const DELETE_ARGS = {
  force: arg({ schema: wpBoolean, type: "boolean", default: false, description: "events.force" }),
} satisfies ArgSpecs;
