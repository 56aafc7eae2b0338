/**
 * `wp/v2/users` routes (contract §3), relative to `/wp-json/wp/v2/users`. `me` stands for the
 * authenticated user wherever WordPress accepts it. Each path records its `Allow` header first.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/context";
import { allowUser, holder, selfOr } from "./access";
import {
  MANAGE_APP_PASSWORDS,
  createApplicationPassword,
  deleteApplicationPassword,
  getApplicationPassword,
  listApplicationPasswords,
} from "./application-passwords";
import { createUser } from "./create";
import { deleteUser } from "./delete";
import { getCurrentUser, getUser, listUsers } from "./read";
import { updateUser } from "./update";

const ID = ":id{[0-9]+}";
const UUID = ":uuid{[^/]+}";

/** The user and application-password routes, each path preceded by its `Allow` middleware. */
export function userRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>({ strict: false });
  const edit = selfOr("edit_users");
  const manage = MANAGE_APP_PASSWORDS;

  r.use("/", allowUser({ GET: holder("list_users"), POST: holder("create_users") }));
  r.get("/", listUsers);
  r.post("/", createUser);

  r.use("/me", allowUser({ GET: () => true, POST: edit, PUT: edit, PATCH: edit }));
  r.get("/me", getCurrentUser);
  r.on(["POST", "PUT", "PATCH"], "/me", updateUser);

  r.use(`/${ID}`, allowUser({ GET: selfOr("list_users"), POST: edit, PUT: edit, PATCH: edit, DELETE: holder("delete_users") }));
  r.get(`/${ID}`, getUser);
  r.on(["POST", "PUT", "PATCH"], `/${ID}`, updateUser);
  r.delete(`/${ID}`, deleteUser);

  for (const owner of ["me", ID]) {
    r.use(`/${owner}/application-passwords`, allowUser({ GET: manage, POST: manage }));
    r.get(`/${owner}/application-passwords`, listApplicationPasswords);
    r.post(`/${owner}/application-passwords`, createApplicationPassword);
    r.use(`/${owner}/application-passwords/${UUID}`, allowUser({ GET: manage, DELETE: manage }));
    r.get(`/${owner}/application-passwords/${UUID}`, getApplicationPassword);
    r.delete(`/${owner}/application-passwords/${UUID}`, deleteApplicationPassword);
  }
  return r;
}
