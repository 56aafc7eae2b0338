/**
 * Hot anonymous answers kept in the isolate (issue 16), in front of the Workers Cache API: a hit
 * here costs no subrequest at all. Keyed like the edge cache (the strong ETag: content version,
 * language, path, parsed query, clock bucket), bounded in bytes, least recently used out first.
 */
import { Memo } from "./memo";

/** An answer as stored: status, headers (without per-request ones) and the body's bytes. */
export interface StoredAnswer {
  status: number;
  headers: Array<[string, string]>;
  body: ArrayBuffer;
  /**
   * Whether it is in the Workers Cache API too. An answer goes there when it is asked for again
   * (answered from this store), not when it is made: answers asked for once (a build walking the
   * pages, a one-off query) cost no cache write (issue 16).
   */
  shared?: boolean;
  /** Every header of a hit for a request without `Origin` (`src/http/memory-answers.ts`), once worked out. */
  final?: Array<[string, string]>;
}

/** Bytes kept per isolate (workers have 128 MB). */
const MAX_BYTES = 16 * 1024 * 1024;
/** Larger answers are left to the Cache API only. */
const MAX_ENTRY_BYTES = 1024 * 1024;

const answers = new Memo<StoredAnswer>(MAX_BYTES, (answer) => answer.body.byteLength);

/** The answer kept under `key`, marked as recently used; undefined when there is none. */
export const recall = (key: string): StoredAnswer | undefined => answers.find(key);

/** Keeps an answer under `key` (ignored above the entry bound), evicting the oldest beyond the byte bound. */
export function keep(key: string, answer: StoredAnswer): void {
  if (answer.body.byteLength <= MAX_ENTRY_BYTES) answers.set(key, answer);
}

/** Forgets everything (tests). */
export function forgetAnswers(): void {
  answers.clear();
}
