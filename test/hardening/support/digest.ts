/**
 * A content digest of the whole database: every row of every table (FTS shadow tables, the id
 * sequences and `content_version` included), hashed. Reads must leave it unchanged; so must every
 * refused write. Only the tables D1 itself keeps out of reach (`_cf_*`) are skipped, and the tables
 * a caller names in `except`.
 */
import { env } from "cloudflare:workers";
import { sha256Hex } from "../../../src/http/crypto";

/** Names of the tables the digest covers. */
export async function digestTables(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name",
  ).all<{ name: string }>();
  return results.map((r) => r.name);
}

/** Hash of every row of every table, independent of physical row order (two D1 round trips). */
export async function contentDigest(except: string[] = []): Promise<string> {
  const tables = (await digestTables()).filter((name) => !except.includes(name));
  const all = await env.DB.batch(
    tables.map((name) => env.DB.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`)),
  );
  const parts: string[] = [];
  for (const [i, name] of tables.entries()) {
    const rows = all[i].results.map((r) => JSON.stringify(r)).sort();
    parts.push(`${name}:${rows.length}:${await sha256Hex(rows.join("\n"))}`);
  }
  return sha256Hex(parts.join("\n"));
}

/** The content version every write bumps (cheap per-batch check). */
export async function contentVersion(): Promise<number> {
  const row = await env.DB.prepare("SELECT version FROM content_version WHERE id = 1").first<{
    version: number;
  }>();
  return row!.version;
}
