/**
 * The one sequence of every write of an event (a series and its occurrences included), venue,
 * organizer, category or tag (contract §2): **parse → load → plan → one batch with retry → answer**.
 *
 * - **parse** runs once: the request's arguments, what does not depend on D1 (a password's digest).
 * - **load** is the write's read batch (one D1 round trip, sometimes one more for what the first
 *   names, as each resource documents).
 * - **plan** decides from the request and the reads alone: the validators that need D1, the
 *   permission, then either the statements of the write (with the guards that make it apply only
 *   to what was read: src/db/write.ts `unlessChanged`) and what to read back in the same batch, or
 *   an answer without a write (an update that changes nothing). Ids a plan hands out are reserved
 *   (src/db/ids.ts `withReservedIds`), and new image URLs checked, before the batch.
 * - **one batch**: the statements and the reload of what was written run as one `db.batch()`, a
 *   transaction: the write lands whole or not at all. A batch that lost a race to a parallel write
 *   runs the operation again from its reads (`withWriteRetry`), which then see the winner.
 * - **answer** is made from the reload (the record as stored, in the same round trip).
 *
 * Each resource gives its steps (src/events/save.ts, delete.ts, src/events/series/*,
 * src/linked-posts/save.ts, delete.ts, src/terms/save.ts, delete.ts); none repeats the sequence.
 */
import { type BatchEntry, type BatchQuery, type EntryResult, runBatch } from "./batch";
import type { Db } from "./client";
import { withWriteRetry } from "./write";

/**
 * What a plan decides: the statements of the write and the reload that follows them in the same
 * batch, with the answer made from the reload — or an answer without any write.
 */
export type WriteDecision<A> =
  | {
      readonly write: readonly BatchQuery[];
      readonly reload: BatchEntry;
      readonly answer: (reloaded: unknown) => A | Promise<A>;
    }
  | { readonly done: () => A | Promise<A> };

/**
 * A decision to write: `write` (guards first) then `reload` (a query or a group of queries, or
 * `undefined` for none) in one batch; `answer` gets the reload's results, typed as `runBatch`
 * types them.
 * @example return writeThen(statements, eventLoadQueries(db, { id }), (event) => c.json(...))
 */
export function writeThen<R extends BatchEntry, A>(
  write: readonly BatchQuery[],
  reload: R,
  answer: (reloaded: EntryResult<R>) => A | Promise<A>,
): WriteDecision<A> {
  return { write, reload, answer: answer as (reloaded: unknown) => A | Promise<A> };
}

/** A decision to write nothing and answer with `done` (which may read, e.g. a namesake found). */
export const answerOnly = <A>(done: () => A | Promise<A>): WriteDecision<A> => ({ done });

/** The steps of one write: `parse` once, then `load` and `plan` on every round of the retry. */
export interface WriteSteps<P, L, A> {
  /** The request's arguments and what needs no D1; its errors (400s) end the write at once. */
  parse: () => P | Promise<P>;
  /** The read batch. */
  load: (parsed: P) => L | Promise<L>;
  /** The checks and the decision, from the parsed request and the reads. */
  plan: (parsed: P, loaded: L) => WriteDecision<A> | Promise<WriteDecision<A>>;
}

/**
 * Runs a write's steps: parse → load → plan → one batch (`write` and `reload`) → answer, again from
 * the load when the batch lost a race (`withWriteRetry`: at most `WRITE_ATTEMPTS` rounds).
 * @returns the plan's answer (a Response, for the routes).
 * @throws what `parse` and `plan` throw (ApiError: the route's 4xx); WriteConflict (409
 *   `rest_write_conflict`) when every round lost its race.
 * @example return runWrite(db, { parse: () => parseArgs(...), load: (p) => reads(p), plan })
 */
export async function runWrite<P, L, A>(db: Db, steps: WriteSteps<P, L, A>): Promise<A> {
  const parsed = await steps.parse();
  return withWriteRetry(async () => {
    const decision = await steps.plan(parsed, await steps.load(parsed));
    if ("done" in decision) return decision.done();
    const { reloaded } = await runBatch(db, {
      write: decision.write as BatchQuery[],
      reloaded: decision.reload,
    });
    return decision.answer(reloaded);
  });
}
