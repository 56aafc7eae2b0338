/**
 * Arguments of the venue and organizer routes (tec-reference §2.6, §2.7), declared once for both
 * kinds, plus the contract's additions: `modified_after` on lists (contract §7), `password` on reads
 * (§4.7) and `force` on deletes. Create arguments are `VENUE_ARGS` / `ORGANIZER_ARGS` (fields.ts);
 * edit arguments are the same unrequired and without defaults, so an update changes exactly what it
 * names (contract §4 rows 10, 12).
 */
import * as v from "valibot";
import type { ArgSpecs } from "../http/args";
import { arg, issue, unrequired } from "../http/args";
import { modifiedAfterArg, pageArgs, searchArg, syncCursorArg } from "../http/list-args";
import { statusList } from "../http/post-status";
import { idFormat, isTruthy, nonEmptyString, positiveInt, wpBoolean } from "../http/validators";
import { LINKED } from "./kinds";
import type { LinkedKind } from "./record";

/** A swagger-only boolean read with `tribe_is_truthy` (§3): never rejected. */
const truthy = v.pipe(v.unknown(), v.transform(isTruthy));

const password = v.pipe(
  v.unknown(),
  v.check((x) => typeof x === "string", issue("not_of_type", "string")),
  v.transform((x) => x as string),
);

function archive<K extends LinkedKind>(kind: K) {
  const p = LINKED[kind].plural;
  return {
    ...pageArgs(p),
    ...searchArg(p),
    event: arg({ schema: positiveInt, type: "integer", description: `${p}.event` }),
    has_events: arg({ schema: truthy, swaggerType: "boolean", description: `${p}.has_events` }),
    only_with_upcoming: arg({
      schema: truthy,
      default: false,
      swaggerType: "boolean",
      description: `${p}.only_with_upcoming`,
    }),
    status: arg({
      schema: statusList,
      swaggerType: "string",
      format: "string",
      description: `${p}.status`,
    }),
    ...modifiedAfterArg(p),
    ...syncCursorArg(p),
    password: arg({ schema: password, swaggerType: "string", description: `${p}.password` }),
  } satisfies ArgSpecs;
}

function single<K extends LinkedKind>(kind: K) {
  const p = LINKED[kind].plural;
  return {
    id: arg({
      schema: idFormat,
      required: true,
      type: "integer",
      in: "path",
      description: `${p}.id`,
    }),
    password: arg({ schema: nonEmptyString, type: "string", description: `${p}.single_password` }),
  } satisfies ArgSpecs;
}

function bySlug<K extends LinkedKind>(kind: K) {
  const p = LINKED[kind].plural;
  return {
    slug: arg({
      schema: nonEmptyString,
      required: true,
      type: "string",
      in: "path",
      description: `${p}.slug_path`,
    }),
    password: arg({ schema: nonEmptyString, type: "string", description: `${p}.single_password` }),
  } satisfies ArgSpecs;
}

/** `GET /venues`, `GET /organizers` (§2.6, §2.7). */
export const ARCHIVE_ARGS = { venue: archive("venue"), organizer: archive("organizer") };

/** `GET|DELETE /{plural}/{id}`: the id must name a post of the kind (checked against D1). */
export const SINGLE_ARGS = { venue: single("venue"), organizer: single("organizer") };

/** `GET|DELETE|POST|PUT|PATCH /{plural}/by-slug/{slug}`. */
export const SLUG_ARGS = { venue: bySlug("venue"), organizer: bySlug("organizer") };

function editById<K extends LinkedKind>(kind: K) {
  return { id: single(kind).id, ...unrequired(LINKED[kind].args) };
}

function editBySlug<K extends LinkedKind>(kind: K) {
  return { slug: bySlug(kind).slug, ...unrequired(LINKED[kind].args) };
}

/** `POST|PUT|PATCH /{plural}/{id}` (§2.6): the id, then the create arguments, none required. */
export const EDIT_ARGS = { venue: editById("venue"), organizer: editById("organizer") };

/** `POST|PUT|PATCH /{plural}/by-slug/{slug}`: the slug, then the create arguments, none required. */
export const EDIT_BY_SLUG_ARGS = { venue: editBySlug("venue"), organizer: editBySlug("organizer") };

function remove<K extends LinkedKind>(kind: K) {
  return {
    force: arg({
      schema: wpBoolean,
      type: "boolean",
      default: false,
      description: `${LINKED[kind].plural}.force`,
    }),
  } satisfies ArgSpecs;
}

/** `DELETE /{plural}/{id}` and by slug, besides the path key (contract §4: `force`). */
export const DELETE_ARGS = { venue: remove("venue"), organizer: remove("organizer") };
