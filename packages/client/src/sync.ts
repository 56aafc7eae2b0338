/**
 * Incremental sync into a store the caller names: the first run downloads every list, later runs
 * only what changed, by the service's sync cursors and never a clock ({@link fetchChanges}), and
 * the store keeps the items by id with the state between runs — `FileStore`
 * (`@tec-edge/client/node`) in a directory, so that a build after one change downloads only that
 * change.
 */
import { type ChangeOptions, fetchChanges, type SyncState, type SyncStats } from "./changes.js";
import type { TecClient } from "./client.js";
import { type EntityOf, KINDS, type Kind } from "./types.js";

/** The items of each list, by id. */
export type Entities = { [K in Kind]?: Record<string, EntityOf[K]> };

/** What a store keeps: the sync state and the items. */
export interface Snapshot {
  state: SyncState;
  entities: Entities;
}

/** Where {@link sync} keeps its snapshot between runs. */
export interface SyncStore {
  load(): Promise<Snapshot | undefined>;
  /** Called once per run, after every change is applied. */
  save(snapshot: Snapshot): Promise<void>;
}

/** A store in memory (one process: tests, a long-running app). */
export class MemoryStore implements SyncStore {
  #snapshot: Snapshot | undefined;
  async load() {
    return this.#snapshot && structuredClone(this.#snapshot);
  }
  async save(snapshot: Snapshot) {
    this.#snapshot = structuredClone(snapshot);
  }
}

/** The calendar after a sync: each list in the service's order (events by start, terms by name). */
export interface Calendar {
  events: EntityOf["events"][];
  venues: EntityOf["venues"][];
  organizers: EntityOf["organizers"][];
  categories: EntityOf["categories"][];
  tags: EntityOf["tags"][];
}

/** A sync's result: the calendar, what changed, and what it cost. */
export interface SyncResult extends Calendar {
  /** True when this run walked the lists from scratch (no state, or other options). */
  first: boolean;
  /** Ids upserted and removed per list. */
  changed: Record<Kind, { upserted: number[]; removed: number[] }>;
  stats: SyncStats;
}

export interface SyncOptions extends ChangeOptions {
  /** The login of the client's credentials, if any: a state made as someone else is not continued. */
  user?: string;
}

/**
 * Brings the store up to date and answers the whole calendar.
 * @example
 * const client = new TecClient({ baseUrl: "https://cal.example/wp-json/tribe/events/v1" });
 * const { events, stats } = await sync(client, new FileStore(".cache/calendar"));
 * console.log(`${events.length} events, ${stats.requests} requests, ${stats.bytes} bytes`);
 */
export async function sync(
  client: TecClient,
  store: SyncStore,
  options: SyncOptions = {},
): Promise<SyncResult> {
  const before = await store.load();
  const applied =
    (await apply(client, before, options)) ?? (await apply(client, undefined, options))!;
  await store.save(applied.snapshot);
  return { ...calendarOf(applied.snapshot.entities), ...applied.result };
}

/**
 * Fetches the changes since `before` and applies them. Undefined when a page answered 304 for
 * items the snapshot does not have (a store cut short): the caller starts from scratch.
 */
async function apply(
  client: TecClient,
  before: Snapshot | undefined,
  options: SyncOptions,
): Promise<{ snapshot: Snapshot; result: Omit<SyncResult, keyof Calendar> } | undefined> {
  const { state, changes, stats } = await fetchChanges(
    client,
    before?.state,
    options,
    options.user,
  );
  const first = !before || before.state.fingerprint !== state.fingerprint;
  const entities: Entities = {};
  const changed = {} as SyncResult["changed"];
  for (const kind of options.kinds ?? KINDS) {
    const change = changes[kind]!;
    const old: Record<string, unknown> = (!first && before?.entities[kind]) || {};
    const next: Record<string, unknown> = {};
    if (change.full) for (const id of change.present) if (id in old) next[id] = old[id];
    if (!change.full) Object.assign(next, old);
    for (const item of change.upserted) next[(item as { id: number }).id] = item;
    if (change.full && change.present.some((id) => !(id in next))) return undefined;
    for (const id of change.removed) delete next[id];
    (entities as Record<string, unknown>)[kind] = next;
    changed[kind] = {
      upserted: change.upserted.map((item) => (item as { id: number }).id),
      removed: change.removed.filter((id) => id in old),
    };
  }
  return { snapshot: { state, entities }, result: { first, changed, stats } };
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

/**
 * The lists of a snapshot in the service's order: events by UTC start, then id; venues and
 * organizers by id; categories and tags by name, then id.
 */
export function calendarOf(entities: Entities): Calendar {
  const values = <K extends Kind>(kind: K) => Object.values(entities[kind] ?? {}) as EntityOf[K][];
  const byName = (a: EntityOf["tags"], b: EntityOf["tags"]) =>
    (a.name ?? "").localeCompare(b.name ?? "") || byId(a, b);
  return {
    events: values("events").sort(
      (a, b) => (a.utc_start_date ?? "").localeCompare(b.utc_start_date ?? "") || byId(a, b),
    ),
    venues: values("venues").sort(byId),
    organizers: values("organizers").sort(byId),
    categories: values("categories").sort(byName),
    tags: values("tags").sort(byName),
  };
}
