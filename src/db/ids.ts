/**
 * Ids of new posts and terms (contract §2: events, venues, organizers and media share one post-id
 * sequence, categories and tags one term-id sequence; ids are never reused).
 *
 * Ids are reserved, never guessed: a write first builds its batch with provisional ids to
 * learn how many it needs (`IdAllocator.provisional()`), then reserves exactly that many with one
 * atomic `UPDATE id_sequences … RETURNING` and builds again with them. Two parallel writes can
 * therefore never hand out the same id, however many run at once, and a write that fails or retries
 * leaves at most a gap (WordPress's ids have gaps too). Reserved ids are kept across the retries of
 * one request, so a retry reserves only what it needs beyond them.
 *
 * The reservation also moves each sequence past the highest id in its tables, so rows written by
 * other means (the demo seed, test factories, a restored dump) can never be collided with.
 */
import { eq, sql } from "drizzle-orm";
import { runBatch } from "./batch";
import type { Db } from "./client";
import { idSequences } from "./schema";

export type Sequence = "post" | "term";

/**
 * Post ids from here on (2^52, up to `Number.MAX_SAFE_INTEGER`) are never handed out by the post
 * sequence: they name an occurrence of a recurring series by its series and day, before and after
 * it is stored (contract §7.8; src/events/series/instance-ids.ts).
 */
export const INSTANCE_ID_BASE = 2 ** 52;

/** The lowest id a sequence may hand out next, whatever it holds: one past every id in use. */
const FLOOR: Record<Sequence, ReturnType<typeof sql>> = {
  post: sql`(SELECT coalesce(max(id), 0) + 1 FROM posts WHERE id < ${sql.raw(String(INSTANCE_ID_BASE))})`,
  term: sql`(max(
    coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'terms'), 0),
    coalesce((SELECT max(id) FROM terms), 0),
    coalesce((SELECT max(id) FROM deleted_terms), 0)) + 1)`,
};

/** Hands out ids in order: reserved ones, or provisional ones (-1, -2, …) for a counting build. */
export class IdAllocator {
  private used = 0;

  private constructor(private readonly ids: readonly number[] | null) {}

  /** An allocator whose ids only count: the statements built with them are thrown away. */
  static provisional(): IdAllocator {
    return new IdAllocator(null);
  }

  /** An allocator over reserved ids. */
  static of(ids: readonly number[]): IdAllocator {
    return new IdAllocator(ids);
  }

  /**
   * The next id.
   * @throws Error when more ids are taken than were reserved (a build that is not deterministic).
   */
  take(): number {
    const i = this.used++;
    if (this.ids === null) return -(i + 1);
    const id = this.ids[i];
    if (id === undefined) throw new Error("more ids taken than reserved");
    return id;
  }

  /** How many ids were taken. */
  get count(): number {
    return this.used;
  }
}

/** The ids one request has reserved, per sequence, in order. */
export class IdReservation {
  private readonly reserved: Record<Sequence, number[]> = { post: [], term: [] };

  constructor(private readonly db: Db) {}

  /**
   * Makes sure at least `need` ids of each sequence are reserved: one D1 round trip when more are
   * needed than this request already holds, none otherwise.
   */
  async ensure(need: Record<Sequence, number>): Promise<void> {
    const short = (["post", "term"] as const)
      .map((name) => [name, need[name] - this.reserved[name].length] as const)
      .filter(([, n]) => n > 0);
    if (short.length === 0) return;
    const statements = short.map(([name, n]) =>
      this.db
        .update(idSequences)
        .set({ next: sql`max(${idSequences.next}, ${FLOOR[name]}) + ${n}` })
        .where(eq(idSequences.name, name))
        .returning({ next: idSequences.next }),
    );
    const { results } = await runBatch(this.db, { results: statements });
    short.forEach(([name, n], i) => {
      const next = results[i][0]?.next;
      if (next === undefined) throw new Error(`id sequence ${name} is missing`);
      for (let id = next - n; id < next; id++) this.reserved[name].push(id);
    });
  }

  /** Allocators over the reserved ids (each call starts again from the first). */
  allocators(): { postIds: IdAllocator; termIds: IdAllocator } {
    return {
      postIds: IdAllocator.of(this.reserved.post),
      termIds: IdAllocator.of(this.reserved.term),
    };
  }
}

/**
 * Builds a write with reserved ids: `build` runs once with provisional ids to count what it needs
 * (validation errors it throws surface before anything is reserved), then — when it needs ids —
 * again with reserved ones. `build` must be deterministic: same reads, same statements.
 * @returns what the final build returned.
 * @example const plan = await withReservedIds(ids, (a) => buildEventWrite(a))
 */
export async function withReservedIds<T>(
  reservation: IdReservation,
  build: (ids: { postIds: IdAllocator; termIds: IdAllocator }) => T,
): Promise<T> {
  const counting = { postIds: IdAllocator.provisional(), termIds: IdAllocator.provisional() };
  const draft = build(counting);
  if (counting.postIds.count === 0 && counting.termIds.count === 0) return draft;
  await reservation.ensure({ post: counting.postIds.count, term: counting.termIds.count });
  return build(reservation.allocators());
}
