/**
 * The validators of the `wp/v2` user and application-password fields (contract §3), as WordPress
 * checks them in `WP_REST_Users_Controller` and `WP_REST_Application_Passwords_Controller`; the
 * fields' arguments are declared in their contracts (src/users/serialize.ts). Issue messages are
 * `params.*` keys (src/http/args.ts `issue`).
 */
import * as v from "valibot";
import { ROLES, type Role } from "../access/roles";
import { issue } from "../http/args";
import { listToArray, wpString } from "../http/validators";
import { isRole, isValidEmail, isValidUsername, plainText, sanitizeUserSlug } from "./fields";

const INVALID = issue("invalid");
const isString = (x: unknown): x is string => typeof x === "string";

/** `username`: a valid WordPress login (`validate_username`). */
export const username = v.pipe(wpString, v.check(isValidUsername, INVALID));

/** `email`: WordPress `is_email`. */
export const email = v.pipe(wpString, v.check(isValidEmail, INVALID));

/** `password` (login password): non-empty, no backslash (WordPress `check_user_password`), sane length. */
export const password = v.pipe(
  wpString,
  v.check((x) => x !== "" && !x.includes("\\") && x.length <= 4096, INVALID),
);

/** `name` (display name): plain text, at most 250 characters. */
export const displayName = v.pipe(
  wpString,
  v.transform(plainText),
  v.check((x) => x.length <= 250, INVALID),
);

/** `slug` (`user_nicename`): sanitized like a post slug; must leave something. */
export const slug = v.pipe(
  wpString,
  v.transform(sanitizeUserSlug),
  v.check((x) => x !== "", INVALID),
);

/**
 * `roles`: an array or comma list naming one of the five roles (users here have exactly one); an
 * empty list means "not given".
 */
export const roles = v.pipe(
  v.unknown(),
  v.transform((x) => [...new Set(listToArray(x))]),
  v.check((list) => list.every(isRole), issue("not_in_enum", ROLES.join(", "))),
  v.check((list) => list.length <= 1, INVALID),
  v.transform((list) => list[0] as Role | undefined),
);

/** An application password's `name`: more than white space, at most 200 characters. */
export const applicationName = v.pipe(
  wpString,
  v.check((x) => /\S/.test(x) && x.length <= 200, INVALID),
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An application password's `app_id`: a UUID, lower-cased. */
export const appId = v.pipe(
  v.unknown(),
  v.check((x) => isString(x) && UUID.test(x), INVALID),
  v.transform((x) => (x as string).toLowerCase()),
);
