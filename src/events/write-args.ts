/**
 * Arguments of `POST /events` (tec-reference §2.3) and of the edit routes (§2.4, §2.5), plus the
 * contract's writable `ticketed`, `password`, and what imports keep of their source: the iCalendar
 * `uid`, `global_id_lineage` (§4.1) and the cost's currency (`currency_symbol`, `currency_position`,
 * `currency_code`: the metas behind §4.1 `cost_details`).
 * Edit arguments are the create arguments unrequired and **without defaults**, so that an update
 * changes exactly what it names (contract §4 row 10).
 */
import * as v from "valibot";
import type { ArgSpecs } from "../http/args";
import { arg, issue, unrequired } from "../http/args";
import {
  idFormat,
  isEmpty,
  isNumeric,
  nonEmptyString,
  timeInput,
  wpBoolean,
} from "../http/validators";
import {
  eventImageRef,
  globalIdLineage,
  postStatus,
  urlOrEmpty,
  userId,
} from "../linked-posts/fields";
import { resolveZone } from "../time/zone";

/** TEC `is_timezone_or_empty` (§3): empty, an IANA name, or `UTC±H[:MM]`. */
const timezoneOrEmpty = v.pipe(
  v.unknown(),
  v.check(
    (x) => isEmpty(x) || (typeof x === "string" && resolveZone(x) !== null),
    issue("invalid"),
  ),
  v.transform((x) => (typeof x === "string" ? x.trim() : "")),
);

/** Cost: a string, a number, or a list of them (stored verbatim, §8.2); empty clears. */
const costInput = v.pipe(
  v.unknown(),
  v.check(
    (x) =>
      isEmpty(x) ||
      typeof x === "string" ||
      isNumeric(x) ||
      (Array.isArray(x) && x.length <= 20 && x.every((i) => typeof i === "string" || isNumeric(i))),
    issue("invalid"),
  ),
  v.transform((x): string[] =>
    isEmpty(x)
      ? []
      : (Array.isArray(x) ? x : [x])
          .map((i) => String(i).trim())
          .filter((i) => i !== "")
          .map((i) => i.slice(0, 200)),
  ),
);

/** Raw value, validated by the linked-post and term resolvers. */
const raw = v.pipe(
  v.unknown(),
  v.transform((x) => x),
);

const uid = v.pipe(
  v.unknown(),
  v.check((x) => typeof x === "string" && x.trim() !== "" && x.length <= 255, issue("invalid")),
  v.transform((x) => String(x).trim()),
);

/** `_EventCurrencySymbol` (§4.8): up to 10 characters, no digits; empty clears (the site's is shown). */
const currencySymbol = v.pipe(
  v.unknown(),
  v.check(
    (x) => isEmpty(x) || (typeof x === "string" && x.trim().length <= 10 && !/\d/.test(x)),
    issue("invalid"),
  ),
  v.transform((x) => (typeof x === "string" ? x.trim() : "")),
);

/** `_EventCurrencyPosition` (§4.1): `prefix`, `postfix`, or empty (the site's applies). */
const currencyPosition = v.pipe(
  v.unknown(),
  v.check(
    (x) => isEmpty(x) || x === "prefix" || x === "postfix",
    issue("not_in_enum", "prefix, postfix"),
  ),
  v.transform((x): "" | "prefix" | "postfix" => (x === "prefix" || x === "postfix" ? x : "")),
);

/** `_EventCurrencyCode`: an ISO 4217 code (three letters, stored upper case), or empty. */
const currencyCode = v.pipe(
  v.unknown(),
  v.check(
    (x) => isEmpty(x) || (typeof x === "string" && /^[A-Za-z]{3}$/.test(x.trim())),
    issue("invalid"),
  ),
  v.transform((x) => (typeof x === "string" ? x.trim().toUpperCase() : "")),
);

const password = v.pipe(
  v.unknown(),
  v.check((x) => typeof x === "string" && x.length <= 255, issue("not_of_type", "string")),
  v.transform((x) => x as string),
);

const create = {
  author: arg({ schema: userId, type: "integer", description: "events.write.author" }),
  date: arg({ schema: timeInput, type: "string", description: "events.write.date" }),
  date_utc: arg({ schema: timeInput, type: "string", description: "events.write.date_utc" }),
  title: arg({
    schema: nonEmptyString,
    required: true,
    type: "string",
    description: "events.write.title",
  }),
  description: arg({
    schema: nonEmptyString,
    type: "string",
    description: "events.write.description",
  }),
  slug: arg({ schema: nonEmptyString, type: "string", description: "events.write.slug" }),
  excerpt: arg({ schema: nonEmptyString, type: "string", description: "events.write.excerpt" }),
  status: arg({ schema: postStatus, type: "string", description: "events.write.status" }),
  timezone: arg({ schema: timezoneOrEmpty, type: "string", description: "events.write.timezone" }),
  all_day: arg({
    schema: wpBoolean,
    type: "boolean",
    default: false,
    description: "events.write.all_day",
  }),
  start_date: arg({
    schema: timeInput,
    required: true,
    type: "string",
    description: "events.write.start_date",
  }),
  end_date: arg({
    schema: timeInput,
    required: true,
    type: "string",
    description: "events.write.end_date",
  }),
  image: arg({ schema: eventImageRef, type: "string", description: "events.write.image" }),
  cost: arg({ schema: costInput, swaggerType: "string", description: "events.write.cost" }),
  website: arg({ schema: urlOrEmpty, swaggerType: "string", description: "events.write.website" }),
  show_map: arg({ schema: wpBoolean, type: "boolean", description: "events.write.show_map" }),
  show_map_link: arg({
    schema: wpBoolean,
    type: "boolean",
    description: "events.write.show_map_link",
  }),
  hide_from_listings: arg({
    schema: wpBoolean,
    type: "boolean",
    description: "events.write.hide_from_listings",
  }),
  sticky: arg({ schema: wpBoolean, type: "boolean", description: "events.write.sticky" }),
  featured: arg({ schema: wpBoolean, type: "boolean", description: "events.write.featured" }),
  categories: arg({
    schema: raw,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.write.categories",
  }),
  tags: arg({
    schema: raw,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.write.tags",
  }),
  venue: arg({
    schema: raw,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.write.venue",
  }),
  organizer: arg({
    schema: raw,
    swaggerType: "array",
    items: { type: "integer" },
    description: "events.write.organizer",
  }),
  ticketed: arg({ schema: wpBoolean, type: "boolean", description: "events.write.ticketed" }),
  password: arg({ schema: password, type: "string", description: "events.write.password" }),
  uid: arg({ schema: uid, type: "string", description: "events.write.uid" }),
  currency_symbol: arg({
    schema: currencySymbol,
    type: "string",
    description: "events.write.currency_symbol",
  }),
  currency_position: arg({
    schema: currencyPosition,
    type: "string",
    description: "events.write.currency_position",
  }),
  currency_code: arg({
    schema: currencyCode,
    type: "string",
    description: "events.write.currency_code",
  }),
  global_id_lineage: arg({
    schema: globalIdLineage,
    swaggerType: "array",
    items: { type: "string" },
    description: "events.write.global_id_lineage",
  }),
};

/** `POST /events`. */
export const CREATE_ARGS = create satisfies ArgSpecs;

/** `POST|PUT|PATCH /events/{id}` (§2.4). */
export const EDIT_ARGS = {
  id: arg({
    schema: idFormat,
    required: true,
    type: "integer",
    in: "path",
    description: "events.id",
  }),
  ...unrequired(create),
} satisfies ArgSpecs;

/** `POST|PUT|PATCH /events/by-slug/{slug}` (§2.5): the path names the event; `slug` in the body renames it. */
export const EDIT_BY_SLUG_ARGS = unrequired(create);

/** `DELETE /events/{id}` and by-slug (§2.2, contract: `force`). */
export const DELETE_ARGS = {
  force: arg({ schema: wpBoolean, type: "boolean", default: false, description: "events.force" }),
} satisfies ArgSpecs;
