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
import { passwordDigest, sha256Hex, timingSafeEqual } from "../http/crypto";

/** Longest `log` or `pwd` looked at; longer ones fail as wrong (no PBKDF2 over megabytes). */
export const MAX_CREDENTIAL_CHARS = 256;

const hexBytes = (hex: string) =>
  Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));

/**
 * Whether `password` matches a digest `passwordDigest` made (`pbkdf2$<iterations>$<salt>$<hash>`).
 * A digest of another form (an empty one: users that have only application passwords) matches
 * nothing, after the same work.
 */
export async function verifyPasswordDigest(password: string, digest: string): Promise<boolean> {
  const [scheme, rounds, salt, hash] = digest.split("$");
  const iterations = Number(rounds);
  const wellFormed =
    scheme === "pbkdf2" &&
    Number.isSafeInteger(iterations) &&
    iterations > 0 &&
    iterations <= 100_000 &&
    /^[0-9a-f]{32}$/.test(salt ?? "") &&
    /^[0-9a-f]{64}$/.test(hash ?? "");
  if (!wellFormed) {
    await passwordDigest(password);
    return false;
  }
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: hexBytes(salt!), iterations },
    key,
    256,
  );
  const hex = [...new Uint8Array(bits)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return timingSafeEqual(hex, hash!);
}

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
