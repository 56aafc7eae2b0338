/**
 * Arguments of the webhook routes (issue 18). Every bad value is a 400 `rest_invalid_param` naming
 * the parameter, before anything is stored: `url` an absolute http(s) URL (private and loopback
 * hosts are refused by the handler unless `WEBHOOK_PRIVATE_TARGETS=allow`), `events` known types
 * (src/webhooks/events.ts), `coalesce_seconds` 1–3600, `status` `active` or `disabled`.
 */
import * as v from "valibot";
import { arg, issue } from "../http/args";
import { idFormat, isNumeric, listToArray, positiveInt, wpString } from "../http/validators";
import { isUrl } from "../linked-posts/fields";
import { SUBSCRIBABLE } from "./events";

/** Longest `description`, in characters. */
export const MAX_DESCRIPTION = 1000;
/** `coalesce_seconds` bounds and default. */
export const COALESCE = { min: 1, max: 3600, default: 30 } as const;
/** The statuses a webhook can be set to. */
export const WEBHOOK_STATUSES = ["active", "disabled"] as const;

/** An absolute http(s) URL with a host, at most 2,048 characters. */
const webhookUrl = v.pipe(
  wpString,
  v.check((x) => isUrl(x), issue("webhook_url")),
);

/**
 * `events`: a list (or comma string) of subscribable types; `*` = every per-object type. Kept in
 * the order given, without repeats.
 */
const eventList = v.pipe(
  v.unknown(),
  v.transform(listToArray),
  v.check(
    (list) =>
      list.length > 0 &&
      list.length <= SUBSCRIBABLE.size &&
      list.every((x) => typeof x === "string" && SUBSCRIBABLE.has(x)),
    issue("webhook_events"),
  ),
  v.transform((list) => [...new Set(list as string[])]),
);

const coalesceSeconds = v.pipe(
  v.unknown(),
  v.check(
    (x) =>
      isNumeric(x) &&
      Number.isInteger(Number(x)) &&
      Number(x) >= COALESCE.min &&
      Number(x) <= COALESCE.max,
    issue("out_of_range", String(COALESCE.min), String(COALESCE.max)),
  ),
  v.transform((x) => Number(x)),
);

const description = v.pipe(
  wpString,
  v.check((x) => x.length <= MAX_DESCRIPTION, issue("too_long", String(MAX_DESCRIPTION))),
);

const status = v.pipe(
  v.unknown(),
  v.check(
    (x) => typeof x === "string" && (WEBHOOK_STATUSES as readonly string[]).includes(x),
    issue("not_in_enum", WEBHOOK_STATUSES.join(", ")),
  ),
  v.transform((x) => x as (typeof WEBHOOK_STATUSES)[number]),
);

/** Path `id` of `/webhooks/{id}`. */
const ID = arg({ schema: idFormat, type: "integer", in: "path", description: "webhooks.id" });

const paging = (what: "webhooks" | "deliveries") => ({
  page: arg({ schema: positiveInt, default: 1, type: "integer", description: `${what}.page` }),
  per_page: arg({
    schema: positiveInt,
    default: (c) => c.perPageDefault,
    type: "integer",
    description: `${what}.per_page`,
  }),
});

/** `GET /webhooks`. */
export const LIST_ARGS = paging("webhooks");

/** `POST /webhooks`. */
export const CREATE_ARGS = {
  url: arg({ schema: webhookUrl, required: true, type: "string", description: "webhooks.url" }),
  events: arg({
    schema: eventList,
    required: true,
    type: "array",
    items: { type: "string" },
    maxItems: SUBSCRIBABLE.size,
    description: "webhooks.events",
  }),
  description: arg({ schema: description, type: "string", description: "webhooks.description" }),
  coalesce_seconds: arg({
    schema: coalesceSeconds,
    default: COALESCE.default,
    type: "integer",
    description: "webhooks.coalesce_seconds",
  }),
};

/** `GET`, `DELETE /webhooks/{id}`, `POST /webhooks/{id}/ping`. */
export const SINGLE_ARGS = { id: ID };

/** `PATCH /webhooks/{id}` (also `POST`, `PUT`): only what is sent changes. */
export const UPDATE_ARGS = {
  id: ID,
  url: arg({ schema: webhookUrl, type: "string", description: "webhooks.url" }),
  events: { ...CREATE_ARGS.events, required: false },
  description: CREATE_ARGS.description,
  coalesce_seconds: { ...CREATE_ARGS.coalesce_seconds, default: undefined },
  status: arg({ schema: status, type: "string", description: "webhooks.status" }),
};

/** `GET /webhooks/{id}/deliveries`. */
export const DELIVERIES_ARGS = { id: ID, ...paging("deliveries") };
