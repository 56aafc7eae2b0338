/**
 * `wp/v2/users` routes (contract §3), relative to `/wp-json/wp/v2`. `me` stands for the
 * authenticated user wherever WordPress accepts it. Each handler is declared with the argument specs
 * it validates with and who may use it on the route's target (`Allow`); `OPTIONS` describes them.
 */
import type { RouteDef } from "../http/registry";
import { holder, selfOr, type UserRule } from "./access";
import {
  createApplicationPassword,
  deleteAllApplicationPasswords,
  deleteApplicationPassword,
  getApplicationPassword,
  listApplicationPasswords,
  MANAGE_APP_PASSWORDS,
} from "./application-passwords";
import {
  APP_PASSWORD_CREATE_ARGS,
  CREATE_ARGS,
  DELETE_ARGS,
  LIST_ARGS,
  SINGLE_ARGS,
  UPDATE_ARGS,
} from "./args";
import { createUser } from "./create";
import { deleteUser } from "./delete";
import { getCurrentUser, getUser, listUsers } from "./read";
import { updateUser } from "./update";

const anyone: UserRule = () => true;

/** The user and application-password routes. */
export function userRoutes(): Array<RouteDef<UserRule>> {
  const edit = selfOr("edit_users");
  const manage = MANAGE_APP_PASSWORDS;
  const passwords = (owner: string): Array<RouteDef<UserRule>> => [
    {
      path: `/users/${owner}/application-passwords`,
      endpoints: [
        { methods: ["GET"], args: {}, may: manage, handler: listApplicationPasswords },
        {
          methods: ["POST"],
          args: APP_PASSWORD_CREATE_ARGS,
          may: manage,
          handler: createApplicationPassword,
        },
        { methods: ["DELETE"], args: {}, may: manage, handler: deleteAllApplicationPasswords },
      ],
    },
    {
      path: `/users/${owner}/application-passwords/{uuid}`,
      endpoints: [
        { methods: ["GET"], args: {}, may: manage, handler: getApplicationPassword },
        { methods: ["DELETE"], args: {}, may: manage, handler: deleteApplicationPassword },
      ],
    },
  ];
  return [
    {
      path: "/users",
      endpoints: [
        { methods: ["GET"], args: LIST_ARGS, may: holder("list_users"), handler: listUsers },
        { methods: ["POST"], args: CREATE_ARGS, may: holder("create_users"), handler: createUser },
      ],
    },
    {
      path: "/users/me",
      endpoints: [
        { methods: ["GET"], args: {}, may: anyone, handler: getCurrentUser },
        { methods: ["POST", "PUT", "PATCH"], args: UPDATE_ARGS, may: edit, handler: updateUser },
      ],
    },
    {
      path: "/users/{id}",
      endpoints: [
        { methods: ["GET"], args: SINGLE_ARGS, may: selfOr("list_users"), handler: getUser },
        { methods: ["POST", "PUT", "PATCH"], args: UPDATE_ARGS, may: edit, handler: updateUser },
        {
          methods: ["DELETE"],
          args: DELETE_ARGS,
          may: holder("delete_users"),
          handler: deleteUser,
        },
      ],
    },
    ...passwords("me"),
    ...passwords("{id}"),
  ];
}
