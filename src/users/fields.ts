/**
 * The rules a user record obeys (contract §3), as WordPress applies them in `wp_insert_user`,
 * `validate_username` and `is_email`. Pure functions, shared by the `wp/v2/users` routes and by
 * `scripts/create-user.ts`, so a user created either way passes the same checks.
 */
import { ROLES, type Role } from "../access/roles";
import { sanitizeTitle } from "../text/html";

/** WordPress's `user_login` column holds 60 characters. */
export const USERNAME_MAX = 60;
/** WordPress's `user_email` column holds 100 characters. */
export const EMAIL_MAX = 100;
/** WordPress's `user_nicename` column holds 50 characters. */
export const SLUG_MAX = 50;

/**
 * WordPress `validate_username` (strict `sanitize_user`): letters, digits, space, `_ . - @`, no
 * leading, trailing or doubled spaces, at most 60 characters.
 * @example isValidUsername("jane.doe") // true; isValidUsername("jäne") // false
 */
export function isValidUsername(value: string): boolean {
  return value.length <= USERNAME_MAX && /^[A-Za-z0-9_.@-]+(?: [A-Za-z0-9_.@-]+)*$/.test(value);
}

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/**
 * WordPress `is_email`: `local@domain` with at least one dot in the domain, no empty or
 * hyphen-edged labels, at most 100 characters.
 * @example isValidEmail("jane@example.com") // true; isValidEmail("jane@localhost") // false
 */
export function isValidEmail(value: string): boolean {
  if (value.length < 6 || value.length > EMAIL_MAX) return false;
  const at = value.lastIndexOf("@");
  if (at < 1) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split(".");
  return (
    LOCAL_PART.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label))
  );
}

/** Whether a string names one of the five roles of tec-reference §9.2. */
export const isRole = (value: unknown): value is Role =>
  typeof value === "string" && (ROLES as readonly string[]).includes(value);

/** WordPress `sanitize_title` cut to the 50 characters of `user_nicename`; `""` when nothing is left. */
export function sanitizeUserSlug(value: string): string {
  return sanitizeTitle(value).slice(0, SLUG_MAX).replace(/-+$/, "");
}

/**
 * WordPress `user_nicename` from a requested slug or the username; `user` when neither leaves
 * anything usable.
 * @example userSlugBase(undefined, "Jane.Doe") // "jane-doe"
 */
export function userSlugBase(requested: string | undefined, username: string): string {
  return sanitizeUserSlug(requested ?? "") || sanitizeUserSlug(username) || "user";
}

/** WordPress `sanitize_text_field` in its essentials: tags removed, whitespace collapsed, trimmed. */
export function plainText(value: string): string {
  return value
    .replace(/<[^>]*>/g, "")
    .replace(/[\r\n\t ]+/g, " ")
    .trim();
}
