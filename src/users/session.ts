/**
 * Browser sessions (contract §3.1), as WordPress's `wp_set_auth_cookie` and `WP_Session_Tokens`
 * keep them: the `wordpress_logged_in` cookie carries a random token (32 bytes from Web Crypto,
 * base64url); D1 keeps only its SHA-256 digest, the user and the expiry (`sessions`). A session
 * lasts 2 days, or 14 with "remember me" (`rememberme=forever`), as WordPress's auth cookies do.
 */
import { and, eq, lt, ne } from "drizzle-orm";
import type { AuthUser } from "../access/capabilities";
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { sessions, users } from "../db/schema";
import { sha256Hex } from "../http/crypto";

/** The cookie's name, as WordPress's logged-in cookie (without WordPress's per-site hash suffix). */
export const SESSION_COOKIE = "wordpress_logged_in";

const DAY_MS = 86_400_000;
/** Lifetimes in milliseconds: WordPress's `auth_cookie_expiration` without and with "remember me". */
export const SESSION_MS = { short: 2 * DAY_MS, remembered: 14 * DAY_MS } as const;

/** A token as `newToken` makes them: 43 base64url characters (256 bits). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new random session token (base64url of 32 bytes from `crypto.getRandomValues`). */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * The session token of a `Cookie` header, or null when it names none of the form `newToken` makes
 * (garbage and oversized values are no token: nothing is looked up for them).
 * @example sessionToken("a=1; wordpress_logged_in=abc…") // "abc…" when well-formed
 */
export function sessionToken(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (TOKEN.test(value)) return value;
  }
  return null;
}

/** Hex SHA-256 of a token: the session's key in D1. */
export const tokenDigest = (token: string): Promise<string> => sha256Hex(token);

/**
 * Starts a session for `userId`: one batch inserts it and drops that user's expired ones.
 * @param nowMs the request's clock (Unix ms). @returns the token for the cookie and its expiry (ms).
 */
export async function startSession(
  db: Db,
  userId: number,
  nowMs: number,
  remember: boolean,
): Promise<{ token: string; expiresMs: number }> {
  const token = newToken();
  const expiresMs = nowMs + (remember ? SESSION_MS.remembered : SESSION_MS.short);
  await runBatch(db, {
    expired: db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), lt(sessions.expiresMs, nowMs))),
    started: db
      .insert(sessions)
      .values({ digest: await tokenDigest(token), userId, createdMs: nowMs, expiresMs }),
  });
  return { token, expiresMs };
}

/**
 * The user of a live session (not expired, user not deleted), or null.
 * @param digest `tokenDigest` of the cookie's token.
 */
export async function sessionUser(db: Db, digest: string, nowMs: number): Promise<AuthUser | null> {
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      role: users.role,
      expiresMs: sessions.expiresMs,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.digest, digest))
    .limit(1);
  const row = rows[0];
  if (!row || row.expiresMs <= nowMs) return null;
  return { id: row.id, username: row.username, role: row.role };
}

/** Ends the session of `digest` (signing out). */
export async function endSession(db: Db, digest: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.digest, digest));
}

/**
 * The statement that ends every session of a user but `keep` (the session that made the change, if
 * any), for the batch that changes the user's password (WordPress destroys the other sessions).
 */
export const endSessionsOf = (db: Db, userId: number, keep?: string) =>
  db
    .delete(sessions)
    .where(
      keep === undefined
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.digest, keep)),
    );

/** Whether a host name is this machine's (`npm start`): no `Secure` cookie, plain-HTTP redirects allowed. */
export const isLocalHost = (hostname: string) =>
  hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";

/**
 * The `Set-Cookie` value of a session: `HttpOnly`, `SameSite=Strict`, `Path=/`, `Secure` unless the
 * site is served from localhost; without `expiresMs` a cookie that ends the session in the browser.
 * @param hostname the request URL's hostname.
 */
export function sessionCookie(hostname: string, token: string, expiresMs?: number): string {
  const parts = [`${SESSION_COOKIE}=${token}`, "Path=/", "HttpOnly", "SameSite=Strict"];
  if (expiresMs !== undefined) parts.push(`Expires=${new Date(expiresMs).toUTCString()}`);
  if (!isLocalHost(hostname)) parts.push("Secure");
  return parts.join("; ");
}

/** The `Set-Cookie` value that removes the session cookie (sign-out). */
export function expiredCookie(hostname: string): string {
  return `${sessionCookie(hostname, "", 0)}; Max-Age=0`;
}
