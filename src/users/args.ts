/**
 * Arguments of the `wp/v2` user and application-password routes (contract §3), as WordPress
 * declares them in `WP_REST_Users_Controller` and `WP_REST_Application_Passwords_Controller`: the
 * create arguments are those of the fields' contracts (src/users/serialize.ts), updates take them
 * unrequired; the same specs validate requests and document the routes.
 */
import { arg, optionalArg, unrequired } from "../http/args";
import { pageArgs, searchArg } from "../http/list-args";
import { idFormat, wpBoolean, wpInteger, wpString } from "../http/validators";
import { APPLICATION_PASSWORD_CREATE_ARGS, USER_CREATE_ARGS } from "./serialize";

/** WordPress's largest `per_page` for users. */
export const USERS_PER_PAGE_MAX = 100;

/** `GET /users`. */
export const LIST_ARGS = {
  ...pageArgs("users", { perPage: 10, max: USERS_PER_PAGE_MAX }),
  ...searchArg("users", wpString),
};

/** Path `id` of `/users/{id}` (the route admits digits only). */
const ID = arg({ schema: idFormat, type: "integer", in: "path", description: "users.id" });

/** `GET /users/{id}`. */
export const SINGLE_ARGS = { id: ID };

/** `POST /users` (the user's contract). */
export const CREATE_ARGS = USER_CREATE_ARGS;

const EDITS = unrequired(CREATE_ARGS);

/** `POST|PUT|PATCH /users/{id}` and `/users/me`: every field optional; only those sent change. */
export const UPDATE_ARGS = {
  // Absent on `/users/me`.
  id: optionalArg(ID),
  ...EDITS,
  // Any string: the handler refuses another username (usernames never change).
  username: { ...EDITS.username, schema: wpString },
};

/** `DELETE /users/{id}`: WordPress requires `reassign`; `force` must be true (users have no trash). */
export const DELETE_ARGS = {
  id: ID,
  force: arg({ schema: wpBoolean, default: false, type: "boolean", description: "users.force" }),
  reassign: arg({
    schema: wpInteger,
    required: true,
    type: "integer",
    description: "users.reassign",
  }),
};

/** `POST /users/{id}/application-passwords` (the application password's contract). */
export const APP_PASSWORD_CREATE_ARGS = APPLICATION_PASSWORD_CREATE_ARGS;
