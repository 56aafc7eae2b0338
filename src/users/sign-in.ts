/**
 * Who a sign-in form names (contract §3.1, WordPress's `wp_authenticate`): `log` is a username or
 * e-mail address (case-insensitive), `pwd` one of
 * - the user's login password (the PBKDF2 digest `POST /users` keeps, src/http/crypto.ts),
 * - for `admin`, the `ADMIN_APP_PASSWORD` secret,
 * - an application password of the user (spaces ignored, as in REST authentication).
 * One D1 round trip; every failure looks the same to the caller, and an unknown user costs the same
 * PBKDF2 work as a wrong password, so that neither the answer nor its time tells which it was.
 */
import { eq, sql } from "drizzle-orm";
import type { AuthUser } from "../access/capabilities";
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { applicationPasswords, users } from "../db/schema";
import { sha256Hex, timingSafeEqual, verifyPasswordDigest } from "../http/crypto";

/** Longest `log` or `pwd` looked at; longer ones fail as wrong (no PBKDF2 over megabytes). */
export const MAX_CREDENTIAL_CHARS = 256;

/**
 * The user `log` and `pwd` name, or null.
 * @param adminPassword the `ADMIN_APP_PASSWORD` secret, spaces removed (`""` = not set).
 */
export async function signInUser(
  db: Db,
  log: string,
  pwd: string,
  adminPassword: string,
): Promise<AuthUser | null> {
  if (log.length > MAX_CREDENTIAL_CHARS || pwd.length > MAX_CREDENTIAL_CHARS) return null;
  const name = log.trim().toLowerCase();
  const appDigest = await sha256Hex(pwd.replace(/\s+/g, ""));
  const { byLogin, byApp } = await runBatch(db, {
    byLogin: db
      .select({
        id: users.id,
        username: users.username,
        role: users.role,
        digest: users.passwordDigest,
      })
      .from(users)
      .where(sql`lower(${users.username}) = ${name} OR lower(${users.email}) = ${name}`)
      .limit(1),
    byApp: db
      .select({ id: users.id, username: users.username, email: users.email, role: users.role })
      .from(applicationPasswords)
      .innerJoin(users, eq(users.id, applicationPasswords.userId))
      .where(eq(applicationPasswords.passwordDigest, appDigest))
      .limit(1),
  });
  const login = byLogin[0];
  // The login password (always computed: the time does not tell whether the user exists).
  const loginMatches = await verifyPasswordDigest(pwd, login?.digest ?? "");
  if (login && loginMatches) return { id: login.id, username: login.username, role: login.role };
  if (
    name === "admin" &&
    adminPassword !== "" &&
    timingSafeEqual(appDigest, await sha256Hex(adminPassword))
  )
    return { id: 1, username: "admin", role: "administrator" };
  const app = byApp[0];
  if (app && (app.username.toLowerCase() === name || app.email.toLowerCase() === name))
    return { id: app.id, username: app.username, role: app.role };
  return null;
}
