/**
 * Digests through Web Crypto. Secrets (application passwords, post passwords) are stored and compared
 * only as SHA-256 digests (contract §3).
 */

/** Hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const encoder = new TextEncoder();

/** Workers' extension of Web Crypto (not in the DOM's or Node's `SubtleCrypto` types). */
const subtle = crypto.subtle as SubtleCrypto & {
  timingSafeEqual(a: ArrayBufferView, b: ArrayBufferView): boolean;
};

/**
 * Whether two strings (digests) are equal, compared in constant time for equal lengths (Web Crypto's
 * `crypto.subtle.timingSafeEqual` in Workers).
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  return x.byteLength === y.byteLength && subtle.timingSafeEqual(x, y);
}

/** Random password in WordPress's application-password alphabet, 24 characters. */
export function randomPassword(length = 24): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  // 62 does not divide 256: bytes of 248 and above are rejected so every character is equally likely.
  let out = "";
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 248 && out.length < length) out += alphabet[b % 62];
    }
  }
  return out;
}

/** Groups of four characters separated by spaces, as WordPress shows new application passwords. */
export function chunkPassword(password: string): string {
  return password.match(/.{1,4}/g)?.join(" ") ?? password;
}

/** Hex of bytes. */
const hexOf = (u: Uint8Array) => [...u].map((b) => b.toString(16).padStart(2, "0")).join("");

/** PBKDF2-SHA-256 of `password` (256 bits, hex). */
async function pbkdf2Hex(password: string, salt: Uint8Array, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    256,
  );
  return hexOf(new Uint8Array(bits));
}

/** Most PBKDF2 iterations a stored digest may ask for (what `passwordDigest` writes). */
const MAX_ITERATIONS = 100_000;

/**
 * PBKDF2-SHA-256 digest for login passwords (never used to authenticate REST requests; the browser
 * sign-in of contract §3.1 checks it with `verifyPasswordDigest`). Format
 * `pbkdf2$<iterations>$<salt hex>$<hash hex>`.
 */
export async function passwordDigest(
  password: string,
  iterations = MAX_ITERATIONS,
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `pbkdf2$${iterations}$${hexOf(salt)}$${await pbkdf2Hex(password, salt, iterations)}`;
}

/**
 * Whether `password` matches a digest `passwordDigest` made. A digest of another form (an empty
 * one: users that have only application passwords) matches nothing, after the same work, so the
 * time does not tell whether the user has a login password.
 */
export async function verifyPasswordDigest(password: string, digest: string): Promise<boolean> {
  const [scheme, rounds, salt, hash] = digest.split("$");
  const iterations = Number(rounds);
  const wellFormed =
    scheme === "pbkdf2" &&
    Number.isSafeInteger(iterations) &&
    iterations > 0 &&
    iterations <= MAX_ITERATIONS &&
    /^[0-9a-f]{32}$/.test(salt ?? "") &&
    /^[0-9a-f]{64}$/.test(hash ?? "");
  if (!wellFormed) {
    await passwordDigest(password);
    return false;
  }
  const saltBytes = Uint8Array.from(salt!.match(/../g)!, (h) => Number.parseInt(h, 16));
  return timingSafeEqual(await pbkdf2Hex(password, saltBytes, iterations), hash!);
}
