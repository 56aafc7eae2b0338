/**
 * `@tec-edge/eleventy`: the calendar of a tec-edge (The Events Calendar REST API) service as
 * Eleventy global data. The first build downloads every list into a cache directory; a rebuild
 * asks only what changed since, by the service's sync cursors (`sync_cursor`, `/deleted`,
 * revalidated with `If-None-Match`; never a clock), and downloads only that — the
 * `@tec-edge/client` sync with its `FileStore`.
 *
 * @example
 * // eleventy.config.js
 * import tecEdge from "@tec-edge/eleventy";
 * export default function (eleventyConfig) {
 *   eleventyConfig.addPlugin(tecEdge, {
 *     baseUrl: { en: "https://cal.example/en/wp-json/tribe/events/v1",
 *                de: "https://cal.example/de/wp-json/tribe/events/v1" },
 *   });
 * }
 * // templates: {% for event in tec.en.events %}…
 */
import path from "node:path";
import {
  type Calendar,
  type Credentials,
  FileStore,
  type SyncOptions,
  type SyncResult,
  sync,
  TecClient,
  type TecClientOptions,
} from "@tec-edge/client/node";

export interface TecDataOptions
  extends Omit<SyncOptions, "user">,
    Pick<TecClientOptions, "headers" | "fetch" | "onResponse"> {
  /** The namespace root of one language, e.g. `https://cal.example/de/wp-json/tribe/events/v1`. */
  baseUrl: string;
  /** An application password; anonymous without it. */
  auth?: Credentials;
  /**
   * Where the items and the sync state are kept between builds (default
   * `.cache/tec-edge/<host and path of baseUrl>`, beside Eleventy's own `.cache`).
   */
  cacheDir?: string;
  /** Prints one line per sync (requests, 304s, bytes, changes); default true. */
  log?: boolean;
}

/** The calendar as templates see it, with what its sync cost. */
export type TecData = Calendar & Pick<SyncResult, "stats" | "changed" | "first">;

/** The default cache directory of a base URL. */
export function defaultCacheDir(baseUrl: string): string {
  const url = new URL(baseUrl);
  const slug = `${url.host}${url.pathname}`.replace(/[^a-zA-Z0-9.-]+/g, "_").replace(/_+$/, "");
  return path.join(".cache", "tec-edge", slug);
}

/**
 * Syncs one service and language into its cache directory and answers the calendar.
 * Use it in a global data file (`_data/calendar.js`: `export default () => tecData({ baseUrl })`).
 * @throws TecApiError, TecHttpError (`@tec-edge/client`) when the service cannot be read; the
 *   cache keeps the previous build's data.
 */
export async function tecData(options: TecDataOptions): Promise<TecData> {
  const { baseUrl, auth, headers, fetch, onResponse, cacheDir, log, ...rest } = options;
  const client = new TecClient({ baseUrl, auth, headers, fetch, onResponse });
  const dir = cacheDir ?? defaultCacheDir(baseUrl);
  const result = await sync(client, new FileStore(dir), { ...rest, user: auth?.username });
  if (log ?? true) {
    const { requests, notModified, bytes } = result.stats;
    const changes = Object.entries(result.changed)
      .map(([kind, c]) => `${kind} +${c.upserted.length}/-${c.removed.length}`)
      .join(", ");
    console.log(
      `[tec-edge] ${baseUrl}: ${result.first ? "first sync" : "sync"}, ${requests} requests (${notModified} not modified), ${bytes} bytes; ${changes}`,
    );
  }
  const { stats, changed, first, events, venues, organizers, categories, tags } = result;
  return { events, venues, organizers, categories, tags, stats, changed, first };
}

/** Plugin options: one base URL, or several by name (`{ en: …, de: … }` → `tec.en`, `tec.de`). */
export interface TecPluginOptions extends Omit<TecDataOptions, "baseUrl"> {
  baseUrl: string | Record<string, string>;
  /** The global data key (default `tec`). */
  name?: string;
}

/** What the plugin needs of Eleventy's config API. */
export interface EleventyConfigLike {
  addGlobalData(name: string, value: () => Promise<unknown>): unknown;
}

/**
 * The Eleventy plugin: adds the global data `tec` (or `options.name`), synced once per build.
 * Several base URLs (`{ en, de }`) each get their own cache directory.
 */
export default function tecEdgePlugin(
  eleventyConfig: EleventyConfigLike,
  options: TecPluginOptions,
): void {
  const { baseUrl, name, cacheDir, ...rest } = options;
  eleventyConfig.addGlobalData(name ?? "tec", async () => {
    if (typeof baseUrl === "string") return tecData({ ...rest, cacheDir, baseUrl });
    const entries = await Promise.all(
      Object.entries(baseUrl).map(
        async ([key, url]) =>
          [
            key,
            await tecData({
              ...rest,
              baseUrl: url,
              cacheDir: cacheDir && path.join(cacheDir, key),
            }),
          ] as const,
      ),
    );
    return Object.fromEntries(entries);
  });
}
