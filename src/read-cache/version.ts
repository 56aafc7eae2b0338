/**
 * The content version as this isolate knows it (docs: caching). The version is a number in D1
 * (`content_version`) that SQL triggers move inside every write's own transaction whenever something
 * anonymous readers can see changes (drizzle/0011_content_version_triggers.sql). Every cached
 * answer is keyed by the version its data was read at, so an answer can never stand for a later
 * version; what remains is how long an isolate trusts the version it read last:
 *
 * - `CONTENT_VERSION_TTL_MS` after a miss read it (in the same round trip as its data), hits and
 *   304s are answered with it, without D1;
 * - a write through this isolate forgets it, so the writer's next anonymous answer is fresh;
 * - a write elsewhere is seen at most `CONTENT_VERSION_TTL_MS` late.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { contentVersion } from "../db/schema";

/** The isolate's clock, in milliseconds (tests replace `now` to drive expiry without waiting). */
export const clock = { now: (): number => Date.now() };

let known: { version: number; readAt: number } | null = null;

/**
 * The remembered version if it was read less than `ttlMs` ago, else undefined.
 * @param now milliseconds (`clock.now()`).
 */
export function rememberedVersion(now: number, ttlMs: number): number | undefined {
  if (!known || now - known.readAt >= ttlMs) return undefined;
  return known.version;
}

/**
 * Remembers a version just read from D1. Versions only grow, so a read from a lagging replica
 * (smaller) never moves the remembered one backwards; it still counts as a fresh reading of it.
 */
export function learnVersion(version: number, now: number): void {
  if (!known || version >= known.version) known = { version, readAt: now };
}

/** Forgets the version: after a write through this isolate (and when tests reset storage). */
export function forgetVersion(): void {
  known = null;
}

/** Reads the content version on its own (one round trip), for answers whose route read no data in a batch. */
export async function readContentVersion(db: Db): Promise<number> {
  const [row] = await db
    .select({ version: contentVersion.version })
    .from(contentVersion)
    .where(eq(contentVersion.id, 1));
  return row?.version ?? 0;
}
