/**
 * Nonces as WordPress's `wp_create_nonce` / `wp_verify_nonce` make them (contract §3.1): bound to
 * one session and one action (`wp_rest` for the REST API, `log-out` for the sign-out link), valid
 * in the current 12-hour tick and the one before (12 to 24 hours), compared in constant time.
 *
 * WordPress hashes `tick|action|uid|session token` with the site's `NONCE_KEY`. Here the key is the
 * session's token itself (HMAC-SHA-256, Web Crypto): 256 random bits that only the browser holds (in
 * an `HttpOnly` cookie) and D1 keeps only as a digest, so a nonce can be neither guessed by a page
 * nor forged from a copy of the database, and no further secret has to be configured.
 */
import { timingSafeEqual } from "../http/crypto";

/** The actions nonces are made for. */
export type NonceAction = "wp_rest" | "log-out" | "authorize_application_password";

/** Half of WordPress's `nonce_life` (one day), in milliseconds: the length of a tick. */
export const TICK_MS = 43_200_000;

/** Hex characters of a nonce (WordPress: 10; 20 here, 80 bits, for the same opaque string). */
const LENGTH = 20;

const encoder = new TextEncoder();
/** HMAC keys by token (a session's requests reuse it; bounded). */
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(token: string): Promise<CryptoKey> {
  let key = keys.get(token);
  if (!key) {
    if (keys.size >= 1000) keys.clear();
    key = crypto.subtle.importKey(
      "raw",
      encoder.encode(token),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    keys.set(token, key);
  }
  return key;
}

/** WordPress's `wp_nonce_tick`: the number of the current 12-hour period since the epoch, rounded up. */
const tickOf = (nowMs: number) => Math.ceil(nowMs / TICK_MS);

async function nonceAt(token: string, action: NonceAction, tick: number): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await keyOf(token),
    encoder.encode(`${tick}|${action}`),
  );
  return [...new Uint8Array(mac)]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, LENGTH);
}

/**
 * A nonce for `action` in the session of `token`, at `nowMs` (Unix ms).
 * @example await createNonce(token, "wp_rest", Date.now()) // "3f1c…" (20 hex characters)
 */
export const createNonce = (token: string, action: NonceAction, nowMs: number): Promise<string> =>
  nonceAt(token, action, tickOf(nowMs));

/**
 * WordPress's `wp_verify_nonce`: 1 when `nonce` was made in the current tick, 2 in the previous
 * one, 0 when it is not a nonce of this session and action (or not a string at all).
 */
export async function verifyNonce(
  token: string,
  nonce: unknown,
  action: NonceAction,
  nowMs: number,
): Promise<0 | 1 | 2> {
  if (typeof nonce !== "string" || nonce.length !== LENGTH) return 0;
  const tick = tickOf(nowMs);
  if (timingSafeEqual(await nonceAt(token, action, tick), nonce)) return 1;
  if (timingSafeEqual(await nonceAt(token, action, tick - 1), nonce)) return 2;
  return 0;
}
