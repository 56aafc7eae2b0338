/**
 * `POST /users` (contract §3, WordPress `WP_REST_Users_Controller::create_item` and `wp_insert_user`).
 */
import { sql } from "drizzle-orm";
import { can } from "../access/capabilities";
import { runBatch } from "../db/batch";
import { users } from "../db/schema";
import { slugTaken, uniqueSlug } from "../db/slugs";
import { withWriteRetry } from "../db/write";
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../http/context";
import { passwordDigest } from "../http/crypto";
import { ApiError, forbidden } from "../http/errors";
import { WP_FORMAT } from "../time/format";
import { CREATE_ARGS } from "./args";
import { userSlugBase } from "./fields";
import { serializeUser, USER_COLUMNS } from "./serialize";

/**
 * Handles `POST /users` (needs `create_users`): `username`, `email`, `password` required; `name`
 * (default: the username), `roles` (default `subscriber`), `slug` (default from the username; a
 * taken slug gets `-2`, `-3`, … as in WordPress). The login password is kept only as a PBKDF2
 * digest. Answers 201 with the user and `Location`.
 * @throws ApiError 400 `rest_missing_callback_param` / `rest_invalid_param`; 401/403 `rest_forbidden`;
 *   400 `existing_user_login` (username taken, case-insensitive); 400 `existing_user_email`.
 */
export async function createUser(c: AppContext): Promise<Response> {
  const { values: a } = parseArgs(CREATE_ARGS, await requestParams(c), argContext(c));
  const user = c.get("user");
  if (!can(user, "create_users")) throw forbidden(user !== null);

  const username = a.username;
  const email = a.email;
  const digest = await passwordDigest(a.password);
  const registered = requestNow(c).toUTC().toFormat(WP_FORMAT);
  const base = userSlugBase(a.slug, username);
  const { db } = c.get("rdb");

  const created = await withWriteRetry(async () => {
    const { clashes, slugs } = await runBatch(db, {
      clashes: db
        .select({ username: users.username, email: users.email })
        .from(users)
        .where(
          sql`lower(${users.username}) = ${username.toLowerCase()} OR lower(${users.email}) = ${email.toLowerCase()}`,
        ),
      slugs: db.select({ slug: users.slug }).from(users).where(slugTaken(users.slug, base)),
    });
    if (clashes.some((u) => u.username.toLowerCase() === username.toLowerCase()))
      throw new ApiError(400, "existing_user_login");
    if (clashes.some((u) => u.email.toLowerCase() === email.toLowerCase()))
      throw new ApiError(400, "existing_user_email");

    const { inserted } = await runBatch(db, {
      inserted: db
        .insert(users)
        .values({
          username,
          email,
          name: a.name || username,
          slug: uniqueSlug(base, new Set(slugs.map((s) => s.slug))),
          role: a.roles ?? "subscriber",
          passwordDigest: digest,
          registered,
        })
        .returning(USER_COLUMNS(users)),
    });
    return inserted[0];
  });

  c.header("Location", `${c.get("urls").wpRoot}users/${created.id}`);
  return c.json(serializeUser(created), 201);
}
