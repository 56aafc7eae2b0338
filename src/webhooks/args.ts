/**
 * Arguments of the webhook routes: the webhook's fields are written through the
 * arguments of its contract (src/webhooks/contract.ts, which says what each accepts); updates take
 * them unrequired, without the default, plus `status`.
 */
import { arg } from "../http/args";
import { pageArgs } from "../http/list-args";
import { idFormat } from "../http/validators";
import { CREATE_ARGS, WEBHOOK_FIELDS } from "./contract";

/** Path `id` of `/webhooks/{id}`. */
const ID = arg({ schema: idFormat, type: "integer", in: "path", description: "webhooks.id" });

/** `GET /webhooks`. */
export const LIST_ARGS = pageArgs("webhooks");

/** `POST /webhooks` (the webhook's contract). */
export { CREATE_ARGS };

/** `GET`, `DELETE /webhooks/{id}`, `POST /webhooks/{id}/ping`. */
export const SINGLE_ARGS = { id: ID };

/** `PATCH /webhooks/{id}` (also `POST`, `PUT`): only what is sent changes. */
export const UPDATE_ARGS = {
  id: ID,
  url: { ...CREATE_ARGS.url, required: false },
  events: { ...CREATE_ARGS.events, required: false },
  description: CREATE_ARGS.description,
  coalesce_seconds: { ...CREATE_ARGS.coalesce_seconds, default: undefined },
  status: WEBHOOK_FIELDS.status.arg,
};

/** `GET /webhooks/{id}/deliveries`. */
export const DELIVERIES_ARGS = { id: ID, ...pageArgs("deliveries") };
