/**
 * The content version as this isolate knows it (issue 16): anonymous cache hits and 304s are
 * answered from memory, without a D1 round trip, for `CONTENT_VERSION_TTL_MS` after the version
 * was last read. Every anonymous miss reads the version again in the same batch as its page (no
 * extra round trip, src/db/client.ts), and a write in this isolate forgets it, so:
 *
 * - a reader of any isolate sees a write at most `CONTENT_VERSION_TTL_MS` late (plus `max-age` at a
 *   shared cache in front);
 * - the writing isolate's next anonymous answer already reflects the write;
 * - requests with credentials or an `x-d1-bookmark` never use the remembered version.
 *
 * Versions only grow (every write bumps them), so a read from a lagging replica never moves the
 * remembered one backwards.
 */

let known: { version: number; readAt: number } | null = null;

/**
 * The remembered version if it was read less than `ttlMs` ago, else undefined.
 * @param now milliseconds (`Date.now()`).
 */
export function rememberedVersion(now: number, ttlMs: number): number | undefined {
  if (!known || now - known.readAt >= ttlMs) return undefined;
  return known.version;
}

/** Remembers a version just read from D1 (the larger one wins). */
export function learnVersion(version: number, now: number): void {
  if (!known || version >= known.version) known = { version, readAt: now };
}

/** Forgets the version (after a write here, and between tests). */
export function forgetVersion(): void {
  known = null;
}
