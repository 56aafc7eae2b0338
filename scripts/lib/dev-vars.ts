/**
 * `.dev.vars` (local secrets and setting overrides for `wrangler dev`, git-ignored): makes sure it
 * holds an `ADMIN_APP_PASSWORD`, the application password of user 1, `admin` (contract §3), an
 * `IMAGE_URL_CHECK` (`off` locally, so that offline development and imports work), and
 * what webhooks need locally: a `WEBHOOK_SECRET_KEY` and `WEBHOOK_PRIVATE_TARGETS=allow`,
 * so that a receiver on this machine can be registered.
 */

import { randomBytes, randomInt } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { readDevVars } from "./config";
import { PATHS } from "./paths";

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A uniformly random password of `length` letters and digits (node:crypto, no modulo bias). */
export function randomAppPassword(length = 24): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/**
 * Returns `name` from `.dev.vars`, first adding `make()` (file mode 0600) when the file or the key
 * is missing or empty. Other lines of the file are kept as they are; a value set by hand wins.
 * @returns `created` is true when this call wrote the value.
 */
export function ensureDevVar(
  name: string,
  make: () => string,
  file: string = PATHS.devVars,
): { value: string; created: boolean } {
  const existing = readDevVars(file)[name]?.trim();
  if (existing) return { value: existing, created: false };
  const value = make();
  const line = `${name}=${value}\n`;
  if (!existsSync(file)) {
    writeFileSync(
      file,
      `# Local secrets for wrangler dev (git-ignored). Written by npm start.\n${line}`,
      { mode: 0o600 },
    );
  } else {
    // An empty `NAME=` line would win over an appended one in some parsers: drop it.
    const kept = readFileSync(file, "utf8")
      .split(/\r?\n/)
      .filter((l) => !new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=`).test(l))
      .join("\n");
    writeFileSync(file, kept.replace(/\n*$/, kept.trim() ? "\n" : ""));
    appendFileSync(file, line);
  }
  return { value, created: true };
}

/**
 * Returns the admin password from `.dev.vars`, first adding a random one when missing.
 * @returns `created` is true when this call wrote the password.
 */
export function ensureAdminPassword(file: string = PATHS.devVars): {
  password: string;
  created: boolean;
} {
  const { value, created } = ensureDevVar("ADMIN_APP_PASSWORD", () => randomAppPassword(), file);
  return { password: value.replace(/\s+/g, ""), created };
}

/**
 * Makes sure webhooks work locally: a random `WEBHOOK_SECRET_KEY` (encrypts their signing secrets)
 * and `WEBHOOK_PRIVATE_TARGETS=allow` (receivers on 127.0.0.1), unless set otherwise by hand.
 * @returns the names this call added.
 */
export function ensureWebhookVars(file: string = PATHS.devVars): string[] {
  const added: string[] = [];
  if (ensureDevVar("WEBHOOK_SECRET_KEY", () => randomBytes(32).toString("base64"), file).created)
    added.push("WEBHOOK_SECRET_KEY");
  if (ensureDevVar("WEBHOOK_PRIVATE_TARGETS", () => "allow", file).created)
    added.push("WEBHOOK_PRIVATE_TARGETS");
  return added;
}

/**
 * Returns the local `IMAGE_URL_CHECK`, first adding `IMAGE_URL_CHECK=off` when `.dev.vars` has none:
 * a local `wrangler dev` often has no internet, where the production check (`head`, an HTTP HEAD
 * per new image URL) would refuse every image URL of an import. Set it to `head` in `.dev.vars` to
 * check image URLs as production does. Call after `ensureAdminPassword` (the file exists then).
 * @returns `created` is true when this call wrote the setting.
 */
export function ensureImageUrlCheck(file: string = PATHS.devVars): {
  value: string;
  created: boolean;
} {
  const existing = readDevVars(file).IMAGE_URL_CHECK?.trim();
  if (existing) return { value: existing, created: false };
  const kept = existsSync(file) ? readFileSync(file, "utf8") : "";
  writeFileSync(
    file,
    `${kept.replace(/\n*$/, kept.trim() ? "\n" : "")}# Image URLs: by file extension only (offline); "head" checks them with HTTP HEAD as in production.\nIMAGE_URL_CHECK=off\n`,
    { mode: 0o600 },
  );
  return { value: "off", created: true };
}
