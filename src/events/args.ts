/**
 * Arguments of the event routes (tec-reference §2.1, §2.2, §2.5), in TEC's registration order, plus
 * the contract's additions (`geoloc_radius`, `modified_after`, `uid`).
 */
import * as v from "valibot";
import type { ArgSpecs } from "../http/args";
import { arg, issue } from "../http/args";
import { modifiedAfterArg, pageArgs, searchArg, syncCursorArg } from "../http/list-args";
import { statusList } from "../http/post-status";
import {
  idFormat,
  isNumeric,
  listToArray,
  nonEmptyString,
  positiveInt,
  positiveIntList,
  termRefList,
  wpBoolean,
} from "../http/validators";
import { ARCHIVE_DATE_ARGS } from "./date-fields";

const coordinate = (max: number) =>
  v.pipe(
    v.unknown(),
    v.check((x) => isNumeric(x) && Math.abs(Number(x)) <= max, issue("invalid")),
    v.transform(Number),
  );

const uidList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) =>
      list.length > 0 &&
      list.length <= 100 &&
      list.every((x) => typeof x === "string" && x.length <= 255),
    issue("invalid"),
  ),
  v.transform((list) => list as string[]),
);

/** `GET /events` (§2.1). */
export const ARCHIVE_ARGS = {
  ...pageArgs("events"),
  ...ARCHIVE_DATE_ARGS,
  strict_dates: arg({
    schema: nonEmptyString,
    default: "false",
    swaggerType: "string",
    description: "events.strict_dates",
  }),
  ...searchArg("events"),
  categories: arg({
    schema: termRefList,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.categories",
  }),
  tags: arg({
    schema: termRefList,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.tags",
  }),
  venue: arg({
    schema: positiveIntList,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.venue",
  }),
  organizer: arg({
    schema: positiveIntList,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.organizer",
  }),
  featured: arg({ schema: wpBoolean, type: "boolean", description: "events.featured" }),
  status: arg({
    schema: statusList,
    swaggerType: "string",
    format: "string",
    description: "events.status",
  }),
  geoloc: arg({ schema: wpBoolean, type: "boolean", description: "events.geoloc" }),
  geoloc_lat: arg({
    schema: coordinate(90),
    swaggerType: "number",
    format: "double",
    description: "events.geoloc_lat",
  }),
  geoloc_lng: arg({
    schema: coordinate(180),
    swaggerType: "number",
    format: "double",
    description: "events.geoloc_lng",
  }),
  geoloc_radius: arg({
    schema: v.pipe(
      v.unknown(),
      v.check((x) => isNumeric(x) && Number(x) > 0 && Number(x) <= 20000, issue("invalid")),
      v.transform(Number),
    ),
    swaggerType: "number",
    description: "events.geoloc_radius",
  }),
  include: arg({
    schema: positiveIntList,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.include",
  }),
  post_parent: arg({ schema: positiveInt, type: "integer", description: "events.post_parent" }),
  ticketed: arg({ schema: wpBoolean, type: "boolean", description: "events.ticketed" }),
  ...modifiedAfterArg("events"),
  ...syncCursorArg("events"),
  uid: arg({
    schema: uidList,
    swaggerType: "array",
    items: { type: "string" } as never,
    description: "events.uid",
  }),
  series: arg({
    schema: positiveIntList,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.series",
  }),
  password: arg({
    schema: v.pipe(
      v.unknown(),
      v.check((x) => typeof x === "string", issue("not_of_type", "string")),
      v.transform(String),
    ),
    swaggerType: "string",
    description: "events.password",
  }),
} satisfies ArgSpecs;

/** Path `id` of `/events/{id}`: reads, edits and deletes (§2.2, §2.4). */
export const EVENT_ID = arg({
  schema: idFormat,
  required: true,
  type: "integer",
  in: "path",
  description: "events.id",
});

/** `GET|DELETE /events/{id}` (§2.2). */
export const SINGLE_ARGS = {
  id: EVENT_ID,
  password: arg({ schema: nonEmptyString, type: "string", description: "events.single_password" }),
} satisfies ArgSpecs;

/**
 * `GET /events`'s own argument (contract §7.8): `expand=false` lists each series once, unexpanded
 * (Google Calendar's `singleEvents=false`).
 */
export const EXPAND_ARGS = {
  expand: arg({ schema: wpBoolean, type: "boolean", default: true, description: "events.expand" }),
} satisfies ArgSpecs;

/** `GET /events` (§2.1, contract §7.8). */
export const LIST_ARGS = { ...ARCHIVE_ARGS, ...EXPAND_ARGS } satisfies ArgSpecs;

/**
 * The id of `GET /events/{id}/instances` (contract §7.8): `EVENT_ID`, described as what it names
 * there — the series, by its own id or any of its events' (a computed occurrence's too).
 */
export const INSTANCES_ID = arg({ ...EVENT_ID, description: "events.instances_id" });

/**
 * `GET /events/{id}/instances` (contract §7.8): the path's event id, then every argument of the
 * archive but `series` (the path names the series).
 */
export const INSTANCES_ARGS = (() => {
  const { series: _series, ...archive } = ARCHIVE_ARGS;
  return { id: INSTANCES_ID, ...archive };
})() satisfies ArgSpecs;

/** `GET|DELETE /events/by-slug/{slug}` (§2.5). */
export const SLUG_ARGS = {
  slug: arg({
    schema: nonEmptyString,
    required: true,
    type: "string",
    in: "path",
    description: "events.slug_path",
  }),
  password: arg({ schema: nonEmptyString, type: "string", description: "events.single_password" }),
} satisfies ArgSpecs;
