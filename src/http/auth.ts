/**
 * Authentication (contract §3, tec-reference §9.1): WordPress application passwords sent as
 * `Authorization: Basic base64(username:password)` or `Authorization: Bearer <password>`; spaces in
 * the password are ignored. The administrator `admin` (id 1) authenticates with the
 * `ADMIN_APP_PASSWORD` secret. Lookups go by digest only; no secret is ever compared in clear.
 */
import { eq } from "drizzle-orm";
import type { AuthUser } from "../access/capabilities";
import type { Db } from "../db/client";
import { applicationPasswords, users } from "../db/schema";
import type { AppContext } from "./context";
import { sha256Hex, timingSafeEqual } from "./crypto";
import { ApiError } from "./errors";
import { assertNotBlocked, clientKey, recordFailure } from "./rate-limit";

/** Credentials found in a request, before they are checked. */
export interface Credentials {
  /** Absent for Bearer tokens. */
  username?: string;
  password: string;
}

/** Reads Basic or Bearer credentials; null when the request sends none (or another scheme). */
export function readCredentials(header: string | null | undefined): Credentials | null {
  if (!header) return null;
  const [scheme, ...rest] = header.trim().split(/\s+/);
  const value = rest.join(" ");
  if (/^basic$/i.test(scheme ?? "")) {
    let decoded: string;
    try {
      decoded = new TextDecoder().decode(Uint8Array.from(atob(value), (ch) => ch.charCodeAt(0)));
    } catch {
      return { username: "", password: "" };
    }
    const colon = decoded.indexOf(":");
    if (colon < 0) return { username: decoded, password: "" };
    return {
      username: decoded.slice(0, colon),
      password: decoded.slice(colon + 1).replace(/\s+/g, ""),
    };
  }
  if (/^bearer$/i.test(scheme ?? "")) return { password: value.replace(/\s+/g, "") };
  return null;
}

const incorrect = () => new ApiError(401, "incorrect_password");

/**
 * Resolves credentials to a user.
 * @param adminPassword the `ADMIN_APP_PASSWORD` secret, spaces removed (`""` = not set).
 * @throws ApiError 401 `incorrect_password`, the same for an unknown user and a wrong password.
 */
export async function authenticate(
  db: Db,
  credentials: Credentials,
  adminPassword: string,
): Promise<AuthUser> {
  if (credentials.password === "" || credentials.password.length > 256) throw incorrect();
  const digest = await sha256Hex(credentials.password);
  const name = credentials.username?.toLowerCase();
  if (adminPassword !== "" && timingSafeEqual(digest, await sha256Hex(adminPassword))) {
    if (name === undefined || name === "admin")
      return { id: 1, username: "admin", role: "administrator" };
  }
  const rows = await db
    .select({ id: users.id, username: users.username, email: users.email, role: users.role })
    .from(applicationPasswords)
    .innerJoin(users, eq(users.id, applicationPasswords.userId))
    .where(eq(applicationPasswords.passwordDigest, digest))
    .limit(1);
  const user = rows[0];
  if (!user) throw incorrect();
  if (
    name !== undefined &&
    name !== user.username.toLowerCase() &&
    name !== user.email.toLowerCase()
  )
    throw incorrect();
  return { id: user.id, username: user.username, role: user.role };
}

/**
 * `authenticate` behind the per-IP limit of failed attempts (contract §3).
 * @throws ApiError 429 `too_many_requests` while the client is blocked; 401 `incorrect_password`.
 */
export async function authenticateLimited(
  c: AppContext,
  credentials: Credentials,
): Promise<AuthUser> {
  const client = clientKey(c.req.raw.headers);
  assertNotBlocked(client);
  try {
    return await authenticate(c.get("rdb").db, credentials, c.get("settings").adminAppPassword);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      const blocked = await recordFailure(c.env.AUTH_FAILURES, client);
      if (blocked) throw blocked;
    }
    throw err;
  }
}

/**
 * Whether a path is a REST API path (`/{REST_PREFIX}/…`, also under a language prefix): the paths
 * where a session cookie with a nonce authenticates (contract §3.1), as WordPress's
 * `rest_cookie_check_errors` applies to REST requests only.
 * @param restPrefix `REST_PREFIX` (`wp-json`); `languages` the site's language prefixes.
 */
export function isRestPath(
  pathname: string,
  restPrefix: string,
  languages: readonly string[],
): boolean {
  const [, first = "", second = ""] = pathname.split("/");
  return first === restPrefix || (languages.includes(first) && second === restPrefix);
}

/**
 * Whether a request names a REST nonce (`X-WP-Nonce`, or `_wpnonce` in `query` as the read cache
 * parsed it): such a request may be a signed-in browser's (contract §3.1), so no cache answers it.
 */
export const sendsNonce = (headers: Headers, query: Record<string, unknown>): boolean =>
  headers.has("x-wp-nonce") || Object.hasOwn(query, "_wpnonce");
