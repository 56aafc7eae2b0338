/**
 * `@tec-edge/astro-loader`: Astro Content Layer loaders (`astro/loaders` `Loader`, Astro ≥ 6) for
 * the events, venues, organizers, categories and tags of a tec-edge (The Events Calendar REST API)
 * service. The first build downloads every list; a later build asks only what changed since the
 * previous one — by the service's sync cursors (`sync_cursor`, `/deleted`), never a clock — with the
 * sync state in each collection's `meta` and the entries in Astro's data store, which Astro keeps
 * between builds.
 *
 * Rebuild trigger: register a `calendar.changed` webhook on the service with the site's build hook
 * as its URL (README, "Webhooks"); the build it starts fetches only the change.
 *
 * @example
 * // src/content.config.ts
 * import { defineCollection } from "astro:content";
 * import { tecLoaders } from "@tec-edge/astro-loader";
 * const tec = tecLoaders({ baseUrl: "https://cal.example/en/wp-json/tribe/events/v1" });
 * export const collections = {
 *   events: defineCollection({ loader: tec.events }),
 *   venues: defineCollection({ loader: tec.venues }),
 * };
 */
import {
  type ChangeOptions,
  type Credentials,
  type EntityOf,
  KINDS,
  type Kind,
  TecClient,
  type TecClientOptions,
} from "@tec-edge/client";
import { schemaOf, typesOf } from "./schema.js";
import { META_KEY, Session, type StoredState } from "./session.js";

export type { StoredState } from "./session.js";

/** What this loader uses of Astro's `LoaderContext` (`astro/loaders`). */
export interface LoaderContext {
  collection: string;
  store: {
    keys(): string[];
    set(entry: { id: string; data: Record<string, unknown>; digest?: string | number }): boolean;
    delete(id: string): void;
  };
  meta: { get(key: string): string | undefined; set(key: string, value: string): void };
  logger: { info(message: string): void };
  parseData<T extends Record<string, unknown>>(props: { id: string; data: T }): Promise<T>;
  generateDigest(data: Record<string, unknown> | string): string | number;
}

/** An Astro object loader (`astro/loaders` `Loader`, with `createSchema`). */
export interface TecLoader {
  name: string;
  load(context: LoaderContext): Promise<void>;
  createSchema(): Promise<{ schema: unknown; types: string }>;
}

export interface TecLoaderOptions
  extends Omit<ChangeOptions, "kinds">,
    Pick<TecClientOptions, "headers" | "fetch" | "onResponse"> {
  /** The namespace root of one language, e.g. `https://cal.example/de/wp-json/tribe/events/v1`. */
  baseUrl: string;
  /** An application password (drafts and private posts for editors); anonymous without it. */
  auth?: Credentials;
  /** Milliseconds the first collection waits for the others before the one shared sync (100). */
  waitMs?: number;
}

// A variable, so that TypeScript does not look for Astro here: the site has it.
const ASTRO_ZOD: string = "astro/zod";

/**
 * The five loaders of one service and language, sharing one sync per build.
 * @example const tec = tecLoaders({ baseUrl, window: { start: "2026-01-01" } }); tec.events
 */
export function tecLoaders(options: TecLoaderOptions): Record<Kind, TecLoader> {
  const { baseUrl, auth, headers, fetch, onResponse, waitMs, ...change } = options;
  const client = new TecClient({ baseUrl, auth, headers, fetch, onResponse });
  const session = new Session(client, change, auth?.username, KINDS, waitMs ?? 100);
  return Object.fromEntries(
    KINDS.map((kind) => [kind, loader(kind, session, !!change.fields?.[kind])]),
  ) as Record<Kind, TecLoader>;
}

/**
 * One loader on its own (its sync is its own: one list and `/deleted` per build).
 * @example events: defineCollection({ loader: tecLoader("events", { baseUrl }) })
 */
export function tecLoader(kind: Kind, options: TecLoaderOptions): TecLoader {
  const { baseUrl, auth, headers, fetch, onResponse, waitMs, ...change } = options;
  const client = new TecClient({ baseUrl, auth, headers, fetch, onResponse });
  const session = new Session(client, change, auth?.username, [kind], waitMs ?? 0);
  return loader(kind, session, !!change.fields?.[kind]);
}

function loader(kind: Kind, session: Session, partial: boolean): TecLoader {
  return {
    name: "@tec-edge/astro-loader",
    async createSchema() {
      const { z } = await import(ASTRO_ZOD);
      return { schema: schemaOf(z, kind, partial), types: typesOf(kind, partial) };
    },
    async load(context) {
      const raw = context.meta.get(META_KEY);
      let stored: StoredState | undefined = raw ? JSON.parse(raw) : undefined;
      // Astro cleared the store (a config change) but not this state: start over.
      if (stored && !context.store.keys().length) stored = undefined;
      let { changes, state } = await session.changes(kind, stored);
      if (changes.full) {
        const have = new Set(context.store.keys());
        const fresh = new Set(changes.upserted.map((item) => String(item.id)));
        // A page answered 304 for entries this store lacks: walk again from scratch.
        if (changes.present.some((id) => !have.has(String(id)) && !fresh.has(String(id))))
          ({ changes, state } = await session.changes(kind, undefined));
        const present = new Set(changes.present.map(String));
        for (const id of context.store.keys()) if (!present.has(id)) context.store.delete(id);
      }
      for (const item of changes.upserted as EntityOf[Kind][]) {
        const id = String(item.id);
        const record = item as unknown as Record<string, unknown>;
        const data = await context.parseData({ id, data: record });
        context.store.set({ id, data, digest: context.generateDigest(record) });
      }
      for (const id of changes.removed) context.store.delete(String(id));
      context.meta.set(META_KEY, JSON.stringify(state));
      context.logger.info(
        changes.full
          ? `${kind}: ${changes.present.length} entries (full walk, ${changes.upserted.length} downloaded)`
          : `${kind}: ${changes.upserted.length} changed, ${changes.removed.length} removed`,
      );
    },
  };
}
