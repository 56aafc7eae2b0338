/**
 * `.dev.vars` (local secrets and setting overrides for `wrangler dev`, git-ignored): makes sure it
 * holds an `ADMIN_APP_PASSWORD`, the application password of user 1, `admin` (contract §3), and an
 * `IMAGE_URL_CHECK` (issue 13: `off` locally, so that offline development and imports work).
 */

import { randomInt } from "node:crypto";
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
 * Returns the admin password from `.dev.vars`, first adding a random one (file mode 0600) when the
 * file or the key is missing or empty. Other lines of the file are kept as they are.
 * @returns `created` is true when this call wrote the password.
 */
export function ensureAdminPassword(file: string = PATHS.devVars): {
  password: string;
  created: boolean;
} {
  const existing = readDevVars(file).ADMIN_APP_PASSWORD?.replace(/\s+/g, "");
  if (existing) return { password: existing, created: false };
  const password = randomAppPassword();
  const line = `ADMIN_APP_PASSWORD=${password}\n`;
  if (!existsSync(file)) {
    writeFileSync(
      file,
      `# Local secrets for wrangler dev (git-ignored). Written by npm start.\n${line}`,
      { mode: 0o600 },
    );
  } else {
    // An empty `ADMIN_APP_PASSWORD=` line would win over an appended one in some parsers: drop it.
    const kept = readFileSync(file, "utf8")
      .split(/\r?\n/)
      .filter((l) => !/^\s*(?:export\s+)?ADMIN_APP_PASSWORD\s*=/.test(l))
      .join("\n");
    writeFileSync(file, kept.replace(/\n*$/, kept.trim() ? "\n" : ""));
    appendFileSync(file, line);
  }
  return { password, created: true };
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
