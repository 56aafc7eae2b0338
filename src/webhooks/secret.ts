/**
 * Webhook signing secrets. A secret is `whsec_` + base64 of 32 random bytes (the
 * Standard Webhooks format the `standardwebhooks` library reads); it signs every delivery, so it
 * cannot be kept as a digest like application passwords. It is stored encrypted at rest with
 * AES-256-GCM (Web Crypto) under a key derived from the `WEBHOOK_SECRET_KEY` secret, and shown only
 * once, in the answer to the webhook's creation. Whoever reads the D1 database without that secret
 * cannot sign as the site; changing `WEBHOOK_SECRET_KEY` makes existing webhooks undeliverable (their
 * attempts fail and are logged): create them again.
 */

const PREFIX = "whsec_";
/** Version tag of the stored format: `v1.` + base64(12-byte IV ‖ ciphertext ‖ 16-byte tag). */
const FORMAT = "v1.";

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

const keys = new Map<string, Promise<CryptoKey>>();

/** The AES-GCM key for a `WEBHOOK_SECRET_KEY` value: SHA-256 of its UTF-8 bytes, once per isolate. */
function keyOf(secretKey: string): Promise<CryptoKey> {
  let key = keys.get(secretKey);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(secretKey))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    keys.set(secretKey, key);
  }
  return key;
}

/**
 * Encrypts a signing secret for storage.
 * @param secretKey the `WEBHOOK_SECRET_KEY` value (non-empty).
 * @example await encryptSecret("whsec_…", env.WEBHOOK_SECRET_KEY) // "v1.q2…"
 */
export async function encryptSecret(secret: string, secretKey: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await keyOf(secretKey),
    new TextEncoder().encode(secret),
  );
  const out = new Uint8Array(iv.length + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), iv.length);
  return FORMAT + toBase64(out);
}

/**
 * Decrypts a stored signing secret.
 * @throws Error when it was encrypted under another `WEBHOOK_SECRET_KEY` or is damaged.
 */
export async function decryptSecret(stored: string, secretKey: string): Promise<string> {
  if (!stored.startsWith(FORMAT)) throw new Error("unknown secret format");
  const bytes = fromBase64(stored.slice(FORMAT.length));
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, 12) },
    await keyOf(secretKey),
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
}
