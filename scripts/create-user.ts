/**
 * Creates a user and prints a new application password for it, once (contract §3). This is how the
 * first administrator comes to be when `ADMIN_APP_PASSWORD` is not set, and how a lost application
 * password is replaced (`--existing`).
 *
 *   npx tsx scripts/create-user.ts --username NAME [--role ROLE] [--email E] [--name "Display Name"]
 *     [--app-name "CLI"] [--existing] [--remote]
 *
 * - `--role`: administrator, editor, author, contributor or subscriber (default subscriber).
 * - `--existing`: the user exists already; only add an application password to it (e.g. `admin`).
 * - `--remote`: write to the deployed D1 database instead of the local one in `.wrangler/`.
 *
 * Writes through `npx wrangler d1 execute DB --local|--remote --command "<SQL>"`, every value an
 * escaped SQL literal. Only the SHA-256 digest of the application password is stored (the user gets
 * no login password: it is never used to authenticate API calls). The user and the password go in
 * one command (neither is anything anonymous readers see, so cached answers stay).
 *
 * Exit codes: 0 done; 1 refused (username or email taken, no such user) or wrangler failed; 2 bad
 * arguments.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { uniqueSlug } from "../src/db/slugs";
import { chunkPassword, randomPassword, sha256Hex } from "../src/http/crypto";
import {
  isRole,
  isValidEmail,
  isValidUsername,
  plainText,
  userSlugBase,
} from "../src/users/fields";

const USAGE =
  "Usage: npx tsx scripts/create-user.ts --username NAME [--role administrator|editor|author|contributor|subscriber]\n" +
  '         [--email E] [--name "Display Name"] [--app-name "CLI"] [--existing] [--remote]';
const ROOT = path.resolve(import.meta.dirname, "..");

/** A refusal the user can act on: printed without a stack trace. */
class Refused extends Error {}

/** SQL string literal: quotes doubled; NUL refused (no SQL text can carry it). */
function literal(value: string): string {
  if (value.includes("\u0000")) throw new Refused("Values may not contain NUL characters.");
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * Runs SQL through wrangler and returns the rows of the last statement.
 * @throws Refused with wrangler's own explanation (and a hint for an unmigrated database).
 */
function execute(sql: string, remote: boolean): Array<Record<string, unknown>> {
  const args = [
    "wrangler",
    "d1",
    "execute",
    "DB",
    remote ? "--remote" : "--local",
    "--json",
    "--command",
    sql,
  ];
  const run = spawnSync("npx", args, {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  const output = `${run.stdout ?? ""}\n${run.stderr ?? ""}`;
  if (run.error || run.status !== 0) {
    const hint = /no such table/i.test(output)
      ? `\nApply the migrations first: npm run db:migrate:${remote ? "remote" : "local"}`
      : "";
    const reason = /UNIQUE constraint failed/i.test(output)
      ? "That username or slug was taken meanwhile; run the command again."
      : output.trim();
    throw new Refused(`wrangler d1 execute failed: ${run.error?.message ?? reason}${hint}`);
  }
  const parsed = JSON.parse(run.stdout) as Array<{ results?: Array<Record<string, unknown>> }>;
  return parsed.at(-1)?.results ?? [];
}

function options() {
  try {
    const { values } = parseArgs({
      options: {
        username: { type: "string" },
        role: { type: "string", default: "subscriber" },
        email: { type: "string", default: "" },
        name: { type: "string" },
        "app-name": { type: "string", default: "CLI" },
        existing: { type: "boolean", default: false },
        remote: { type: "boolean", default: false },
      },
      strict: true,
    });
    const username = values.username ?? "";
    if (!isValidUsername(username))
      throw new Error("--username must be 1–60 letters, digits, spaces or _ . - @");
    if (!isRole(values.role))
      throw new Error("--role must be administrator, editor, author, contributor or subscriber");
    if (values.email !== "" && !isValidEmail(values.email))
      throw new Error(`--email ${values.email} is not a valid email address`);
    const appName = plainText(values["app-name"]);
    if (appName === "") throw new Error("--app-name must not be empty");
    return {
      ...values,
      username,
      role: values.role,
      appName,
      name: plainText(values.name ?? "") || username,
    };
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const o = options();
  const slugBase = userSlugBase(undefined, o.username);
  const found = execute(
    `SELECT id, username, email, slug FROM users WHERE lower(username) = lower(${literal(o.username)})` +
      (o.email ? ` OR lower(email) = lower(${literal(o.email)})` : "") +
      ` OR slug = ${literal(slugBase)} OR (slug > ${literal(`${slugBase}-`)} AND slug < ${literal(`${slugBase}.`)})`,
    o.remote,
  ) as Array<{ id: number; username: string; email: string; slug: string }>;
  const same = found.find((u) => u.username.toLowerCase() === o.username.toLowerCase());

  const statements: string[] = [];
  if (o.existing) {
    if (!same) throw new Refused(`There is no user "${o.username}".`);
  } else {
    if (same)
      throw new Refused(
        `User "${same.username}" already exists (id ${same.id}). To give it a new application password, add --existing.`,
      );
    const owner = o.email
      ? found.find((u) => u.email.toLowerCase() === o.email.toLowerCase())
      : undefined;
    if (owner)
      throw new Refused(
        `The email address ${o.email} belongs to user "${owner.username}" (id ${owner.id}).`,
      );
    const slug = uniqueSlug(slugBase, new Set(found.map((u) => u.slug)));
    const registered = new Date().toISOString().slice(0, 19).replace("T", " ");
    statements.push(
      "INSERT INTO users (username, name, email, slug, role, password_digest, registered) VALUES " +
        `(${[o.username, o.name, o.email, slug, o.role, "", registered].map(literal).join(", ")});`,
    );
  }

  const password = randomPassword();
  const uuid = crypto.randomUUID();
  const created = new Date().toISOString().slice(0, 19).replace("T", " ");
  statements.push(
    "INSERT INTO application_passwords (uuid, user_id, app_id, name, password_digest, created) VALUES " +
      `(${literal(uuid)}, (SELECT id FROM users WHERE lower(username) = lower(${literal(o.username)})), '', ` +
      `${[o.appName, await sha256Hex(password), created].map(literal).join(", ")});`,
    `SELECT u.id, u.username, u.role FROM users u JOIN application_passwords p ON p.user_id = u.id WHERE p.uuid = ${literal(uuid)};`,
  );
  const [user] = execute(statements.join("\n"), o.remote) as Array<{
    id: number;
    username: string;
    role: string;
  }>;
  if (!user) throw new Refused("The application password was not stored; nothing was printed.");

  const where = o.remote ? "remote" : "local";
  console.log(
    `${o.existing ? "Existing" : "Created"} ${user.role} "${user.username}" (id ${user.id}) in the ${where} database.`,
  );
  console.log(
    `Application password "${o.appName}" (shown only this once):\n\n    ${chunkPassword(password)}\n`,
  );
  console.log(
    `Use it as: curl -u '${user.username}:${password}' http://127.0.0.1:8787/wp-json/wp/v2/users/me`,
  );
}

main().catch((err) => {
  console.error(err instanceof Refused ? err.message : err);
  process.exit(1);
});
