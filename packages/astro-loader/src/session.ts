/**
 * One sync for all the collections of one {@link tecLoaders} call. Astro runs the collections'
 * loaders at once, each with its own data store and `meta`; each registers here with the sync state
 * its `meta` holds, and the first registration waits a moment for the others so that one
 * {@link fetchChanges} asks every list and `/deleted` once. A collection that registers late, or
 * whose state belongs to other options, gets a sync of its own (more requests, same result).
 */
import {
  type ChangeOptions,
  type EntityOf,
  fetchChanges,
  fingerprint,
  type Kind,
  type KindChanges,
  type KindState,
  type SyncState,
  type TecClient,
} from "@tec-edge/client";

/** What a collection's `meta` keeps (JSON under {@link META_KEY}). */
export interface StoredState {
  fingerprint: string;
  kind: KindState;
  deleted?: SyncState["deleted"];
}

/** The `meta` key of the sync state. */
export const META_KEY = "tec-edge:sync";

interface Registration {
  kind: Kind;
  stored: StoredState | undefined;
  resolve: (value: Promise<Outcome>) => void;
}

/** A collection's changes and the state to store once they are applied. */
export interface Outcome {
  changes: KindChanges<EntityOf[Kind]>;
  state: StoredState;
}

export class Session {
  readonly #client: TecClient;
  readonly #options: ChangeOptions;
  readonly #user: string | undefined;
  readonly #kinds: readonly Kind[];
  readonly #waitMs: number;
  #pending: Registration[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #started = false;

  constructor(
    client: TecClient,
    options: ChangeOptions,
    user: string | undefined,
    kinds: readonly Kind[],
    waitMs: number,
  ) {
    this.#client = client;
    this.#options = options;
    this.#user = user;
    this.#kinds = kinds;
    this.#waitMs = waitMs;
  }

  /** The fingerprint states must carry to be continued. */
  get fingerprint(): string {
    return fingerprint(this.#client, this.#user, this.#options);
  }

  /** The changes of `kind` since `stored` (undefined: a first run for it). */
  changes(kind: Kind, stored: StoredState | undefined): Promise<Outcome> {
    const usable = stored?.fingerprint === this.fingerprint ? stored : undefined;
    if (this.#started) return this.#run([{ kind, stored: usable, resolve: () => {} }]).get(kind)!;
    return new Promise<Outcome>((resolve) => {
      this.#pending.push({ kind, stored: usable, resolve });
      const all = this.#kinds.every((k) => this.#pending.some((r) => r.kind === k));
      if (all) this.#flush();
      else this.#timer ??= setTimeout(() => this.#flush(), this.#waitMs);
    });
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#started = true;
    const batch = this.#pending;
    this.#pending = [];
    const results = this.#run(batch);
    for (const r of batch) r.resolve(results.get(r.kind)!);
    // The next round of loads (`astro dev` reloading content) batches again.
    void Promise.allSettled(results.values()).then(() => {
      this.#started = false;
    });
  }

  /** One {@link fetchChanges} for `batch`, its outcome per kind. */
  #run(batch: Registration[]): Map<Kind, Promise<Outcome>> {
    const kinds = batch.map((r) => r.kind);
    const stored = batch.map((r) => r.stored).filter((s): s is StoredState => !!s);
    // The /deleted cursor: the one every incremental collection shares, else the earliest (one
    // without a cursor: none, so the lists' earliest is taken).
    const cursors = stored
      .map((s) => s.deleted)
      .filter((d): d is NonNullable<SyncState["deleted"]> => !!d);
    const same = cursors.every((c) => JSON.stringify(c) === JSON.stringify(cursors[0]));
    const positions = cursors.map((c) => c.cursor);
    const deleted = !cursors.length
      ? undefined
      : same
        ? cursors[0]
        : {
            cursor: positions.includes(undefined)
              ? undefined
              : Math.min(...(positions as number[])),
          };
    const previous: SyncState | undefined = stored.length
      ? {
          version: 2,
          fingerprint: this.fingerprint,
          kinds: Object.fromEntries(
            batch.filter((r) => r.stored).map((r) => [r.kind, r.stored!.kind]),
          ),
          deleted,
        }
      : undefined;
    const run = fetchChanges(this.#client, previous, { ...this.#options, kinds }, this.#user);
    return new Map(
      kinds.map((kind) => [
        kind,
        run.then(({ state, changes }) => ({
          changes: changes[kind] as KindChanges<EntityOf[Kind]>,
          state: {
            fingerprint: state.fingerprint,
            kind: state.kinds[kind]!,
            deleted: state.deleted,
          },
        })),
      ]),
    );
  }
}
