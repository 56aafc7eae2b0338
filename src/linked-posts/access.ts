/**
 * Who may see what of a venue or organizer (tec-reference §4.7; contract §4 row 18): a non-public
 * post is 403 `{kind}-not-accessible` to users who may not read it; a password never causes a 403,
 * it blanks the protected fields (names kept) unless the request's `password` matches or an editor of
 * the post asks with `context=edit`.
 */

import { sha256Hex, timingSafeEqual } from "../http/crypto";
import { ApiError } from "../http/errors";
import { blankProtected } from "../http/password-protection";
import { type AuthUser, canEditPost, canReadPost } from "../users/capabilities";
import type { LinkedKind } from "./kinds";
import type { LinkedRow } from "./load";

/**
 * Single GET rule (§4.7): published posts for everyone, others (trash included) for whoever may read
 * them (their author, editors).
 * @throws ApiError 403 `venue-not-accessible` / `organizer-not-accessible`.
 */
export function assertLinkedReadable(
  kind: LinkedKind,
  row: LinkedRow,
  user: AuthUser | null,
): void {
  if (row.status !== "publish" && !canReadPost(user, row))
    throw new ApiError(403, `${kind}-not-accessible`);
}

/** Decides, per post, whether its protected fields are shown. */
export type PasswordAccess = (row: LinkedRow) => boolean;

/**
 * The access test of §4.7 for one request, hashing the given password once (lists test it against
 * every post of the page).
 * @param password the `password` parameter as sent (anything but a non-empty string opens nothing).
 * @param context the `context` query parameter; only `edit` matters.
 */
export async function passwordAccess(
  password: unknown,
  context: unknown,
  user: AuthUser | null,
): Promise<PasswordAccess> {
  const digest = typeof password === "string" && password !== "" ? await sha256Hex(password) : "";
  return (row) =>
    row.passwordDigest === "" ||
    (digest !== "" && timingSafeEqual(digest, row.passwordDigest)) ||
    (context === "edit" && canEditPost(user, row));
}

/** The serialized post as this request may see it: whole, or blanked keeping its name (contract row 18). */
export function visibleBody<T extends Record<string, unknown>>(
  kind: LinkedKind,
  body: T,
  row: LinkedRow,
  access: PasswordAccess,
): T {
  return access(row) ? body : blankProtected(body, [kind]);
}
