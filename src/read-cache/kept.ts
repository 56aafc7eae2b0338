/**
 * What the read cache keeps of the database besides whole answers (docs: caching), for the handlers
 * of anonymous event reads: handed to them through the request's context (`c.get("kept")`,
 * src/http/context.ts `KeptReads`), set by the app for requests served with caches on
 * (`READ_CACHE`), never otherwise — the full path the differential test compares with keeps nothing.
 *
 * Each entry is keyed by everything it depends on, as the read cache's answers are:
 *
 * - `texts`: stored renderings' texts by render key (code and settings: src/events/rendering/format.ts
 *   `renderKey`), kind and `id:gen` — a rendering's generation is drawn anew with every change;
 * - `filled`: those texts as answered, by the text's key, the request's URL base and the terms'
 *   counts read with them;
 * - `answers`: each query's last answer (the `id:gen` pairs it showed, whether all had a text) with
 *   the content version it was read at (src/events/rendering/read.ts `planRead`: the held/lean reads);
 * - `totals`: an archive's total with the content version it was counted at (used only at that
 *   version: src/events/listed.ts `listedTotal`);
 * - `termWeights`: how common a filter's terms were (a plan, never an answer:
 *   src/events/term-weights.ts).
 *
 * Measured (bench/README.md): without `texts`/`filled`/`answers` a `per_page=50` miss of the demo
 * calendar costs about 1.7× the CPU (each miss moves the page's texts out of D1 again), and without
 * `totals` every 100k archive page counts its events again.
 */
import type { KeptReads } from "../http/context";
import { Memo } from "../lib/memo";

/** Characters of stored texts kept per isolate (~2,000 events' list and single texts). */
const MAX_TEXT_CHARS = 8 * 1024 * 1024;
/** Bytes of filled-in texts kept per isolate. */
const MAX_FILLED_BYTES = 8 * 1024 * 1024;

/** The isolate's kept reads (one set: every settings object's render key is in its keys). */
export const kept: KeptReads = {
  texts: new Memo<string>(MAX_TEXT_CHARS, (text) => text.length),
  filled: new Memo<Uint8Array<ArrayBuffer>>(MAX_FILLED_BYTES, (b) => b.byteLength),
  answers: new Memo(2048),
  totals: new Memo(2048),
  termWeights: new Memo<number>(1024),
};

/** Forgets everything kept (tests that compare with an empty isolate). */
export function clearKept(): void {
  for (const memo of Object.values(kept)) memo.clear();
}
